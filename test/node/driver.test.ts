import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const FAKE = join(ROOT, 'test/node/fixtures/fake-node.mjs')

describe('tnv node start|status|stop with a fake node binary', () => {
  const { dir, cleanup } = tempDir()
  after(async () => {
    await runCli(['node', 'stop', '--datadir', dir])
    cleanup()
  })

  it('refuses flags the node would refuse, before starting anything', async () => {
    const r = await runCli([
      'node',
      'start',
      '--datadir',
      dir,
      '--node-binary',
      FAKE,
      '--',
      '--http',
      '--ws',
      '--http.port',
      '9999',
      '--ws.port',
      '9999',
      '--http.api',
      'eth',
    ])
    assert.notEqual(r.code, 0)
    assert.match(r.stderr, /would refuse to start/)
    assert.equal(existsSync(join(dir, 'tnv-node.json')), false)
  })

  it('reports a binary that does not exist with the flag to fix', async () => {
    const r = await runCli(['node', 'start', '--datadir', dir, '--node-binary', join(dir, 'nope'), '--', '--http'])
    assert.notEqual(r.code, 0)
    assert.match(r.stderr, /does not exist or is not executable/)
    assert.match(r.stderr, /--node-binary/)
  })

  it('surfaces a node that refuses to start, with its last log lines', async () => {
    const port = await freePort()
    const r = await runCli(
      [
        'node',
        'start',
        '--datadir',
        dir,
        '--node-binary',
        FAKE,
        '--',
        '--http',
        '--http.port',
        String(port),
        '--ipcdisable',
      ],
      {
        env: { FAKE_NODE_MODE: 'refuse' },
      },
    )
    assert.equal(r.code, 25)
    assert.match(r.stderr, /exited with code 1 before its RPC answered/)
    assert.match(r.stderr, /test network is not supported/)
  })

  it('surfaces a node that dies after starting', async () => {
    const port = await freePort()
    const r = await runCli(
      [
        'node',
        'start',
        '--datadir',
        dir,
        '--node-binary',
        FAKE,
        '--',
        '--http',
        '--http.port',
        String(port),
        '--ipcdisable',
      ],
      {
        env: { FAKE_NODE_MODE: 'die', FAKE_NODE_DIE_MS: '300' },
      },
    )
    // foreground: the node answered, then died with code 3; tnv exits with the node's code
    assert.equal(r.code, 3)
    assert.match(r.stderr, /node exited \(code 3\)/)
  })

  it('starts detached, reports endpoints, status, and stops cleanly', async () => {
    const port = await freePort()
    const start = await runCli([
      'node',
      'start',
      '--detach',
      '--json',
      '--datadir',
      dir,
      '--node-binary',
      FAKE,
      '--',
      '--http',
      '--http.port',
      String(port),
      '--ipcdisable',
    ])
    assert.equal(start.code, 0, start.stderr)
    const state = parseJson<{ pid: number; rpc: { http: string }; workerEndpoints: string[] }>(start)
    assert.equal(state.rpc.http, `http://127.0.0.1:${port}`)
    assert.deepEqual(state.workerEndpoints, [`http://127.0.0.1:${port}`])

    const again = await runCli([
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
      '--ipcdisable',
    ])
    assert.notEqual(again.code, 0)
    assert.match(again.stderr, /already running/)

    const status = parseJson<{ running: boolean; chainId: number; answering: boolean }>(
      await runCli(['node', 'status', '--json', '--datadir', dir]),
    )
    assert.equal(status.running, true)
    assert.equal(status.answering, true)
    assert.equal(status.chainId, 0xde7e1)

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
    assert.equal(parseJson<{ synced: boolean }>(sync).synced, true)

    const stop = await runCli(['node', 'stop', '--json', '--datadir', dir])
    assert.equal(stop.code, 0, stop.stderr)
    assert.equal(parseJson<{ stopped: boolean; forced: boolean }>(stop).forced, false)
    const after = parseJson<{ running: boolean }>(await runCli(['node', 'status', '--json', '--datadir', dir]))
    assert.equal(after.running, false)

    // stopping again is not an error: it says there is nothing to stop
    const again2 = await runCli(['node', 'stop', '--datadir', dir])
    assert.equal(again2.code, 0, again2.stderr)
    assert.match(again2.stdout, /nothing to stop/)
  })
})
