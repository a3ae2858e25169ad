/**
 * Node health as the real tools judge it (real-network/node.md §5, §8): tn_nodeMode and
 * tn_latestConsensusHeader (or the deprecated tn_latestHeader), eth_blockNumber when the tn
 * namespace is not served; against small JSON-RPC servers on loopback, and end to end through
 * `tnv node status` and `tnv node sync` with the fake node binary.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { commitAgeSeconds, readConsensusHead, readNodeProgress } from '../../src/lib/node/health.js'
import { waitForSync } from '../../src/lib/node/sync.js'
import { parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const FAKE = join(ROOT, 'test/node/fixtures/fake-node.mjs')

type Methods = Record<string, () => unknown>

/** A JSON-RPC server answering `methods`, -32601 for the rest. */
async function rpcServer(methods: Methods): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => {
      body += d
    })
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string }
      const f = methods[method]
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify(
          f
            ? { jsonrpc: '2.0', id, result: f() }
            : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } },
        ),
      )
    })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) }
}

const header = (number: number, commitTimestamp = Math.floor(Date.now() / 1000)) => ({
  parent_hash: `0x${'0'.repeat(64)}`,
  sub_dag: { headers: [], reputation_scores: {}, commit_timestamp: commitTimestamp, randomness: `0x${'0'.repeat(64)}` },
  number,
  extra: `0x${'0'.repeat(64)}`,
})

describe('reading progress', () => {
  const servers: { close: () => Promise<void> }[] = []
  after(async () => {
    for (const s of servers) await s.close()
  })
  const serve = async (m: Methods) => {
    const s = await rpcServer(m)
    servers.push(s)
    return s.url
  }

  it('tn_latestConsensusHeader and tn_nodeMode when served', async () => {
    const url = await serve({
      tn_nodeMode: () => 'CvvActive',
      tn_latestConsensusHeader: () => header(1234, 1_700_000_000),
      eth_blockNumber: () => '0x10',
    })
    const p = await readNodeProgress(url)
    assert.equal(p.nodeMode, 'CvvActive')
    assert.deepEqual(p.consensus, { method: 'tn_latestConsensusHeader', number: 1234n, commitTimestamp: 1_700_000_000 })
    assert.equal(p.blockNumber, 16n)
    assert.equal(commitAgeSeconds(p.consensus as NonNullable<typeof p.consensus>, 1_700_000_090_000), 90)
  })

  it('an older node: the deprecated alias tn_latestHeader', async () => {
    const url = await serve({ tn_latestHeader: () => header(7) })
    assert.equal((await readConsensusHead(url))?.method, 'tn_latestHeader')
  })

  it('no tn namespace (-32601): eth_blockNumber alone', async () => {
    const url = await serve({ eth_blockNumber: () => '0x2a' })
    assert.deepEqual(await readNodeProgress(url), { nodeMode: null, consensus: null, blockNumber: 42n, unusable: [] })
  })

  it('an answer of the wrong shape is set aside (named), never read as a number; nothing usable is an error', async () => {
    const url = await serve({
      tn_latestConsensusHeader: () => '0x64',
      tn_nodeMode: () => 7,
      eth_blockNumber: () => '0x1',
    })
    const p = await readNodeProgress(url)
    assert.deepEqual([p.consensus, p.nodeMode, p.blockNumber], [null, null, 1n])
    assert.deepEqual(p.unusable, [
      'tn_nodeMode: tn_nodeMode answered 7, not a mode name',
      'tn_latestConsensusHeader: tn_latestConsensusHeader answered "0x64", not a consensus header',
    ])
    const neither = await serve({})
    await assert.rejects(readNodeProgress(neither), /serves neither tn_latestConsensusHeader nor eth_blockNumber/)
    const garbageOnly = await serve({ tn_latestConsensusHeader: () => ({ number: 'x' }) })
    await assert.rejects(readNodeProgress(garbageOnly), /whose number is "x"/)
  })
})

