/**
 * The reference node under abuse (issue 15): the adversarial run's cases, replayed against a
 * real reference node (`bin/tnv-node.js`, its devnet engine behind it) with the limit the
 * adversarial run used (`--rpc.max-connections 20`) and the defaults otherwise. For each case:
 * whether a new client is still served, and how long its `eth_chainId` takes (ms), or what the
 * node answers. Figures for docs/reliability.md; the behaviour itself is tested in
 * test/devnet-node/abuse.test.ts.
 *   - idle sockets (connected, never a byte), slowloris (headers never finished), slow bodies,
 *     idle WebSockets: ABUSE_SOCKETS each (default 100, five times the limit);
 *   - WebSockets holding a subscription: how many lock a new client out;
 *   - 5,000 eth_subscribe pipelined on one WebSocket against the limit of 1,024;
 *   - Content-Type application/jsonx;
 *   - how long a half-sent request and an idle keep-alive connection are kept (s).
 * Run: npm run bench node-abuse (builds first).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const NODE_BIN = join(ROOT, 'bin', 'tnv-node.js')
const LIMIT = 20
const SOCKETS = Number(process.env.ABUSE_SOCKETS ?? 100)
const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0))
    })
  })
}

function raw(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s))
    s.on('error', () => {})
    s.once('error', reject)
    s.resume()
  })
}

/** A new client's eth_chainId: its status and time (ms). */
async function newClient(url: string, contentType = 'application/json'): Promise<{ status: number; ms: number }> {
  const t0 = performance.now()
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: CHAIN_ID,
      signal: AbortSignal.timeout(60_000),
    })
    await res.text()
    return { status: res.status, ms: performance.now() - t0 }
  } catch {
    return { status: 0, ms: performance.now() - t0 }
  }
}

function ws(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const c = new WebSocket(url)
    c.on('error', () => {})
    c.once('open', () => resolve(c))
    c.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
  })
}

function subscribe(c: WebSocket, id: number): Promise<boolean> {
  return new Promise((resolve) => {
    const on = (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { id?: number; result?: unknown }
      if (m.id !== id) return
      c.off('message', on)
      resolve(typeof m.result === 'string')
    }
    c.on('message', on)
    c.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_subscribe', params: ['newHeads'] }))
  })
}

const closedWithin = (s: Socket, ms: number) =>
  new Promise<number | null>((resolve) => {
    const t0 = performance.now()
    const timer = setTimeout(() => resolve(null), ms)
    s.once('close', () => {
      clearTimeout(timer)
      resolve((performance.now() - t0) / 1000)
    })
  })

const work = mkdtempSync(join(tmpdir(), 'tnv-bench-abuse-'))
let node: ChildProcess | null = null
const rows: [string, string][] = []
const row = (what: string, result: string) => {
  rows.push([what, result])
  console.log(`${what.padEnd(72)} ${result}`)
}
try {
  const [h, w] = [await freePort(), await freePort()]
  const datadir = join(work, 'devnet')
  node = spawn(
    process.execPath,
    [
      NODE_BIN,
      'node',
      '--datadir',
      datadir,
      '--http',
      '--http.port',
      String(h),
      '--ws',
      '--ws.port',
      String(w),
      '--ipcdisable',
      '--rpc.max-connections',
      String(LIMIT),
    ],
    { stdio: 'ignore' },
  )
  for (let i = 0; !existsSync(join(datadir, 'devnet.json')); i++) {
    if (node.exitCode !== null || i > 1200) throw new Error('the node did not start')
    await new Promise((r) => setTimeout(r, 100))
  }
  const http = `http://127.0.0.1:${h}`
  const wsUrl = `ws://127.0.0.1:${w}`
  const fmt = (r: { status: number; ms: number }) => `HTTP ${r.status} in ${r.ms.toFixed(0)} ms`

  row(`baseline: a new client, nothing else connected`, fmt(await newClient(http)))

  const cases: [string, (s: Socket) => void][] = [
    ['idle sockets (connected, never a byte)', () => {}],
    ['slowloris (headers never finished)', (s) => s.write('POST / HTTP/1.1\r\nHost: x\r\nX-Slow: a')],
    [
      'slow bodies (Content-Length 1000, 10 bytes sent)',
      (s) =>
        s.write(
          'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"',
        ),
    ],
  ]
  for (const [what, start] of cases) {
    const sockets = await Promise.all(Array.from({ length: SOCKETS }, () => raw(h)))
    for (const s of sockets) start(s)
    row(`${SOCKETS} ${what}, limit ${LIMIT}: a new client`, fmt(await newClient(http)))
    for (const s of sockets) s.destroy()
  }

  const idleWs: WebSocket[] = []
  for (let i = 0; i < SOCKETS; i++) idleWs.push(await ws(wsUrl).catch(() => null as never))
  const fresh = await ws(wsUrl).then(
    () => 'served',
    (e: Error) => `refused (${e.message})`,
  )
  row(`${SOCKETS} idle WebSockets (no subscription), limit ${LIMIT}: a new WebSocket`, fresh)
  for (const c of idleWs) c?.terminate()

  // subscribed WebSockets keep their slot: how many lock a new client out
  const held: WebSocket[] = []
  let lockedAt: number | null = null
  for (let i = 1; i <= LIMIT + 5; i++) {
    const c = await ws(wsUrl).catch(() => null)
    if (!c) {
      lockedAt = held.length
      break
    }
    held.push(c)
    await subscribe(c, i)
    const probe = await newClient(http)
    if (probe.status === 429) {
      lockedAt = held.length
      break
    }
  }
  row(
    `WebSockets each holding a subscription (and answering pings) that lock a new HTTP client out, limit ${LIMIT}`,
    lockedAt === null ? `none up to ${LIMIT + 5}` : `${lockedAt}`,
  )
  for (const c of held) c.terminate()
  await new Promise((r) => setTimeout(r, 200))

  // pipelined subscriptions against the default limit (1,024)
  const pipe = await ws(wsUrl)
  const answers = await new Promise<{ ok: number; refused: number }>((resolve) => {
    let ok = 0
    let refused = 0
    pipe.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown }
      if (m.id === undefined) return
      if (typeof m.result === 'string') ok++
      else if (m.error) refused++
      if (ok + refused === 5000) resolve({ ok, refused })
    })
    for (let i = 0; i < 5000; i++)
      pipe.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['newHeads'] }))
  })
  row(
    '5,000 eth_subscribe pipelined on one WebSocket, limit 1,024',
    `${answers.ok} accepted, ${answers.refused} refused`,
  )
  pipe.terminate()

  row('Content-Type application/jsonx', fmt(await newClient(http, 'application/jsonx')))

  const half = await raw(h)
  half.write('POST / HTTP/1.1\r\nHost: x\r\n')
  const keep = await raw(h)
  keep.write(
    `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${CHAIN_ID.length}\r\n\r\n${CHAIN_ID}`,
  )
  const [halfS, keepS] = await Promise.all([closedWithin(half, 60_000), closedWithin(keep, 60_000)])
  row('a half-sent request is closed after (s)', halfS === null ? 'not within 60 s' : halfS.toFixed(1))
  row('an idle keep-alive connection is closed after (s)', keepS === null ? 'not within 60 s' : keepS.toFixed(1))
} finally {
  if (node && node.exitCode === null) {
    const exited = new Promise((r) => node?.once('exit', r))
    node.kill('SIGTERM')
    await exited
  }
  rmSync(work, { recursive: true, force: true })
}
