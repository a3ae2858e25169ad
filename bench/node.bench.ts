/**
 * Reference node performance (issue 5), each figure against raw anvil in the same run:
 * - eth_blockNumber and eth_call (registry getCurrentEpoch) throughput and p50/p99 latency,
 *   10 keep-alive connections on loopback, through the node vs straight to its own engine
 *   (the same anvil process); targets: throughput >= 0.5 x anvil, p99 overhead <= 2 ms;
 * - time from start to the first answer: the node (chain bootstrapped or resumed, servers up)
 *   vs a bare anvil start.
 * The load generator is a small HTTP/1.1 client over raw sockets (one request in flight per
 * connection, bounded request count), so that it is not the bottleneck it would be with
 * node:http. Rounds alternate anvil and node so that machine noise hits both alike; the best
 * round of each is compared. Env: BENCH_REQUESTS (per round, default 30000), BENCH_ROUNDS (3).
 * Run: npm run bench node (builds first).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const NODE_BIN = join(ROOT, 'bin', 'tnv-node.js')
const ANVIL = join(ROOT, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONNECTIONS = 10

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0))
    })
  })
}

type Result = { rps: number; p50: number; p99: number; errors: number }

/** `total` requests over `connections` keep-alive connections, one in flight on each. */
function load(url: string, body: string, total: number, connections = CONNECTIONS): Promise<Result> {
  const u = new URL(url)
  const payload = Buffer.from(body)
  const request = Buffer.concat([
    Buffer.from(
      `POST / HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n`,
    ),
    payload,
  ])
  const latencies = new Float64Array(total)
  let sent = 0
  let done = 0
  let errors = 0
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(Number(u.port), u.hostname)
      socket.setNoDelay(true)
      let buf: Buffer | null = null
      let t0 = 0n
      const next = () => {
        if (sent >= total) {
          socket.end()
          resolve()
          return
        }
        sent++
        t0 = process.hrtime.bigint()
        socket.write(request)
      }
      socket.on('connect', next)
      socket.on('error', reject)
      socket.on('data', (chunk: Buffer) => {
        buf = buf ? Buffer.concat([buf, chunk]) : chunk
        for (;;) {
          const headEnd = buf.indexOf('\r\n\r\n')
          if (headEnd < 0) return
          const head = buf.toString('latin1', 0, headEnd)
          const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1])
          if (buf.length < headEnd + 4 + length) return
          if (!head.startsWith('HTTP/1.1 200') || buf.indexOf('"error"', headEnd) >= 0) errors++
          buf = buf.subarray(headEnd + 4 + length)
          latencies[done++] = Number(process.hrtime.bigint() - t0) / 1e6
          next()
        }
      })
    })
  const start = process.hrtime.bigint()
  return Promise.all(Array.from({ length: connections }, one)).then(() => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9
    const sorted = Array.from(latencies.subarray(0, done)).sort((a, b) => a - b)
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number
    return { rps: done / seconds, p50: at(0.5), p99: at(0.99), errors }
  })
}

async function firstAnswer(url: string, t0: bigint, child: ChildProcess): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before answering`)
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}',
      })
      if (res.ok) {
        await res.text()
        return Number(process.hrtime.bigint() - t0) / 1e6
      }
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 10))
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

const work = mkdtempSync(join(tmpdir(), 'tnv-bench-node-'))
const fmt = (n: number) => n.toFixed(2)
try {
  // --- start to first answer -------------------------------------------------------------
  const bare = await freePort()
  let t0 = process.hrtime.bigint()
  const anvilChild = spawn(
    ANVIL,
    ['--port', String(bare), '--chain-id', '911329', '--hardfork', 'prague', '--silent'],
    { stdio: 'ignore' },
  )
  const anvilStart = await firstAnswer(`http://127.0.0.1:${bare}`, t0, anvilChild)
  await stop(anvilChild)

  const port = await freePort()
  const nodeArgs = [
    'node',
    '--datadir',
    join(work, 'devnet'),
    '--http',
    '--http.port',
    String(port),
    '--ipcdisable',
    '--devnet.block-time',
    '0',
  ]
  // the engine outside a network namespace, so that this benchmark can also call it straight
  // on its loopback port (the node itself reaches it over its IPC socket either way)
  const env = { ...process.env, TNV_DEVNET_ENGINE_ISOLATION: 'none' }
  t0 = process.hrtime.bigint()
  let node = spawn(process.execPath, [NODE_BIN, ...nodeArgs], { stdio: 'ignore', env })
  const nodeFresh = await firstAnswer(`http://127.0.0.1:${port}`, t0, node)
  await stop(node)
  t0 = process.hrtime.bigint()
  node = spawn(process.execPath, [NODE_BIN, ...nodeArgs], { stdio: 'ignore', env })
  const nodeResumed = await firstAnswer(`http://127.0.0.1:${port}`, t0, node)
  for (let i = 0; i < 100 && !readFileSyncSafe(join(work, 'devnet', 'devnet.json')); i++)
    await new Promise((r) => setTimeout(r, 20))

  // the node's own engine: the anvil child of the node process
  const enginePid = execFileSync('pgrep', ['-P', String(node.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')[0]
  const cmdline = readFileSync(`/proc/${enginePid}/cmdline`, 'utf8').split('\0')
  const enginePort = cmdline[cmdline.indexOf('--port') + 1]
  const engineUrl = `http://127.0.0.1:${enginePort}`
  const nodeUrl = `http://127.0.0.1:${port}`

  console.log(
    `start to first answer: anvil ${anvilStart.toFixed(0)} ms; node ${nodeFresh.toFixed(0)} ms fresh (chain bootstrapped), ${nodeResumed.toFixed(0)} ms resumed`,
  )

  const cases = [
    ['eth_blockNumber', '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'],
    [
      'eth_call',
      '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x07e17e17e17e17e17e17e17e17e17e17e17e17e1","data":"0xb97dd9e2"},"latest"]}',
    ],
  ] as const
  let pass = true
  for (const [name, body] of cases) {
    await load(engineUrl, body, 2000)
    await load(nodeUrl, body, 2000)
    const best = { anvil: null as Result | null, node: null as Result | null }
    for (let r = 0; r < ROUNDS; r++) {
      for (const [who, url] of [
        ['anvil', engineUrl],
        ['node', nodeUrl],
      ] as const) {
        const res = await load(url, body, REQUESTS)
        if (res.errors) throw new Error(`${name} through ${who}: ${res.errors} error answers`)
        if (!best[who] || res.rps > (best[who] as Result).rps) best[who] = res
      }
    }
    const a = best.anvil as Result
    const n = best.node as Result
    const ratio = n.rps / a.rps
    const overhead = n.p99 - a.p99
    const ok = ratio >= 0.5 && overhead <= 2
    pass &&= ok
    console.log(
      `${name.padEnd(16)} anvil ${a.rps.toFixed(0).padStart(6)} req/s p50 ${fmt(a.p50)} p99 ${fmt(a.p99)} ms | node ${n.rps.toFixed(0).padStart(6)} req/s p50 ${fmt(n.p50)} p99 ${fmt(n.p99)} ms | throughput ${ratio.toFixed(2)}x (>= 0.5), p99 overhead ${fmt(overhead)} ms (<= 2) ${ok ? 'PASS' : 'FAIL'}`,
    )
  }
  await stop(node)
  if (!pass) process.exitCode = 1
} finally {
  rmSync(work, { recursive: true, force: true })
}

function readFileSyncSafe(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}
