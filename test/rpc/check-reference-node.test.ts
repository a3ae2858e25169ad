/**
 * `tnv rpc check` against the reference node (bin/tnv-node.js: the devnet chain behind the
 * node's JSON-RPC server), started on free loopback ports with a temporary datadir, over
 * HTTP, WS and IPC, compared with the plan of the same flags.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { RpcCheckReport } from '../../src/lib/rpc/types.js'
import { parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const NODE_BIN = join(ROOT, 'bin', 'tnv-node.js')
const READY = 'worker rpc endpoints resolved'

/** Starts the reference node with `flags`; resolves once it logs its endpoints. */
function startReferenceNode(flags: string[]): Promise<{ child: ChildProcess; log: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NODE_BIN, 'node', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] })
    let log = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the reference node did not log "${READY}" within 60 s:\n${log}`))
    }, 60_000)
    const onData = (d: Buffer) => {
      log += d
      if (log.includes(READY)) {
        clearTimeout(timer)
        resolve({ child, log: () => log })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the reference node exited with ${code} before it was ready:\n${log}`))
    })
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.removeAllListeners('exit')
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

let dir: string
let cleanup: () => void
before(() => {
  ;({ dir, cleanup } = tempDir('tnv-rpc-ref-'))
})
after(() => cleanup())

async function checkAgainstReferenceNode(name: string, extra: string[], { shared = false } = {}) {
  const httpPort = await freePort()
  const wsPort = shared ? httpPort : await freePort()
  const datadir = join(dir, name)
  const flags = [
    '--http',
    '--http.port',
    String(httpPort),
    '--ws',
    '--ws.port',
    String(wsPort),
    '--ipcpath',
    join(dir, `${name}.ipc`),
    ...extra,
  ]
  const node = await startReferenceNode(['--datadir', datadir, ...flags])
  try {
    const r = await runCli(['rpc', 'check', '--json', '--expect', '--', ...flags])
    return { r, report: parseJson<RpcCheckReport>(r) }
  } finally {
    await stop(node.child)
  }
}

describe('rpc check against the reference node', () => {
  it('lists with debug and trace on HTTP, the default set on WS and IPC: everything as planned', async () => {
    const { r, report } = await checkAgainstReferenceNode('lists', [
      '--http.api',
      'eth,tn,rpc,debug,trace',
      '--ws.api',
      'eth,net,web3',
    ])
    assert.equal(r.code, 0, r.stdout)
    assert.deepEqual(report.transports.http?.served, ['eth', 'rpc', 'tn', 'debug', 'trace'])
    assert.deepEqual(report.transports.ws?.served, ['eth', 'net', 'web3'])
    assert.deepEqual(report.transports.ipc?.served, ['eth', 'net', 'web3', 'rpc', 'tn'])
    const httpList = { eth: '1.0', rpc: '1.0', tn: '1.0', debug: '1.0', trace: '1.0' }
    assert.deepEqual(report.transports.ipc?.rpcModules, httpList, "IPC returns HTTP's list")
    assert.equal(report.transports.http?.subscriptions.status, 'refused')
    assert.equal(report.transports.ws?.subscriptions.status, 'works')
    assert.equal(report.transports.ipc?.subscriptions.status, 'works')
  })

  it('JWT and one shared HTTP/WS port: tokens enforced on both protocols', async () => {
    const secret = '3c'.repeat(32)
    const { r, report } = await checkAgainstReferenceNode('jwt', ['--rpc.jwtsecret', secret], { shared: true })
    assert.equal(r.code, 0, r.stdout)
    for (const t of ['http', 'ws'] as const) {
      assert.deepEqual(
        report.transports[t]?.auth,
        { tokenSent: true, withoutToken: 'refused', wrongToken: 'refused' },
        t,
      )
    }
    assert.equal(report.transports.http?.target, report.transports.ws?.target.replace('ws://', 'http://'))
    assert.ok(!r.stdout.includes(secret))
  })
})
