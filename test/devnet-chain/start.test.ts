/**
 * startDevnetChain: the embedded devnet (real next-generation code, dev accounts, verifier),
 * the epoch clock (by time, the background clock, advance-epoch warps, idle blocks), stop and
 * resume on the same data directory (a rehearsal setting can change, the source cannot), an old
 * devnet directory refused, the datadir lock, parameter checks, engine death, and no orphaned
 * anvil when the parent process is killed.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, describe, it } from 'node:test'
import { keccak256, type PublicClient } from 'viem'
import { loadContractArtifact } from '../../src/devnet/chain/artifacts.js'
import {
  DevnetChainLockedError,
  DevnetSourceMismatchError,
  DevnetStateMismatchError,
  DevnetStoppedError,
  InvalidDevnetParameterError,
} from '../../src/devnet/chain/errors.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import { BLS_VERIFIER_ADDRESS, type DevnetChain, REGISTRY_ADDRESS } from '../../src/devnet/chain/types.js'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { KNOWN_REGISTRY_CODE, registryAbis } from '../../src/lib/registry/generations/detect.js'
import { ROOT, tempDir } from '../helpers/cli.js'
import { engineClient } from './helpers.js'

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
  return engineClient(chain)
}

const epochInfo = (client: PublicClient) =>
  client.readContract({ address: REGISTRY_ADDRESS, abi: registryAbis.next, functionName: 'getCurrentEpochInfo' })

/** Polls `check` until it holds (the chain moves on its own here); fails after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Running: not gone and not a zombie its parent has not reaped (CI's PID 1 may never reap). */
const alive = isProcessAlive

