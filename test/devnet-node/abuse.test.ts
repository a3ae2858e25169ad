/**
 * The reference node under abuse (issue 15): pipelined eth_subscribe calls cannot exceed
 * --rpc.max-subscriptions-per-connection (counted before anything is forwarded); idle, slow
 * (slowloris) and half-sent connections cannot hold every --rpc.max-connections slot against a
 * new client (it takes the slot of the one doing nothing the longest), while connections at work
 * keep theirs; slow and idle connections are timed out; a Content-Type the real node's server
 * (jsonrpsee) does not take is refused as it refuses it (415).
 * Deterministic: every step waits for an event (an answer, a close), never for a duration.
 */
import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { tempDir } from '../helpers/cli.js'
import {
  type Engine,
  type FakeEngine,
  freePorts,
  httpPost,
  httpRpc,
  IpcClient,
  type RpcAnswer,
  startAnvil,
  startFakeEngine,
  startTestGateway,
  type TestGateway,
  WsClient,
} from './helpers.js'

const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

/** A raw TCP connection to an HTTP endpoint; what the server sends is read and dropped (so its close is seen). */
function rawSocket(url: string): Promise<Socket> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => resolve(s))
    s.on('error', reject)
    s.resume()
  })
}

const closed = (s: Socket) => new Promise<void>((r) => (s.destroyed ? r() : s.once('close', () => r())))
const wsClosed = (c: WsClient) =>
  new Promise<void>((r) => (c.socket.readyState === c.socket.CLOSED ? r() : c.socket.once('close', () => r())))

