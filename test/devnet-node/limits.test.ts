/**
 * The limits: --rpc.gascap, --rpc.max-blocks-per-filter, --rpc.max-logs-per-response,
 * --rpc.max-trace-filter-blocks, --rpc.max-response-size, --rpc.max-request-size,
 * --rpc.max-connections, and the shared tracing semaphore (--rpc.max-tracing-requests).
 */
import assert from 'node:assert/strict'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { tempDir } from '../helpers/cli.js'
import { freePortBlock } from '../helpers/ports.js'
import {
  call,
  type Engine,
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

/** Burns about 200,000 gas in a loop, then stops. */
const BURNER_CODE = '0x611e145b600190038060035700'
const BURNER = '0x00000000000000000000000000000000000b0b01'
/** Emits four logs per call. */
const LOGGER_CODE = '0x60006000a060006000a060006000a060006000a000'
const LOGGER = '0x00000000000000000000000000000000000b0b02'
/** Returns 1.1 MB of zeros (2.2 MB as hex in the answer). */
const BIG_CODE = '0x621199996000f3'
const BIG = '0x00000000000000000000000000000000000b0b03'
const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' // anvil's first default account (unlocked on the engine only)

/** Calls the logger from an unlocked engine account and waits for the receipt. */
async function sendLoggerTx(engineUrl: string): Promise<{ blockNumber: string }> {
  const hash = await call(engineUrl, 'eth_sendTransaction', [{ from: SENDER, to: LOGGER, gas: '0x30000' }])
  for (let tries = 0; tries < 200; tries++) {
    const receipt = (await call(engineUrl, 'eth_getTransactionReceipt', [hash])) as { blockNumber: string } | null
    if (receipt) return receipt
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`no receipt for ${hash}`)
}

describe('reference node: limits', () => {
  let engine: Engine
  const tmp = tempDir('tnv-limits-')
  const gateways: TestGateway[] = []
  async function gateway(
    flags: string[],
  ): Promise<{ http: string; ws: string | null; ipc: string | null; t: TestGateway }> {
    // worker 1 listens on the two ports above w (src/lib/rpc/workers.ts): all four free
    const [h, w] = await freePortBlock(4)
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
      engine,
    )
    gateways.push(t)
    const [e] = t.gateway.endpoints
    return { http: e?.http as string, ws: e?.ws ?? null, ipc: e?.ipc ?? null, t }
  }
  let logBlock: string

  before(async () => {
    engine = await startAnvil()
    await call(engine.httpUrl, 'anvil_setCode', [BURNER, BURNER_CODE])
    await call(engine.httpUrl, 'anvil_setCode', [LOGGER, LOGGER_CODE])
    await call(engine.httpUrl, 'anvil_setCode', [BIG, BIG_CODE])
    let receipt: { blockNumber: string } | null = null
    for (let i = 0; i < 5; i++) receipt = await sendLoggerTx(engine.httpUrl)
    logBlock = (receipt as { blockNumber: string }).blockNumber
  })
  after(async () => {
    for (const g of gateways) await g.close()
    await engine.stop()
    tmp.cleanup()
  })

  it('--rpc.gascap caps eth_call, eth_estimateGas and debug_traceCall, with or without a gas value', async () => {
    const capped = await gateway(['--rpc.gascap', '100000', '--http.api', 'eth,debug'])
    const open = await gateway([])
    // the engine itself runs the call
    assert.equal(await call(engine.httpUrl, 'eth_call', [{ to: BURNER }, 'latest']), '0x')
    assert.equal((await httpRpc(open.http, 'eth_call', [{ to: BURNER }, 'latest'])).result, '0x')
    for (const gas of [undefined, '0x989680']) {
      const a = await httpRpc(capped.http, 'eth_call', [{ to: BURNER, ...(gas ? { gas } : {}) }, 'latest'])
      assert.ok(a.error, `eth_call with gas ${gas} must run out of gas at the cap`)
      assert.match(a.error.message, /gas/i)
    }
    assert.ok((await httpRpc(capped.http, 'eth_estimateGas', [{ to: BURNER }])).error)
    const estimate = (await httpRpc(open.http, 'eth_estimateGas', [{ to: BURNER }])).result as string
    assert.ok(BigInt(estimate) > 100_000n)
    const traced = (
      await httpRpc(capped.http, 'debug_traceCall', [
        { to: BURNER, gas: '0x989680' },
        'latest',
        { tracer: 'callTracer' },
      ])
    ).result as { gas: string; error?: string }
    assert.equal(BigInt(traced.gas) + 21_000n, 100_000n, 'the call ran with the cap (minus the intrinsic 21000)')
    assert.match(traced.error ?? '', /gas/i)
  })

  it('--rpc.max-blocks-per-filter and --rpc.max-logs-per-response bound eth_getLogs and log filters; 0 = no limit', async () => {
    const g = await gateway(['--rpc.max-blocks-per-filter', '2', '--rpc.max-logs-per-response', '3'])
    const range = await httpRpc(g.http, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])
    assert.equal(range.error?.code, -32602)
    assert.match(range.error?.message ?? '', /max block range 2.*--rpc\.max-blocks-per-filter/)
    const many = await httpRpc(g.http, 'eth_getLogs', [{ fromBlock: logBlock, toBlock: logBlock }])
    assert.equal(many.error?.code, -32602)
    assert.match(many.error?.message ?? '', /max results 3 \(--rpc\.max-logs-per-response\): 4 logs/)
    const block = (await call(engine.httpUrl, 'eth_getBlockByNumber', [logBlock, false])) as { hash: string }
    assert.match(
      (await httpRpc(g.http, 'eth_getLogs', [{ blockHash: block.hash }])).error?.message ?? '',
      /max results 3/,
    )
    const few = await httpRpc(g.http, 'eth_getLogs', [
      { fromBlock: logBlock, toBlock: logBlock, topics: [[`0x${'11'.repeat(32)}`]] },
    ])
    assert.deepEqual(few.result, [])

    const wide = await httpRpc(g.http, 'eth_newFilter', [{ fromBlock: '0x0', toBlock: 'latest' }])
    assert.match(wide.error?.message ?? '', /max block range 2/)
    const id = (await httpRpc(g.http, 'eth_newFilter', [{ fromBlock: 'latest', address: LOGGER }])).result as string
    assert.match(id, /^0x/)
    await sendLoggerTx(engine.httpUrl)
    assert.match((await httpRpc(g.http, 'eth_getFilterChanges', [id])).error?.message ?? '', /max results 3/)
    assert.match((await httpRpc(g.http, 'eth_getFilterLogs', [id])).error?.message ?? '', /max results 3/)
    assert.equal((await httpRpc(g.http, 'eth_uninstallFilter', [id])).result, true)

    const unlimited = await gateway(['--rpc.max-blocks-per-filter', '0', '--rpc.max-logs-per-response', '0'])
    const all = (await httpRpc(unlimited.http, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]))
      .result as unknown[]
    assert.equal(all.length, 24)
  })

  it('--rpc.max-trace-filter-blocks bounds trace_filter', async () => {
    const g = await gateway(['--http.api', 'eth,trace', '--rpc.max-trace-filter-blocks', '2'])
    const wide = await httpRpc(g.http, 'trace_filter', [{ fromBlock: '0x0', toBlock: '0x5' }])
    assert.equal(wide.error?.code, -32602)
    assert.match(wide.error?.message ?? '', /limited to 2 blocks.*--rpc\.max-trace-filter-blocks/)
    const narrow = await httpRpc(g.http, 'trace_filter', [{ fromBlock: '0x1', toBlock: '0x3' }])
    assert.ok(Array.isArray(narrow.result), JSON.stringify(narrow))
  })

  it('--rpc.max-response-size refuses a larger answer, on HTTP and WS', async () => {
    const g = await gateway(['--rpc.max-response-size', '1'])
    assert.equal(((await call(engine.httpUrl, 'eth_call', [{ to: BIG }, 'latest'])) as string).length, 2 + 2 * 0x119999)
    const a = await httpRpc(g.http, 'eth_call', [{ to: BIG }, 'latest'])
    assert.deepEqual(
      { code: a.error?.code, message: a.error?.message },
      { code: -32008, message: 'Response is too big' },
    )
    const ws = await WsClient.open(g.ws as string)
    try {
      assert.equal((await ws.rpc('eth_call', [{ to: BIG }, 'latest'])).error?.code, -32008)
      assert.equal((await ws.rpc('eth_chainId')).result, '0xde7e1')
    } finally {
      await ws.close()
    }
    assert.equal((await httpRpc(g.http, 'eth_chainId')).result, '0xde7e1')
  })

  it('--rpc.max-request-size refuses a larger request on HTTP (413), WS (closed, 1009) and IPC (-32007)', async () => {
    const g = await gateway(['--rpc.max-request-size', '1'])
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: BIG, data: `0x${'00'.repeat(700_000)}` }],
    })
    assert.ok(big.length > 1024 * 1024)
    assert.equal((await httpPost(g.http, big)).status, 413)
    const ws = await WsClient.open(g.ws as string)
    const code = await new Promise<number>((resolve) => {
      ws.socket.once('close', (c) => resolve(c))
      ws.send(big)
    })
    assert.equal(code, 1009)
    const ipc = await IpcClient.open(g.ipc as string)
    ipc.write(big)
    const answer = (await ipc.next((m) => (m as RpcAnswer).error?.code === -32007)) as RpcAnswer
    assert.equal(answer.error?.message, 'Request is too big')
    ipc.close()
    assert.equal((await httpRpc(g.http, 'eth_chainId')).result, '0xde7e1')
  })

  it('--rpc.max-connections, per server: an idle connection gives its slot to a new client, a subscribed one keeps it', async () => {
    const g = await gateway(['--rpc.max-connections', '1'])
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const keepAlive = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          g.http,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            res.resume()
            res.on('end', () => resolve(res.statusCode ?? 0))
          },
        )
        req.on('error', reject)
        req.end('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')
      })
    try {
      assert.equal(await keepAlive(), 200)
      // the keep-alive connection is idle: it gives its slot up
      const second = await httpPost(g.http, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')
      assert.equal(second.status, 200)
      assert.equal(g.t.gateway.slotStats()[0]?.evicted, 1)
    } finally {
      agent.destroy()
    }
    // a WebSocket holding a subscription keeps its slot; an idle one does not
    const idle = await WsClient.open(g.ws as string)
    const subscribed = await WsClient.open(g.ws as string)
    // the idle WebSocket is closed for the new one
    await new Promise<void>((r) =>
      idle.socket.readyState === idle.socket.CLOSED ? r() : idle.socket.once('close', () => r()),
    )
    assert.match(String((await subscribed.rpc('eth_subscribe', ['newHeads'])).result), /^0x/)
    await assert.rejects(WsClient.open(g.ws as string), /HTTP 429/)
    await subscribed.close()
    const ipc1 = await IpcClient.open(g.ipc as string)
    assert.match(String((await ipc1.rpc('eth_subscribe', ['newHeads'])).result), /^0x/)
    const ipc2 = await IpcClient.open(g.ipc as string)
    assert.match(
      ((await ipc2.next((m) => (m as RpcAnswer).error !== undefined)) as RpcAnswer).error?.message ?? '',
      /Too many connections/,
    )
    ipc1.close()
    ipc2.close()
  })
})

