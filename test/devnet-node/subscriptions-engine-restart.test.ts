/**
 * A client's subscriptions across an engine restart, at the gateway: a planned restart (the
 * devnet's compaction announces it with `pauseEngine`, src/devnet/chain/start.ts) keeps the
 * client's WebSocket and IPC connections and their subscription ids, notifications carry on
 * with the new engine's blocks, and eth_unsubscribe with the client's id reaches the new
 * engine; an engine that dies unannounced ends the client's subscriptions (WebSocket close
 * 1011, IPC connection ended), as the node did before.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { tempDir } from '../helpers/cli.js'
import { freePortBlock } from '../helpers/ports.js'
import { ANVIL, call, freePorts, IpcClient, startTestGateway, type TestGateway, WsClient } from './helpers.js'

type Anvil = { url: string; child: ChildProcess; stop(): Promise<void> }

/** anvil on a free loopback port (the test's own way in) and on `ipcPath` (the gateway's engine). */
async function anvilAt(ipcPath: string): Promise<Anvil> {
  const [port] = await freePorts(1)
  const child = spawn(
    ANVIL,
    ['--port', String(port), '--ipc', ipcPath, '--chain-id', '911329', '--hardfork', 'prague', '--silent'],
    { stdio: 'ignore' },
  )
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      await call(url, 'eth_chainId')
      if (existsSync(ipcPath)) break
    } catch (err) {
      if (i > 200) throw err
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

type Note = { method?: string; params?: { subscription?: string; result?: { number?: string } } }
const headOf = (number: string) => (m: unknown) =>
  (m as Note).method === 'eth_subscription' && (m as Note).params?.result?.number === number

describe('reference node: subscriptions across an engine restart', { timeout: 60_000 }, () => {
  const tmp = tempDir('tnv-subs-restart-')
  const engines: Anvil[] = []
  const gateways: TestGateway[] = []
  /** Closed at the end whatever happened (an open client keeps the test process alive). */
  const clients: { close(): unknown }[] = []
  after(async () => {
    for (const c of clients) await c.close()
    for (const g of gateways) await g.close()
    for (const e of engines) await e.stop()
    tmp.cleanup()
  })

  async function setUp(name: string) {
    const ipcPath = join(tmp.dir, `${name}-engine.ipc`)
    const engine = await anvilAt(ipcPath)
    engines.push(engine)
    const [w] = await freePortBlock(4)
    const t = await startTestGateway(['--ws', '--ws.port', String(w), '--ipcpath', join(tmp.dir, `${name}-node.ipc`)], {
      ipcPath,
    })
    gateways.push(t)
    const [e] = t.gateway.endpoints
    const ws = await WsClient.open(e?.ws as string)
    const ipc = await IpcClient.open(e?.ipc as string)
    clients.push(ws, ipc)
    const wsSub = (await ws.rpc('eth_subscribe', ['newHeads'])).result as string
    const ipcSub = (await ipc.rpc('eth_subscribe', ['newHeads'])).result as string
    assert.match(wsSub, /^0x/)
    assert.match(ipcSub, /^0x/)
    return { ipcPath, engine, t, ws, ipc, wsSub, ipcSub }
  }

  it('keeps both connections and their subscription ids through two planned restarts', async () => {
    const { ipcPath, t, ws, ipc, wsSub, ipcSub, ...first } = await setUp('planned')
    let engine = first.engine
    let wsClosed = false
    ws.socket.once('close', () => {
      wsClosed = true
    })
    let height = 0
    for (let restart = 1; restart <= 2; restart++) {
      const resume = await t.gateway.pauseEngine()
      await engine.stop()
      engine = await anvilAt(ipcPath)
      engines.push(engine)
      // resolves once the subscriptions are back on the new engine
      await resume()
      // the new anvil starts its chain again: its first block is 0x1
      height = 0
      for (let b = 0; b < 2; b++) {
        await call(engine.url, 'evm_mine')
        height++
        const number = `0x${height.toString(16)}`
        const wsHead = (await ws.next(headOf(number))) as Note
        const ipcHead = (await ipc.next(headOf(number))) as Note
        assert.equal(wsHead.params?.subscription, wsSub, `WebSocket: the client's id after restart ${restart}`)
        assert.equal(ipcHead.params?.subscription, ipcSub, `IPC: the client's id after restart ${restart}`)
      }
    }
    assert.equal(wsClosed, false)
    assert.equal(ipc.closed, false)
    assert.equal(t.gateway.endpoints.length, 1)
    // the client's id unsubscribes on the new engine: no head follows, and the id is gone
    assert.equal((await ws.rpc('eth_unsubscribe', [wsSub])).result, true)
    assert.equal((await ipc.rpc('eth_unsubscribe', [ipcSub])).result, true)
    assert.equal((await ws.rpc('eth_unsubscribe', [wsSub])).result, false)
    assert.equal((await ipc.rpc('eth_unsubscribe', [ipcSub])).result, false)
    await call(engine.url, 'evm_mine')
    const last = `0x${(height + 1).toString(16)}`
    // a request answered after the block: a notification for it would have come first
    await call(engine.url, 'eth_blockNumber')
    assert.equal((await ws.rpc('eth_blockNumber')).result, last)
    assert.equal((await ipc.rpc('eth_blockNumber')).result, last)
    assert.equal(ws.messages.filter(headOf(last)).length, 0)
    assert.equal(ipc.messages.filter(headOf(last)).length, 0)
  })

  it('ends the subscriptions when the engine dies unannounced', async () => {
    const { engine, ws, ipc } = await setUp('death')
    const wsClosed = new Promise<number>((resolve) => ws.socket.once('close', (code) => resolve(code)))
    const ipcClosed = new Promise<void>((resolve) => ipc.socket.once('close', () => resolve()))
    engine.child.kill('SIGKILL')
    assert.equal(await wsClosed, 1011)
    await ipcClosed
    assert.equal(ipc.closed, true)
  })
})
