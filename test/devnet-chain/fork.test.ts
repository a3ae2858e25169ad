/**
 * Fork mode, by forking a LOCAL chain started from a shipped genesis (never a public network):
 * the registry generation is detected from the forked code, the verifier installed where the
 * generation needs it, governance impersonated locally, epochs driven locally; nothing reaches
 * upstream but reads (the upstream chain is unchanged), few of them, cached for a resume. Bad
 * fork sources (unreachable, HTTP 429, a block that does not exist, no registry, unknown code)
 * are refused with one clear error, nothing left running and no file written.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Abi, Address, PublicClient } from 'viem'
import { DevnetSourceMismatchError, ForkUrlRequiredError } from '../../src/devnet/chain/errors.js'
import {
  ForkBlockNotFoundError,
  ForkEndpointError,
  ForkRateLimitedError,
  ForkRegistryError,
  ForkUnreachableError,
  ForkUrlInvalidError,
  probeForkSource,
  redactUrl,
} from '../../src/devnet/chain/fork.js'
import { type GenesisEngine, startGenesisEngine } from '../../src/devnet/chain/genesis-engine.js'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import { BLS_VERIFIER_ADDRESS, type DevnetChain, REGISTRY_ADDRESS } from '../../src/devnet/chain/types.js'
import { ExitCode } from '../../src/lib/errors.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { tempDir } from '../helpers/cli.js'
import { engineClient, engineTransportOf, newValidatorKeys, STAKE, STATUS, stakeCalldata } from './helpers.js'

const cleanups: (() => Promise<void> | void)[] = []
after(async () => {
  for (const c of cleanups.reverse()) await c()
})
function dir(): string {
  const t = tempDir('tnv-fork-')
  cleanups.push(t.cleanup)
  return t.dir
}
/** The processes whose command line names `path` (anvil children of a devnet in that directory). */
function processesUsing(path: string): number[] {
  const found: number[] = []
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      if (cmd.includes(path)) found.push(Number(pid))
    } catch {
      // gone
    }
  }
  return found
}

