import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

describe('tnv node start|status|stop with the reference node (--chain devnet)', { timeout: 240_000 }, () => {
  const { dir, cleanup } = tempDir()
  const datadir = join(dir, 'node')
  const devnetDir = join(dir, 'devnet')
  const env = { TNV_DEVNET_DIR: devnetDir }
  before(async () => {
    const port = await freePort()
    const r = await runCli(
      ['devnet', 'start', '--detach', '--datadir', devnetDir, '--', '--http', '--http.port', String(port)],
      { env },
    )
    assert.equal(r.code, 0, r.stderr)
  })
  after(async () => {
    await runCli(['node', 'stop', '--datadir', datadir], { env })
    await runCli(['devnet', 'stop', '--datadir', devnetDir], { env })
    cleanup()
  })

  it('starts it detached with checked flags, reads every worker endpoint from its log, reports status, stops it', async () => {
    const [http, ws] = [await freePort(), await freePort()]
    const ipc = join(dir, 'tn.ipc')
    // a validator's data directory, private: the node must leave its mode alone
    mkdirSync(datadir, { recursive: true })
    chmodSync(datadir, 0o700)
    const flags = [
      '--chain',
      'devnet',
      '--http',
      '--http.port',
      String(http),
      '--ws',
      '--ws.port',
      String(ws),
      '--ipcpath',
      ipc,
    ]
    const start = await runCli(['node', 'start', '--detach', '--json', '--datadir', datadir, '--', ...flags], { env })
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
      await runCli(['node', 'status', '--json', '--datadir', datadir], { env }),
    )
    assert.deepEqual([status.running, status.answering, status.chainId], [true, true, 911329])
    assert.equal(statSync(datadir).mode & 0o777, 0o700, "the data directory's mode is unchanged")

    const stop = await runCli(['node', 'stop', '--json', '--datadir', datadir], { env })
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

  it('--chain dev (or no --chain) is not a network: refused before anything starts, nothing written', async () => {
    const fresh = join(dir, 'fresh')
    for (const flags of [['--chain', 'dev', '--http'], ['--http']]) {
      const r = await runCli(['node', 'start', '--datadir', fresh, '--', ...flags], { env })
      assert.equal(r.code, 2, r.stderr)
      assert.match(r.stderr, /not a network|No --chain was given/)
      assert.match(r.stderr, /--chain devnet/)
      assert.throws(() => statSync(fresh), 'nothing was created')
    }
  })

  it('a port another process holds: refused before starting, naming the holder and the flag', async () => {
    const holder: Server = createServer()
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)),
    )
    try {
      const r = await runCli(
        [
          'node',
          'start',
          '--datadir',
          join(dir, 'clash'),
          '--',
          '--chain',
          'devnet',
          '--http',
          '--http.port',
          String(port),
        ],
        { env },
      )
      assert.equal(r.code, 25, r.stderr)
      assert.match(r.stderr, new RegExp(`port 127\\.0\\.0\\.1:${port} is already in use`))
      if (process.platform === 'linux') assert.match(r.stderr, new RegExp(`by pid ${process.pid}\\b`))
      assert.match(r.stderr, /--http\.port <port>/)
      assert.doesNotMatch(r.stdout, /node running/)
    } finally {
      holder.close()
    }
  })

  it('an IPC socket another process serves: refused before starting, naming the holder and --ipcpath', async () => {
    const path = join(dir, 'held.ipc')
    const holder: Server = createServer()
    await new Promise<void>((resolve) => holder.listen(path, () => resolve()))
    try {
      const flags = ['--chain', 'devnet', '--http', '--http.port', String(await freePort()), '--ipcpath', path]
      const r = await runCli(['node', 'start', '--datadir', join(dir, 'ipc-clash'), '--', ...flags], { env })
      assert.equal(r.code, 25, r.stderr)
      assert.match(r.stderr, /IPC socket \S+held\.ipc is already served/)
      if (process.platform === 'linux') assert.match(r.stderr, new RegExp(`by pid ${process.pid}\\b`))
      assert.match(r.stderr, /--ipcpath/)
      assert.doesNotMatch(r.stdout, /node running/)
    } finally {
      holder.close()
    }
  })
})