describe('waiting for sync', () => {
  const servers: { close: () => Promise<void> }[] = []
  after(async () => {
    for (const s of servers) await s.close()
  })

  it('compares consensus header numbers when both ends serve them (each may use the alias)', async () => {
    let n = 100
    const local = await rpcServer({ tn_latestConsensusHeader: () => header(n), eth_blockNumber: () => '0x1' })
    const network = await rpcServer({ tn_latestHeader: () => header(++n), eth_blockNumber: () => '0x999' })
    servers.push(local, network)
    const r = await waitForSync({ localUrl: local.url, networkUrl: network.url, intervalMs: 10, timeoutMs: 5_000 })
    assert.equal(r.method, 'tn_latestConsensusHeader')
    assert.ok(Number(r.network) - Number(r.local) <= 2)
  })

  it('falls back to eth_blockNumber when one end has no tn namespace', async () => {
    let b = 10
    const local = await rpcServer({
      tn_latestConsensusHeader: () => header(5),
      eth_blockNumber: () => `0x${b.toString(16)}`,
    })
    const network = await rpcServer({ eth_blockNumber: () => `0x${(++b).toString(16)}` })
    servers.push(local, network)
    const r = await waitForSync({ localUrl: local.url, networkUrl: network.url, intervalMs: 10, timeoutMs: 5_000 })
    assert.equal(r.method, 'eth_blockNumber')
  })

  it('tn_nodeMode CvvInactive (catching up) is never synced, even at the same height', async () => {
    let n = 1
    const local = await rpcServer({ tn_nodeMode: () => 'CvvInactive', tn_latestConsensusHeader: () => header(n) })
    const network = await rpcServer({ tn_latestConsensusHeader: () => header(++n) })
    servers.push(local, network)
    await assert.rejects(
      waitForSync({ localUrl: local.url, networkUrl: network.url, intervalMs: 10, timeoutMs: 300 }),
      /not synced .*consensus header .*tn_nodeMode says CvvInactive: it is still catching up/,
    )
  })
})

describe('tnv node status and sync with a node serving the tn namespace', () => {
  const { dir, cleanup } = tempDir()
  after(async () => {
    await runCli(['node', 'stop', '--datadir', dir])
    cleanup()
  })

  it('status shows tn_nodeMode and the latest consensus header; sync compares consensus headers', async () => {
    const port = await freePort()
    const env = { FAKE_NODE_TN: '1' }
    const start = await runCli(
      [
        'node',
        'start',
        '--detach',
        '--datadir',
        dir,
        '--node-binary',
        FAKE,
        '--',
        '--http',
        '--http.port',
        String(port),
        '--http.api',
        'eth,net,web3,rpc,tn',
        '--ipcdisable',
      ],
      { env },
    )
    assert.equal(start.code, 0, start.stderr)
    const status = parseJson<{
      nodeMode: string
      consensus: { method: string; number: string; ageSeconds: number }
      judgedBy: string
    }>(await runCli(['node', 'status', '--json', '--datadir', dir]))
    assert.equal(status.nodeMode, 'CvvActive')
    assert.equal(status.consensus.method, 'tn_latestConsensusHeader')
    assert.ok(Number(status.consensus.number) >= 50)
    assert.ok(status.consensus.ageSeconds <= 5)
    assert.equal(status.judgedBy, 'tn_latestConsensusHeader')
    const human = await runCli(['node', 'status', '--datadir', dir])
    assert.match(human.stdout, /^mode {6}CvvActive$/m)
    assert.match(human.stdout, /^consensus \d+ \(tn_latestConsensusHeader, committed \d+ s ago\)$/m)
    const sync = await runCli([
      'node',
      'sync',
      '--json',
      '--datadir',
      dir,
      '--network-url',
      `http://127.0.0.1:${port}`,
      '--interval',
      '1',
      '--timeout',
      '30',
    ])
    assert.equal(sync.code, 0, sync.stderr)
    const result = parseJson<{ synced: boolean; method: string; nodeMode: string }>(sync)
    assert.deepEqual([result.synced, result.method, result.nodeMode], [true, 'tn_latestConsensusHeader', 'CvvActive'])
  })

  it('mainnet has no public endpoint: node sync says so and asks for --network-url', async () => {
    const r = await runCli(['node', 'sync', '--datadir', dir, '--chain', 'mainnet', '--rpc-url', 'http://127.0.0.1:1'])
    assert.equal(r.code, 3)
    assert.match(r.stderr, /No public endpoint is published for mainnet .*Pass --network-url/)
  })
})