for (const generation of ['next', 'adiri'] as const) {
  describe(`fork of a local ${generation} chain`, { timeout: 120_000 }, () => {
    let upstream: GenesisEngine
    let upstreamClient: PublicClient
    let fork: DevnetChain
    let forkDir: string
    const abi = registryAbis[generation] as Abi

    before(async () => {
      // the "live" chain: the shipped genesis under its own chain id, with a few blocks
      upstream = await startGenesisEngine({ genesis: generation, dir: dir() })
      cleanups.push(() => upstream.stop())
      upstreamClient = upstream.client
      const request = upstream.client.request as unknown as (a: {
        method: string
        params: unknown[]
      }) => Promise<unknown>
      await request({ method: 'anvil_mine', params: ['0x3'] })
      forkDir = dir()
      fork = await startDevnetChain({
        datadir: forkDir,
        source: { kind: 'fork', url: upstream.httpUrl },
        blockTime: 0,
        protocolLoop: false,
      })
      cleanups.push(() => fork.stop())
    })

    it('detects the generation from the forked code, pinned at the latest block, under the rehearsal chain id', async () => {
      assert.equal(fork.generation, generation)
      assert.equal(fork.registryCode.match, 'exact')
      assert.equal(fork.source.kind, 'fork')
      assert.equal(fork.source.fork?.blockNumber, '3')
      assert.equal(fork.source.fork?.upstreamChainId, generation === 'next' ? 487 : 2017)
      assert.equal(fork.chainId, 911329)
      const client = engineClient(fork)
      assert.equal(await client.getChainId(), 911329)
      assert.equal(fork.blsVerifier, generation === 'next' ? BLS_VERIFIER_ADDRESS : null)
      const committee = (await client.readContract({
        address: REGISTRY_ADDRESS,
        abi,
        functionName: 'getCurrentEpochInfo',
      })) as { committee: Address[] }
      assert.equal(committee.committee.length, generation === 'next' ? 4 : 5)
    })

    it('governance, staking and epochs happen on the fork only: upstream is unchanged, its traffic reads only', async () => {
      const upstreamBlock = await upstreamClient.getBlockNumber()
      const v = fork.accounts[0] as (typeof fork.accounts)[number]
      await fork.governance({ action: 'mint', validator: v.address })
      const client = engineClient(fork)
      const { createWalletClient } = await import('viem')
      const { privateKeyToAccount } = await import('viem/accounts')
      const wallet = createWalletClient({
        account: privateKeyToAccount(v.privateKey),
        transport: engineTransportOf(fork),
      })
      const keys = newValidatorKeys()
      const hash = await wallet.sendTransaction({
        chain: null,
        to: REGISTRY_ADDRESS,
        data: stakeCalldata(generation, keys, v.address),
        value: STAKE,
      })
      assert.equal((await engineReceipt(client, hash)).status, 'success')
      const r = await fork.advanceEpoch()
      assert.equal(r.epoch, 1)
      const info = (await client.readContract({
        address: REGISTRY_ADDRESS,
        abi,
        functionName: 'getValidator',
        args: [v.address],
      })) as { currentStatus: number }
      assert.equal(info.currentStatus, STATUS.Staked)

      // upstream: no new block, no NFT, still epoch 0
      assert.equal(await upstreamClient.getBlockNumber(), upstreamBlock)
      assert.equal(
        await upstreamClient.readContract({
          address: REGISTRY_ADDRESS,
          abi,
          functionName: 'balanceOf',
          args: [v.address],
        }),
        0n,
      )
      assert.equal(
        await upstreamClient.readContract({ address: REGISTRY_ADDRESS, abi, functionName: 'getCurrentEpoch' }),
        0,
      )
      const stats = fork.forkStats()
      assert.ok(stats)
      assert.equal(stats.refused, 0)
      for (const m of Object.keys(stats.methods)) assert.match(m, /^eth_(get|chainId|gasPrice|blockNumber)/)
      assert.ok(stats.requests < 400, `${stats.requests} upstream requests`)
    })

    it('resumes from its state and fork cache with the URL given again (a couple of upstream requests)', async () => {
      const client = engineClient(fork)
      const block = await client.getBlockNumber()
      await fork.stop()
      assert.ok(existsSync(join(forkDir, '.foundry', 'cache', 'rpc')), 'anvil keeps its fork cache in the devnet dir')
      await assert.rejects(startDevnetChain({ datadir: forkDir, blockTime: 0 }), ForkUrlRequiredError)
      // another chain at that URL: refused, the saved fork is not put on it
      const other = await startGenesisEngine({ genesis: generation === 'next' ? 'adiri' : 'next', dir: dir() })
      const request = other.client.request as unknown as (a: { method: string; params: unknown[] }) => Promise<unknown>
      await request({ method: 'anvil_mine', params: ['0x3'] })
      await assert.rejects(
        startDevnetChain({ datadir: forkDir, source: { kind: 'fork', url: other.httpUrl }, blockTime: 0 }),
        DevnetSourceMismatchError,
      )
      await other.stop()
      fork = await startDevnetChain({
        datadir: forkDir,
        source: { kind: 'fork', url: upstream.httpUrl },
        blockTime: 0,
        protocolLoop: false,
      })
      assert.equal(fork.resumed, true)
      const resumed = engineClient(fork)
      assert.equal(await resumed.getBlockNumber(), block)
      assert.equal(await resumed.readContract({ address: REGISTRY_ADDRESS, abi, functionName: 'getCurrentEpoch' }), 1)
      assert.ok((fork.forkStats()?.requests ?? 99) <= 5, `resume took ${fork.forkStats()?.requests} requests`)
    })
  })
}

