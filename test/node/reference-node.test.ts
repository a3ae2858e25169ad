import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

describe('tnv node start|status|stop with the reference node (--chain dev)', () => {
  const { dir, cleanup } = tempDir()
  const datadir = join(dir, 'node')
  after(async () => {
    await runCli(['node', 'stop', '--datadir', datadir])
    cleanup()
  })

  it('starts it detached with checked flags, reads every worker endpoint from its log, reports status, stops it', async () => {
    const [http, ws] = [await freePort(), await freePort()]
    const ipc = join(dir, 'tn.ipc')
    const flags = [
      '--chain',
      'dev',
      '--http',
      '--http.port',
      String(http),
      '--ws',
      '--ws.port',
      String(ws),
      '--ipcpath',
      ipc,
    ]
    const start = await runCli(['node', 'start', '--detach', '--json', '--datadir', datadir, '--', ...flags])
    assert.equal(start.code, 0, start.stderr)
    const state = parseJson<{
      rpc: { http: string; ws: string; ipc: string }
      workerEndpoints: string[]
      logFile: string
    }>(start)
    assert.deepEqual(state.rpc, { http: `http://127.0.0.1:${http}`, ws: `ws://127.0.0.1:${ws}`, ipc })
    for (const e of [`http://127.0.0.1:${http}`, `ws://127.0.0.1:${ws}`, ipc]) {
      assert.ok(state.workerEndpoints.includes(e), `${e} in ${state.workerEndpoints.join(' ')}`)
    }
    assert.equal(state.logFile, join(datadir, 'logs', 'node.log'))

    const status = parseJson<{ running: boolean; answering: boolean; chainId: number }>(
      await runCli(['node', 'status', '--json', '--datadir', datadir]),
    )
    assert.deepEqual([status.running, status.answering, status.chainId], [true, true, 911329])

    const stop = await runCli(['node', 'stop', '--json', '--datadir', datadir])
    assert.equal(stop.code, 0, stop.stderr)
    assert.equal(parseJson<{ forced: boolean }>(stop).forced, false, 'stopped by SIGTERM, not killed')
  })

  it('refuses --chain adiri like a binary built without the test-network feature, with its log tail', async () => {
    const port = await freePort()
    const r = await runCli([
      'node',
      'start',
      '--datadir',
      datadir,
      '--',
      '--chain',
      'adiri',
      '--http',
      '--http.port',
      String(port),
      '--ipcdisable',
    ])
    assert.equal(r.code, 25)
    assert.match(r.stderr, /exited with code \d+ before its RPC answered/)
    assert.match(r.stderr, /test.network/i)
  })

  it('--chain testnet is not a value the node takes: refused before anything starts, with the value to write', async () => {
    const r = await runCli(['node', 'start', '--datadir', datadir, '--', '--chain', 'testnet', '--http'])
    assert.equal(r.code, 25)
    assert.match(r.stderr, /--chain testnet: the node takes adiri, test-net, main-net .*Write --chain adiri\./)
    assert.doesNotMatch(r.stderr, /starting /)
  })
})
