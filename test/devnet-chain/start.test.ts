/**
 * startDevnetChain: bootstrap, the protocol loop (mine, advanceEpoch, background ticks, idle
 * blocks), stop and resume on the same data directory, the datadir lock, parameter checks,
 * engine death, and no orphaned anvil when the parent process is killed.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { createPublicClient, http, type PublicClient, parseEther } from 'viem'
import { consensusRegistryAbi } from '../../src/devnet/chain/abi.js'
import { anvilMine, anvilSetBalance } from '../../src/devnet/chain/anvil-rpc.js'
import { loadContractArtifact } from '../../src/devnet/chain/artifacts.js'
import {
  DevnetAlreadyRunningError,
  DevnetStoppedError,
  DevnetTransactionError,
  InvalidDevnetParameterError,
} from '../../src/devnet/chain/errors.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import {
  BLS_VERIFIER_ADDRESS,
  DEVNET_CHAIN_ID,
  type DevnetChain,
  ISSUANCE_ADDRESS,
  REGISTRY_ADDRESS,
} from '../../src/devnet/chain/types.js'
import { ROOT, tempDir } from '../helpers/cli.js'

const cleanups: (() => Promise<void> | void)[] = []
after(async () => {
  for (const c of cleanups.reverse()) await c()
})

async function start(params: Parameters<typeof startDevnetChain>[0]): Promise<DevnetChain> {
  const chain = await startDevnetChain(params)
  cleanups.push(() => chain.stop())
  return chain
}

function datadir(): string {
  const { dir, cleanup } = tempDir('tnv-devnet-start-')
  cleanups.push(cleanup)
  return dir
}

function clientFor(chain: DevnetChain): PublicClient {
  return createPublicClient({ transport: http(chain.engineHttpUrl), pollingInterval: 20 })
}

async function epochOf(client: PublicClient) {
  return client.readContract({
    address: REGISTRY_ADDRESS,
    abi: consensusRegistryAbi,
    functionName: 'getCurrentEpochInfo',
  })
}

/** Polls `check` until it holds (the chain moves on its own here); fails after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('startDevnetChain', () => {
  it('bootstraps a fresh devnet: contracts at their addresses, funded accounts, genesis validators, loopback only', async () => {
    const chain = await start({ datadir: datadir(), blockTime: 0, protocolLoop: false })
    const client = clientFor(chain)
    assert.equal(chain.resumed, false)
    assert.equal(chain.chainId, DEVNET_CHAIN_ID)
    assert.equal(await client.getChainId(), DEVNET_CHAIN_ID)
    assert.match(chain.engineHttpUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.match(chain.engineWsUrl, /^ws:\/\/127\.0\.0\.1:\d+$/)
    assert.equal(chain.epochBlocks, 10)
    assert.deepEqual(
      [chain.registry, chain.issuance, chain.blsVerifier],
      [REGISTRY_ADDRESS, ISSUANCE_ADDRESS, BLS_VERIFIER_ADDRESS],
    )
    assert.equal(
      await client.getCode({ address: REGISTRY_ADDRESS }),
      loadContractArtifact('ConsensusRegistry').deployedBytecode,
    )
    assert.equal(await client.getCode({ address: ISSUANCE_ADDRESS }), loadContractArtifact('Issuance').deployedBytecode)
    assert.equal(
      await client.getCode({ address: BLS_VERIFIER_ADDRESS }),
      loadContractArtifact('BlsVerifier').deployedBytecode,
    )
    assert.equal(chain.accounts.length, 10)
    for (const a of chain.accounts)
      assert.equal(await client.getBalance({ address: a.address }), parseEther('10000000'))
    assert.ok((await client.getBalance({ address: ISSUANCE_ADDRESS })) >= parseEther('1000000000'))
    assert.ok((await client.getBalance({ address: chain.system.address })) > 0n)
    assert.equal(chain.genesisValidators.length, 4)
    const active = await client.readContract({
      address: REGISTRY_ADDRESS,
      abi: consensusRegistryAbi,
      functionName: 'getValidators',
      args: [3],
    })
    assert.deepEqual(active.map((v) => v.validatorAddress).sort(), [...chain.genesisValidators].sort())
  })

  it('mine(n) mines exactly n blocks and concludes each epoch in its last block; advanceEpoch concludes once per call', async () => {
    const chain = await start({ datadir: datadir(), blockTime: 0, epochBlocks: 5 })
    const client = clientFor(chain)
    const startBlock = await client.getBlockNumber()
    const startEpoch = (await epochOf(client)).epochId
    await chain.mine(12)
    assert.equal(await client.getBlockNumber(), startBlock + 12n)
    const info = await epochOf(client)
    assert.ok(info.epochId >= startEpoch + 2, `epochs concluded while mining: ${info.epochId}`)
    for (let e = 1; e <= info.epochId; e++) {
      const [prev, cur] = await Promise.all(
        [e - 1, e].map((x) =>
          client.readContract({
            address: REGISTRY_ADDRESS,
            abi: consensusRegistryAbi,
            functionName: 'getEpochInfo',
            args: [x],
          }),
        ),
      )
      assert.ok(prev && cur)
      assert.equal(cur.blockHeight - prev.blockHeight, 5n, `epoch ${e - 1} lasted 5 blocks`)
    }
    // The background loop may conclude a due epoch between the read above and these calls,
    // so the three results are checked as consecutive epochs after info.epochId.
    const results = [...(await Promise.all([chain.advanceEpoch(), chain.advanceEpoch(), chain.advanceEpoch()]))].sort(
      (a, b) => a - b,
    )
    const first = results[0] ?? 0
    assert.ok(first >= info.epochId + 1 && first <= info.epochId + 2, `first advanced epoch ${first}`)
    assert.deepEqual(results, [first, first + 1, first + 2])
    assert.equal((await epochOf(client)).epochId, first + 2)
  })

  it('the background loop concludes an epoch when transactions carry the chain over the boundary', async () => {
    const chain = await start({ datadir: datadir(), blockTime: 0, epochBlocks: 3 })
    const client = clientFor(chain)
    const { epochId } = await epochOf(client)
    await anvilMine(client, 3) // past the boundary without the loop's help
    await eventually(async () => (await epochOf(client)).epochId > epochId, 'the loop to conclude the epoch')
  })

  it('reports background failures to onProtocolError and recovers once the cause is gone', async () => {
    const errors: Error[] = []
    const chain = await start({
      datadir: datadir(),
      blockTime: 0,
      epochBlocks: 3,
      onProtocolError: (e) => errors.push(e),
    })
    const client = clientFor(chain)
    await anvilSetBalance(client, chain.system.address, 0n) // the system account cannot pay for concludeEpoch
    const { epochId } = await epochOf(client)
    await anvilMine(client, 3)
    await eventually(async () => errors.length > 0, 'a reported failure')
    assert.ok(errors[0] instanceof DevnetTransactionError)
    assert.match(errors[0].message, new RegExp(`conclude epoch ${epochId}`))
    assert.equal((await epochOf(client)).epochId, epochId)
    await anvilSetBalance(client, chain.system.address, parseEther('1000'))
    await eventually(async () => (await epochOf(client)).epochId > epochId, 'the loop to recover')
  })

  it('with blockTime the chain advances while idle, and epochs with it', async () => {
    const chain = await start({ datadir: datadir(), blockTime: 1, epochBlocks: 2 })
    const client = clientFor(chain)
    const block = await client.getBlockNumber()
    const { epochId } = await epochOf(client)
    await eventually(async () => (await client.getBlockNumber()) >= block + 2n, 'idle blocks')
    await eventually(async () => (await epochOf(client)).epochId > epochId, 'an epoch to pass')
  })

  it('stop saves the chain; starting again on the same directory resumes it without bootstrapping', async () => {
    const dir = datadir()
    const first = await startDevnetChain({ datadir: dir, blockTime: 0, protocolLoop: false })
    const client = clientFor(first)
    await first.advanceEpoch()
    await first.mine(3)
    const block = await client.getBlockNumber()
    const { epochId } = await epochOf(client)
    await first.stop()
    await first.stop() // idempotent
    await assert.rejects(first.advanceEpoch(), DevnetStoppedError)
    assert.ok(existsSync(join(dir, 'anvil-state.json')))
    assert.ok(!alive(first.enginePid))

    const second = await start({ datadir: dir, blockTime: 0, protocolLoop: false, epochBlocks: 7 })
    const client2 = clientFor(second)
    assert.equal(second.resumed, true)
    assert.equal(
      await client2.getBlockNumber(),
      block + 1n,
      'resumed at the saved block (plus the epoch-length change)',
    )
    assert.equal((await epochOf(client2)).epochId, epochId)
    assert.equal(second.epochBlocks, 7)
    const newest = await client2.readContract({
      address: REGISTRY_ADDRESS,
      abi: consensusRegistryAbi,
      functionName: 'getCurrentStakeConfig',
    })
    assert.equal(newest.epochDuration, 7, 'the new epoch length is written as the next stake config')
    await second.advanceEpoch()
    assert.equal((await epochOf(client2)).epochDuration, 7)
  })

  it('refuses a second start on a running directory', async () => {
    const dir = datadir()
    await start({ datadir: dir, blockTime: 0, protocolLoop: false })
    await assert.rejects(startDevnetChain({ datadir: dir, blockTime: 0 }), DevnetAlreadyRunningError)
  })

  it('checks its parameters', async () => {
    const dir = datadir()
    await assert.rejects(startDevnetChain({ datadir: dir, epochBlocks: 1 }), InvalidDevnetParameterError)
    await assert.rejects(startDevnetChain({ datadir: dir, epochBlocks: 2.5 }), InvalidDevnetParameterError)
    await assert.rejects(startDevnetChain({ datadir: dir, blockTime: -1 }), InvalidDevnetParameterError)
    await assert.rejects(startDevnetChain({ datadir: dir, port: 70_000 }), InvalidDevnetParameterError)
    assert.deepEqual(readdirSync(dir), [], 'nothing was written')
    const chain = await start({ datadir: dir, blockTime: 0, protocolLoop: false })
    await assert.rejects(chain.mine(-1), InvalidDevnetParameterError)
  })

  it('moves a half-made devnet (state without chain.json) aside instead of deleting it', async () => {
    const dir = datadir()
    writeFileSync(join(dir, 'anvil-state.json'), '{"not":"a finished devnet"}')
    const chain = await start({ datadir: dir, blockTime: 0, protocolLoop: false })
    assert.equal(chain.resumed, false)
    assert.ok(readdirSync(dir).some((f) => /^anvil-state\.incomplete-.*\.json$/.test(f)))
  })

  it('reports the engine dying on its own; the chain then refuses work', async () => {
    const chain = await start({ datadir: datadir(), blockTime: 0 })
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => chain.onEngineExit(resolve))
    process.kill(chain.enginePid, 'SIGKILL')
    const info = await exited
    assert.equal(info.signal, 'SIGKILL')
    await assert.rejects(chain.advanceEpoch(), DevnetStoppedError)
    await chain.stop()
  })

  it('never leaves anvil behind when its parent is killed, and the chain survives it', async () => {
    const dir = datadir()
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/devnet-chain/fixtures/run-chain.ts'), dir],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const line = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d) => {
        out += d
        if (out.includes('\n')) resolve(out.split('\n')[0] as string)
      })
      child.on('exit', (code) => reject(new Error(`child exited early (${code})`)))
    })
    const { enginePid, url } = JSON.parse(line) as { enginePid: number; url: string }
    const client = createPublicClient({ transport: http(url) })
    await anvilMine(client, 5)
    const block = await client.getBlockNumber()
    child.kill('SIGKILL')
    await eventually(async () => !alive(enginePid), 'anvil to exit after its parent died')

    const resumed = await start({ datadir: dir, blockTime: 0, protocolLoop: false })
    assert.equal(resumed.resumed, true)
    assert.equal(await clientFor(resumed).getBlockNumber(), block)
  })
})