describe('bad fork sources: one clear error, nothing running, nothing written', { timeout: 60_000 }, () => {
  let server: Server
  let url: string
  let mode: '429' | 'html' | 'no-registry' | 'unknown-code'
  let authorization: string | undefined

  before(async () => {
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (d) => {
        body += d
      })
      req.on('end', () => {
        authorization = req.headers.authorization
        if (mode === '429') return res.writeHead(429, { 'retry-after': '30' }).end('slow down')
        if (mode === 'html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>')
        const { method, id } = JSON.parse(body) as { method: string; id: number }
        const result =
          method === 'eth_chainId'
            ? '0x7e1'
            : method === 'eth_blockNumber'
              ? '0x10'
              : method === 'eth_getBlockByNumber'
                ? { number: '0x10', hash: `0x${'ab'.repeat(32)}`, timestamp: '0x6a000000' }
                : method === 'eth_getCode'
                  ? mode === 'no-registry'
                    ? '0x'
                    : '0x6080604052600080fd'
                  : null
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }))
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const address = server.address() as { port: number }
    url = `http://127.0.0.1:${address.port}`
  })
  after(() => new Promise<void>((r) => server.close(() => r())))

  async function refused(source: { url: string; blockNumber?: bigint }, expected: new (...a: never[]) => Error) {
    const parent = dir()
    const datadir = join(parent, 'devnet')
    const err = await startDevnetChain({ datadir, source: { kind: 'fork', ...source }, blockTime: 0 }).catch(
      (e: unknown) => e,
    )
    assert.ok(err instanceof expected, `expected ${expected.name}, got ${String(err)}`)
    assert.ok(!existsSync(datadir), 'no directory was made')
    assert.deepEqual(processesUsing(datadir), [], 'nothing left running')
    return err as Error & { exitCode: number; render(): string }
  }

  it('unreachable, rate limited, not JSON-RPC', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()))
    const port = (closed.address() as { port: number }).port
    await new Promise<void>((r) => closed.close(() => r()))
    const down = await refused({ url: `http://127.0.0.1:${port}` }, ForkUnreachableError)
    assert.equal(down.exitCode, ExitCode.RpcUnreachable)
    assert.match(down.render(), /cannot be reached .*connection refused/)

    mode = '429'
    const limited = await refused({ url: `${url}/v3/SECRET-API-KEY?x=1` }, ForkRateLimitedError)
    assert.equal(limited.exitCode, ExitCode.RpcUnreachable)
    assert.match(limited.render(), /HTTP 429 \(rate limited\); it asks to retry after 30 s/)
    assert.ok(!limited.render().includes('SECRET-API-KEY'), 'the URL is redacted')
    mode = 'html'
    await refused({ url }, ForkEndpointError)
    await assert.rejects(probeForkSource({ url: 'ws://127.0.0.1:1' }), ForkUrlInvalidError)
    assert.equal(redactUrl('https://user:pw@rpc.example.org:8443/v1/KEY?q=1'), 'https://rpc.example.org:8443/…')
    const withKey = await refused({ url: `http://op:s3cret@127.0.0.1:${port}/v1/KEY` }, ForkUnreachableError)
    assert.ok(!/s3cret|KEY/.test(withKey.render()), withKey.render())
  })

  it('a fork block that does not exist, no registry, unknown registry code', async () => {
    const upstream = await startGenesisEngine({ genesis: 'next', dir: dir() })
    cleanups.push(() => upstream.stop())
    const missing = await refused({ url: upstream.httpUrl, blockNumber: 50n }, ForkBlockNotFoundError)
    assert.equal(missing.exitCode, ExitCode.BadInput)
    assert.match(missing.render(), /Block 50 does not exist on http:\/\/127\.0\.0\.1:\d+ \(its latest block is 0\)/)

    mode = 'no-registry'
    const none = await refused({ url }, ForkRegistryError)
    assert.equal(none.exitCode, ExitCode.WrongChain)
    assert.match(none.render(), /has no ConsensusRegistry/)
    mode = 'unknown-code'
    const unknown = await refused({ url }, ForkRegistryError)
    assert.match(unknown.render(), /code hash 0x[0-9a-f]{64}\) is neither registry generation tnv knows/)
    // credentials in the URL travel as HTTP Basic (fetch refuses them in the URL) and never in messages
    const withCredentials = url.replace('http://', 'http://op:s3cret@')
    const err = await refused({ url: withCredentials }, ForkRegistryError)
    assert.equal(authorization, `Basic ${Buffer.from('op:s3cret').toString('base64')}`)
    assert.ok(!err.render().includes('s3cret'))
  })
})