describe('startDevnetChain', () => {
  it('the embedded devnet runs the real next-generation code with the verifier and funded dev accounts', async () => {
    const chain = await start({ datadir: datadir(), blockTime: 0, protocolLoop: false })
    const client = clientFor(chain)
    assert.equal(chain.chainId, 911329)
    assert.equal(await client.getChainId(), 911329)
    assert.equal(chain.source.kind, 'embedded')
    assert.equal(chain.source.genesis?.name, 'next')
    assert.equal(chain.generation, 'next')
    const code = await client.getCode({ address: REGISTRY_ADDRESS })
    assert.equal(chain.registryCode.codeHash, keccak256(code as `0x${string}`))
    assert.equal(KNOWN_REGISTRY_CODE[chain.registryCode.codeHash]?.generation, 'next')
    assert.equal(chain.registryCode.match, 'exact')
    assert.equal(chain.blsVerifier, BLS_VERIFIER_ADDRESS)
    assert.equal(
      (await client.getCode({ address: BLS_VERIFIER_ADDRESS }))?.toLowerCase(),
      loadContractArtifact('BlsVerifier').deployedBytecode.toLowerCase(),
    )
    assert.equal(chain.accounts.length, 10)
    for (const a of chain.accounts) assert.equal(await client.getBalance({ address: a.address }), 10n ** 25n)
    // the placeholder committee of the genesis file is kept (networks/next/committee.yaml)
    assert.deepEqual((await epochInfo(client)).committee, [
      '0x2222222222222222222222222222222222222222',
      '0x4444444444444444444444444444444444444444',
      '0x3333333333333333333333333333333333333333',
      '0x1111111111111111111111111111111111111111',
    ])
    assert.equal(chain.epochSeconds, 10, 'the embedded devnet has a 10 s rehearsal epoch')
    const p = await chain.position()
    assert.equal(p.durationSource, 'rehearsal')
    assert.equal(p.registryDuration, 86400)
    // the engine is reached over its IPC socket, in a directory only this user can enter
    assert.ok(statSync(chain.engineIpcPath).isSocket())
    assert.equal(statSync(dirname(chain.engineIpcPath)).mode & 0o777, 0o700)
  })

  it('a genesis rehearsal on adiri: no verifier (adiri verifies with EIP-2537), the registry epoch length', async () => {
    const chain = await start({
      datadir: datadir(),
      source: { kind: 'genesis', genesis: 'adiri' },
      blockTime: 0,
      protocolLoop: false,
    })
    const client = clientFor(chain)
    assert.equal(chain.generation, 'adiri')
    assert.equal(chain.blsVerifier, null)
    assert.equal(await client.getCode({ address: BLS_VERIFIER_ADDRESS }), '0xfe', 'as the genesis file has it')
    assert.equal(chain.epochSeconds, null)
    const before = await chain.position()
    assert.equal(before.duration, 21600)
    // advance-epoch warps the clock to the boundary; later blocks keep that time
    const r = await chain.advanceEpoch()
    assert.ok(r.warpedSeconds > 21500 && r.warpedSeconds <= 21600, `warped ${r.warpedSeconds}`)
    assert.equal(r.timestamp, before.dueAt)
    await chain.mine(1)
    assert.ok((await client.getBlock()).timestamp >= r.timestamp)
    const after = await chain.position()
    assert.equal(after.epoch, before.epoch + 1)
    assert.equal(after.startTimestamp, r.timestamp, 'the epoch starts at its predecessor’s closing block')
    assert.equal(after.dueAt, r.timestamp + 21600n)
  })

  it('the background clock concludes epochs by time, and idle blocks keep the chain moving', async () => {
    const chain = await start({ datadir: datadir(), blockTime: 1, epochSeconds: 2 })
    const client = clientFor(chain)
    const start0 = await chain.position()
    await eventually(async () => (await epochInfo(client)).epochId >= 2, 'two epochs to pass', 15_000)
    const e1 = await client.readContract({
      address: REGISTRY_ADDRESS,
      abi: registryAbis.next,
      functionName: 'getEpochInfo',
      args: [1],
    })
    // epoch 1 began in the block after the one that closed epoch 0, no earlier than 2 s after genesis
    const closing = await client.getBlock({ blockNumber: e1.blockHeight - 1n })
    assert.ok(closing.timestamp >= start0.startTimestamp + 2n)
    assert.ok((await client.getBlockNumber()) >= 2n)
  })

  it('stop saves the chain; a start on the same directory resumes it; a rehearsal setting may change, the source not', async () => {
    const dir = datadir()
    const first = await startDevnetChain({ datadir: dir, blockTime: 0, protocolLoop: false })
    const client = clientFor(first)
    await first.governance({ action: 'mint', validator: first.accounts[0]?.address as `0x${string}` })
    await first.advanceEpoch()
    await first.advanceEpoch()
    const block = await client.getBlockNumber()
    const latest = await client.getBlock()
    await first.stop()
    await first.stop() // idempotent
    await assert.rejects(first.advanceEpoch(), DevnetStoppedError)
    assert.ok(existsSync(join(dir, 'anvil-state.json')))
    assert.ok(!alive(first.enginePid))
    const record = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8'))
    assert.equal(record.format, 2)
    assert.equal(record.generation, 'next')
    assert.equal(record.source.kind, 'embedded')

    await assert.rejects(
      startDevnetChain({ datadir: dir, source: { kind: 'genesis', genesis: 'adiri' } }),
      DevnetSourceMismatchError,
    )
    await assert.rejects(startDevnetChain({ datadir: dir, chainId: 2017 }), DevnetSourceMismatchError)

    const second = await start({ datadir: dir, blockTime: 0, protocolLoop: false, epochSeconds: 7 })
    const client2 = clientFor(second)
    assert.equal(second.resumed, true)
    assert.equal(await client2.getBlockNumber(), block)
    assert.equal((await epochInfo(client2)).epochId, 2)
    assert.equal(
      await client2.readContract({
        address: REGISTRY_ADDRESS,
        abi: registryAbis.next,
        functionName: 'balanceOf',
        args: [second.accounts[0]?.address as `0x${string}`],
      }),
      1n,
    )
    assert.equal(second.epochSeconds, 7)
    // the chain's clock never runs backwards across a restart after warps
    await second.mine(1)
    assert.ok((await client2.getBlock()).timestamp >= latest.timestamp)
  })

  it('refuses a directory of the old devnet (tnv’s own registry), changing nothing', async () => {
    const dir = datadir()
    const old = JSON.stringify({ format: 1, chainId: 911329, registryStorageLayout: '0x' })
    writeFileSync(join(dir, 'chain.json'), old)
    writeFileSync(join(dir, 'anvil-state.json'), '{}')
    const err = await startDevnetChain({ datadir: dir, blockTime: 0 }).catch((e: unknown) => e)
    assert.ok(err instanceof DevnetStateMismatchError)
    assert.match(err.render(), /older tnv, which ran tnv's own registry contract.*Move the directory aside/)
    assert.deepEqual(readdirSync(dir).sort(), ['anvil-state.json', 'chain.json'])
    assert.equal(readFileSync(join(dir, 'chain.json'), 'utf8'), old)
  })

  it('refuses a second start on a running directory', async () => {
    const dir = datadir()
    await start({ datadir: dir, blockTime: 0, protocolLoop: false })
    await assert.rejects(startDevnetChain({ datadir: dir, blockTime: 0 }), DevnetChainLockedError)
  })

  it('checks its parameters before writing anything', async () => {
    const dir = datadir()
    await assert.rejects(startDevnetChain({ datadir: dir, epochSeconds: 0 }), InvalidDevnetParameterError)
    await assert.rejects(startDevnetChain({ datadir: dir, epochSeconds: 2.5 }), InvalidDevnetParameterError)
    await assert.rejects(startDevnetChain({ datadir: dir, blockTime: -1 }), InvalidDevnetParameterError)
    await assert.rejects(startDevnetChain({ datadir: dir, port: 70_000 }), InvalidDevnetParameterError)
    await assert.rejects(startDevnetChain({ datadir: dir, chainId: -5 }), InvalidDevnetParameterError)
    const notThere = join(dir, 'new')
    await assert.rejects(
      startDevnetChain({ datadir: notThere, source: { kind: 'genesis', genesis: join(dir, 'missing.yaml') } }),
      /no such file/,
    )
    assert.deepEqual(readdirSync(dir), [], 'nothing was written')
    const chain = await start({ datadir: dir, blockTime: 0, protocolLoop: false })
    await assert.rejects(chain.mine(-1), InvalidDevnetParameterError)
  })

  it('moves a half-made devnet (state without chain.json) aside instead of deleting it', async () => {
    const dir = datadir()
    mkdirSync(dir, { recursive: true })
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
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const line = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d) => {
        out += d
        if (out.includes('\n')) resolve(out.split('\n')[0] as string)
      })
      child.on('exit', (code) => reject(new Error(`child exited early (${code})`)))
    })
    const { enginePid, ipcPath } = JSON.parse(line) as { enginePid: number; ipcPath: string }
    const client = engineClient({ engineIpcPath: ipcPath })
    const request = client.request as unknown as (a: { method: string; params: unknown[] }) => Promise<unknown>
    await request({ method: 'anvil_mine', params: ['0x5'] })
    const block = await client.getBlockNumber()
    child.kill('SIGKILL')
    await eventually(async () => !alive(enginePid), 'anvil to exit after its parent died')

    const resumed = await start({ datadir: dir, blockTime: 0, protocolLoop: false })
    assert.equal(resumed.resumed, true)
    assert.equal(await clientFor(resumed).getBlockNumber(), block)
  })
})