describe('reference node under abuse', { timeout: 120_000 }, () => {
  let engine: Engine
  const tmp = tempDir('tnv-abuse-')
  const gateways: TestGateway[] = []
  async function gateway(flags: string[], options: Parameters<typeof startTestGateway>[3] = {}, on = engine) {
    const [h, w] = await freePorts(2)
    const t = await startTestGateway(
      [
        '--http',
        '--http.port',
        String(h),
        '--ws',
        '--ws.port',
        String(w),
        '--ipcpath',
        join(tmp.dir, `g${h}.ipc`),
        ...flags,
      ],
      on,
      null,
      options,
    )
    gateways.push(t)
    const e = t.gateway.endpoints[0]
    return { http: e?.http as string, ws: e?.ws as string, ipc: e?.ipc as string, t }
  }

  before(async () => {
    engine = await startAnvil()
  })
  after(async () => {
    for (const g of gateways) await g.close()
    await engine?.stop()
    tmp.cleanup()
  })

  describe('subscriptions are counted before they are forwarded', () => {
    it('WebSocket: 50 eth_subscribe sent at once over a limit of 4 give 4 subscriptions and 46 refusals', async () => {
      const g = await gateway([], { maxSubscriptions: 4 })
      const ws = await WsClient.open(g.ws)
      try {
        for (let i = 0; i < 50; i++)
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['newHeads'] }))
        const answers: RpcAnswer[] = []
        for (let i = 0; i < 50; i++) answers.push((await ws.next((m) => (m as RpcAnswer).id === i)) as RpcAnswer)
        assert.equal(answers.filter((a) => typeof a.result === 'string').length, 4)
        const refused = answers.filter((a) => a.error)
        assert.equal(refused.length, 46)
        for (const a of refused) assert.equal(a.error?.code, -32006)
      } finally {
        await ws.close()
      }
    })

    it('IPC: a batch and back-to-back values in one write cannot pass the limit either; unsubscribing frees a place', async () => {
      const g = await gateway([], { maxSubscriptions: 3 })
      const ipc = await IpcClient.open(g.ipc)
      try {
        const batch = Array.from({ length: 5 }, (_, i) => ({
          jsonrpc: '2.0',
          id: `b${i}`,
          method: 'eth_subscribe',
          params: ['newHeads'],
        }))
        const single = Array.from({ length: 5 }, (_, i) =>
          JSON.stringify({ jsonrpc: '2.0', id: `s${i}`, method: 'eth_subscribe', params: ['newHeads'] }),
        )
        ipc.write(`${JSON.stringify(batch)}${single.join('')}`)
        const batchAnswer = (await ipc.next((m) => Array.isArray(m))) as RpcAnswer[]
        const singles: RpcAnswer[] = []
        for (let i = 0; i < 5; i++) singles.push((await ipc.next((m) => (m as RpcAnswer).id === `s${i}`)) as RpcAnswer)
        const granted = [...batchAnswer, ...singles].filter((a) => typeof a.result === 'string')
        assert.equal(granted.length, 3)
        assert.equal((await ipc.rpc('eth_unsubscribe', [granted[0]?.result])).result, true)
        assert.equal(typeof (await ipc.rpc('eth_subscribe', ['newHeads'])).result, 'string', 'a place was freed')
        assert.equal((await ipc.rpc('eth_subscribe', ['newHeads'])).error?.code, -32006)
      } finally {
        ipc.close()
      }
    })
  })

  describe('connection slots (--rpc.max-connections 3)', () => {
    it('3 idle sockets that never send a byte do not lock a new client out', async () => {
      const g = await gateway(['--rpc.max-connections', '3'])
      const idle = await Promise.all([1, 2, 3].map(() => rawSocket(g.http)))
      const answer = await httpRpc(g.http, 'eth_chainId')
      assert.equal(answer.result, '0xde7e1')
      await Promise.race(idle.map(closed)) // one of them gave its slot up
      for (const s of idle) s.destroy()
    })

    it('3 slowloris sockets (headers sent a byte at a time, never finished) do not lock a new client out', async () => {
      const g = await gateway(['--rpc.max-connections', '3'])
      const slow = await Promise.all([1, 2, 3].map(() => rawSocket(g.http)))
      for (const s of slow) s.write('POST / HTTP/1.1\r\nHost: x\r\nX-Slow: a')
      assert.equal((await httpPost(g.http, CHAIN_ID)).status, 200)
      const again = await httpPost(g.http, CHAIN_ID)
      assert.equal(again.status, 200)
      // each new client took the slot of a slowloris socket (or of the one before it, already gone)
      assert.ok((g.t.gateway.slotStats()[0]?.evicted ?? 0) >= 1)
      for (const s of slow) s.destroy()
    })

    it('3 requests whose body never ends (slow POST) do not lock a new client out', async () => {
      const g = await gateway(['--rpc.max-connections', '3'])
      const slow = await Promise.all([1, 2, 3].map(() => rawSocket(g.http)))
      for (const s of slow)
        s.write(
          'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"',
        )
      assert.equal((await httpPost(g.http, CHAIN_ID)).status, 200)
      for (const s of slow) s.destroy()
    })

    it('idle WebSocket and IPC connections give their slot up; subscribed ones keep it', async () => {
      const g = await gateway(['--rpc.max-connections', '3'])
      const ws = await Promise.all([1, 2, 3].map(() => WsClient.open(g.ws)))
      const fresh = await WsClient.open(g.ws)
      assert.equal((await fresh.rpc('eth_chainId')).result, '0xde7e1')
      await Promise.race(ws.map(wsClosed))
      const survivors = ws.filter((c) => c.socket.readyState === c.socket.OPEN)
      assert.equal(survivors.length, 2)
      for (const c of [...survivors, fresh]) await c.rpc('eth_subscribe', ['newHeads'])
      await assert.rejects(WsClient.open(g.ws), /HTTP 429/, 'every slot holds a subscription')
      for (const c of [...ws, fresh]) await c.close()

      const ipc = await Promise.all([1, 2, 3].map(() => IpcClient.open(g.ipc)))
      const next = await IpcClient.open(g.ipc)
      assert.equal((await next.rpc('eth_chainId')).result, '0xde7e1')
      await Promise.race(ipc.map((c) => closed(c.socket)))
      for (const c of [...ipc, next]) c.close()
    })
  })

  describe('connections at work keep their slot', () => {
    let fake: FakeEngine
    before(async () => {
      fake = await startFakeEngine(400)
    })
    after(async () => {
      await fake.close()
    })

    it('3 requests being answered hold the 3 slots: a new client is refused (429), then served once they are done', async () => {
      const g = await gateway(['--http.api', 'eth,debug', '--rpc.max-connections', '3'], {}, fake as never)
      const tracing = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [] })
      const working = [1, 2, 3].map(() => httpPost(g.http, tracing))
      await new Promise<void>((resolve) => {
        const check = () =>
          fake.inFlight() + g.t.gateway.tracing.stats().waiting >= 3 ? resolve() : setTimeout(check, 10)
        check()
      })
      assert.equal((await httpPost(g.http, CHAIN_ID)).status, 429)
      for (const r of await Promise.all(working)) assert.equal(r.status, 200)
      assert.equal((await httpPost(g.http, CHAIN_ID)).status, 200)
    })
  })

  describe('slow and idle connections are timed out even when no one waits for a slot', () => {
    it('unfinished headers, an unfinished body and an idle keep-alive connection are all closed', async () => {
      const g = await gateway([], {
        timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 300, checkIntervalMs: 100 },
      })
      const headers = await rawSocket(g.http)
      headers.write('POST / HTTP/1.1\r\nHost: x\r\n')
      const body = await rawSocket(g.http)
      body.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{')
      const keepAlive = await rawSocket(g.http)
      keepAlive.write(
        `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${CHAIN_ID.length}\r\n\r\n${CHAIN_ID}`,
      )
      const handshake = await rawSocket(g.ws)
      handshake.write('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n')
      for (const s of [headers, body, keepAlive, handshake]) s.on('error', () => {})
      await Promise.all([closed(headers), closed(body), closed(keepAlive), closed(handshake)])
    })
  })

  describe('Content-Type', () => {
    it('the Content-Types the real node (jsonrpsee) takes are served, in any case; anything else gets its 415', async () => {
      const g = await gateway([])
      for (const type of [
        'application/json',
        'Application/JSON',
        'application/json; charset=utf-8',
        'APPLICATION/JSON;charset=UTF-8',
        'application/json-rpc',
        'application/json-rpc; charset=utf-8',
      ]) {
        assert.equal((await httpPost(g.http, CHAIN_ID, { 'content-type': type })).status, 200, type)
      }
      for (const type of [
        'application/jsonx',
        'application/json; charset=latin1',
        'application/json;foo=bar',
        'text/plain',
        'application/x-www-form-urlencoded',
        'json',
      ]) {
        const r = await httpPost(g.http, CHAIN_ID, { 'content-type': type })
        assert.equal(r.status, 415, type)
        assert.equal(r.text, 'Supplied content type is not allowed. Content-Type: application/json is required\n')
      }
    })
  })
})