describe('reference node: the tracing semaphore', () => {
  it('one semaphore for debug_trace*, debug_executionWitness*, trace_* and eth_callBundle on every transport: excess waits, none fails', async () => {
    const tmp = tempDir('tnv-tracing-')
    const fake = await startFakeEngine(150)
    // worker 1 listens on the two ports above w (src/lib/rpc/workers.ts): all four free
    const [h, w] = await freePortBlock(4)
    const t = await startTestGateway(
      [
        '--http',
        '--http.port',
        String(h),
        '--http.api',
        'eth,debug,trace',
        '--ws',
        '--ws.port',
        String(w),
        '--ws.api',
        'eth,debug,trace',
        '--ipcpath',
        join(tmp.dir, 't.ipc'),
        '--workers',
        '2',
        '--rpc.max-tracing-requests',
        '2',
      ],
      fake,
    )
    try {
      const [w0, w1] = t.gateway.endpoints
      assert.ok(w0?.http && w1?.http && w0.ws)
      const ws = await WsClient.open(w0.ws)
      const methods = [
        'debug_traceTransaction',
        'debug_traceCall',
        'debug_executionWitness',
        'trace_block',
        'trace_replayTransaction',
        'eth_callBundle',
      ]
      const calls: Promise<RpcAnswer>[] = []
      methods.forEach((m, i) => {
        calls.push(httpRpc(i % 2 ? (w1.http as string) : (w0.http as string), m, []))
        calls.push(ws.rpc(m, []))
      })
      await new Promise((r) => setTimeout(r, 50))
      const mid = t.gateway.tracing.stats()
      // light requests do not wait for tracing slots
      assert.equal((await httpRpc(w0.http, 'eth_blockNumber')).result, '0x1')
      const whileTracing = fake.served() < calls.length
      const answers = await Promise.all(calls)
      await ws.close()
      for (const a of answers) assert.ok(a.result, `a tracing request failed: ${JSON.stringify(a)}`)
      assert.equal(fake.peak(), 2, 'the engine never saw more than 2 tracing requests at once')
      assert.equal(t.gateway.tracing.stats().peak, 2)
      assert.equal(mid.active, 2)
      assert.ok(mid.waiting > 0, 'excess requests waited')
      assert.ok(whileTracing, 'eth_blockNumber was answered while tracing requests were still queued')
      assert.deepEqual(t.gateway.tracing.stats(), { active: 0, waiting: 0, peak: 2 })
    } finally {
      await t.close()
      await fake.close()
      tmp.cleanup()
    }
  })

  it('a client that leaves while waiting frees its place; nothing leaks', async () => {
    const fake = await startFakeEngine(200)
    const [h] = await freePorts(1)
    const t = await startTestGateway(
      [
        '--http',
        '--http.port',
        String(h),
        '--http.api',
        'eth,debug',
        '--ipcdisable',
        '--rpc.max-tracing-requests',
        '1',
      ],
      fake,
    )
    try {
      const url = t.gateway.endpoints[0]?.http as string
      const first = httpRpc(url, 'debug_traceTransaction', [])
      const leaving = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } })
      leaving.on('error', () => {})
      leaving.end('{"jsonrpc":"2.0","id":2,"method":"debug_traceTransaction","params":[]}')
      await new Promise((r) => setTimeout(r, 50))
      assert.equal(t.gateway.tracing.stats().waiting, 1)
      leaving.destroy()
      assert.ok((await first).result)
      await new Promise((r) => setTimeout(r, 50))
      assert.ok((await httpRpc(url, 'debug_traceTransaction', [])).result)
      assert.equal(fake.served(), 2, 'the request of the client that left never reached the engine')
      assert.deepEqual(t.gateway.tracing.stats(), { active: 0, waiting: 0, peak: 1 })
    } finally {
      await t.close()
      await fake.close()
    }
  })
})
