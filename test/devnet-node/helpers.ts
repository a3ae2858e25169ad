/**
 * Helpers for the reference node's tests: a plain anvil as the engine (fast; the registry
 * is only needed by the tn_* tests, which run the whole node), gateways started from plans
 * of real node flags, and small clients for the three transports.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after } from 'node:test'
import WebSocket from 'ws'
import { type Gateway, type GatewayParameters, startGateway } from '../../src/devnet/node/gateway.js'
import { resolveRpcPlan } from '../../src/lib/rpc/resolve.js'
import type { RpcPlan } from '../../src/lib/rpc/types.js'
import { ROOT } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

export const NODE_BIN = join(ROOT, 'bin', 'tnv-node.js')
export const ANVIL = join(ROOT, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')
export const REGISTRY = '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1' as const
export const ISSUANCE = '0x07A07A07A07A07a07A07A07a07a07A07a07a07A0' as const

export type NodeProc = {
  child: ChildProcess
  out: () => string
  exited: Promise<number | null>
  waitFor: (text: string, ms?: number) => Promise<string>
}

/** Nodes startNode started that have not exited yet. */
const running = new Set<ChildProcess>()

// A test that fails before it stops its node must not leave the node running: its pipes would
// keep the test file, and with it the whole run, waiting (seen in CI after an assertion failed
// mid-test). Registered once per test file that imports these helpers; SIGTERM first, so the
// node stops its engine, then SIGKILL.
after(async () => {
  await Promise.all(
    [...running].map(async (child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    }),
  )
})

/** Runs bin/tnv-node.js with these arguments, collecting its output. */
export function startNode(args: string[], env: NodeJS.ProcessEnv = process.env): NodeProc {
  const child = spawn(process.execPath, [NODE_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env })
  running.add(child)
  child.once('exit', () => running.delete(child))
  let out = ''
  const waiters: (() => void)[] = []
  for (const s of [child.stdout, child.stderr]) {
    s?.setEncoding('utf8')
    s?.on('data', (d: string) => {
      out += d
      for (const w of waiters.splice(0)) w()
    })
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let done = false
  void exited.then(() => {
    done = true
    for (const w of waiters.splice(0)) w()
  })
  return {
    child,
    out: () => out,
    exited,
    async waitFor(text, ms = 60_000) {
      const deadline = Date.now() + ms
      while (!out.includes(text)) {
        if (done) throw new Error(`the node exited before logging "${text}":\n${out}`)
        if (Date.now() > deadline) throw new Error(`no "${text}" within ${ms} ms:\n${out}`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 250)
        })
      }
      return out
    },
  }
}

export type Engine = {
  /** anvil's loopback endpoint: the tests' own way in (setup, checks); the gateway never uses it. */
  httpUrl: string
  wsUrl: string
  /** anvil's IPC socket: the gateway's engine. */
  ipcPath: string
  child: ChildProcess
  stop(): Promise<void>
}

/** A plain anvil on a free loopback port and an IPC socket (automine, anvil's default unlocked accounts). */
export async function startAnvil(): Promise<Engine> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'tnv-anvil-'))
  const ipcPath = join(dir, 'anvil.ipc')
  const child = spawn(
    ANVIL,
    ['--port', String(port), '--ipc', ipcPath, '--chain-id', '911329', '--hardfork', 'prague', '--silent'],
    { stdio: 'ignore' },
  )
  const httpUrl = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      await call(httpUrl, 'eth_chainId')
      if (existsSync(ipcPath)) break
    } catch (err) {
      if (i > 200) throw err
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    httpUrl,
    wsUrl: `ws://127.0.0.1:${port}`,
    ipcPath,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true })
          resolve()
        }
        if (child.exitCode !== null) return done()
        child.once('exit', done)
        child.kill('SIGTERM')
      }),
  }
}

export type TestGateway = { gateway: Gateway; plan: RpcPlan; close(): Promise<void> }

/** Starts the gateway with the plan of these node flags in front of `engine`. */
export async function startTestGateway(
  flags: string[],
  engine: { ipcPath: string },
  jwtSecretHex: string | null = null,
  options: Pick<GatewayParameters, 'timeouts'> & { maxSubscriptions?: number } = {},
): Promise<TestGateway> {
  const plan = resolveRpcPlan(flags, { cpus: 4 })
  if (!plan.ok) throw new Error(`plan refused: ${plan.errors.join(' ')}`)
  const gateway = await startGateway({
    plan,
    engine,
    chainId: 911329,
    registry: REGISTRY,
    issuance: ISSUANCE,
    jwtSecretHex,
    maxSubscriptions: options.maxSubscriptions ?? 4,
    clientVersion: 'tnv-reference-node/test',
    timeouts: options.timeouts,
  })
  return { gateway, plan, close: () => gateway.close() }
}

/** `count` distinct free ports. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>()
  while (ports.size < count) ports.add(await freePort())
  return [...ports]
}

export type HttpAnswer = {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: unknown
}

/** One HTTP request (a new connection each time). */
export function httpPost(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { 'content-type': 'application/json', ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown = null
          try {
            json = JSON.parse(text)
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

export type RpcAnswer = {
  jsonrpc: string
  id: unknown
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

function body(method: string, params: unknown[] = [], id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params })
}

/** A JSON-RPC call over HTTP; returns the answer object (result or error). */
export async function httpRpc(
  url: string,
  method: string,
  params: unknown[] = [],
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const r = await httpPost(url, body(method, params), headers)
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.text}`)
  return r.json as RpcAnswer
}

/** The result of a call over HTTP; throws on an error answer. */
export async function call(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const a = await httpRpc(url, method, params)
  if (a.error) throw new Error(`${method}: ${a.error.code} ${a.error.message}`)
  return a.result
}

/** A WebSocket connection that collects every message. */
export class WsClient {
  readonly messages: unknown[] = []
  #waiters: (() => void)[] = []
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (d: Buffer) => {
      this.messages.push(JSON.parse(d.toString('utf8')))
      for (const w of this.#waiters.splice(0)) w()
    })
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers })
      socket.once('open', () => resolve(new WsClient(socket)))
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)))
      socket.once('error', reject)
    })
  }

  send(text: string | Buffer): void {
    this.socket.send(text)
  }

  /** Waits for a message matching `pred` (already received or future). */
  async next(pred: (m: unknown) => boolean, timeoutMs = 10_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.messages.find(pred)
      if (found !== undefined) {
        this.messages.splice(this.messages.indexOf(found), 1)
        return found
      }
      if (Date.now() > deadline)
        throw new Error(`no matching WebSocket message in ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`)
      await new Promise<void>((r) => {
        this.#waiters.push(r)
        setTimeout(r, 200)
      })
    }
  }

  async rpc(
    method: string,
    params: unknown[] = [],
    id: number | string = Math.floor(Math.random() * 1e9),
  ): Promise<RpcAnswer> {
    this.send(body(method, params, id))
    return (await this.next((m) => (m as RpcAnswer).id === id)) as RpcAnswer
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve()
      this.socket.once('close', () => resolve())
      this.socket.close()
    })
  }
}

/** An IPC connection that collects every answer (newline or not between them). */
export class IpcClient {
  readonly messages: unknown[] = []
  #buffer = ''
  #waiters: (() => void)[] = []
  closed = false
  private constructor(readonly socket: ReturnType<typeof connect>) {
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk
      for (;;) {
        const nl = this.#buffer.indexOf('\n')
        if (nl < 0) break
        const line = this.#buffer.slice(0, nl).trim()
        this.#buffer = this.#buffer.slice(nl + 1)
        if (line) this.messages.push(JSON.parse(line))
      }
      for (const w of this.#waiters.splice(0)) w()
    })
    socket.on('close', () => {
      this.closed = true
      for (const w of this.#waiters.splice(0)) w()
    })
  }

  static open(path: string): Promise<IpcClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path)
      socket.once('connect', () => resolve(new IpcClient(socket)))
      socket.once('error', reject)
    })
  }

  write(text: string | Buffer): void {
    this.socket.write(text)
  }

  async next(pred: (m: unknown) => boolean, timeoutMs = 10_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.messages.find(pred)
      if (found !== undefined) {
        this.messages.splice(this.messages.indexOf(found), 1)
        return found
      }
      if (Date.now() > deadline || this.closed)
        throw new Error(`no matching IPC message; got ${JSON.stringify(this.messages)}`)
      await new Promise<void>((r) => {
        this.#waiters.push(r)
        setTimeout(r, 200)
      })
    }
  }

  async rpc(
    method: string,
    params: unknown[] = [],
    id: number | string = Math.floor(Math.random() * 1e9),
  ): Promise<RpcAnswer> {
    this.write(body(method, params, id))
    return (await this.next((m) => (m as RpcAnswer).id === id)) as RpcAnswer
  }

  close(): void {
    this.socket.destroy()
  }
}

/** Sends one call over a fresh transport connection of the given kind. */
export async function rpcOver(
  transport: 'http' | 'ws' | 'ipc',
  target: string,
  method: string,
  params: unknown[] = [],
): Promise<RpcAnswer> {
  if (transport === 'http') return httpRpc(target, method, params)
  const client = transport === 'ws' ? await WsClient.open(target) : await IpcClient.open(target)
  try {
    return await client.rpc(method, params, 1)
  } finally {
    if (client instanceof WsClient) await client.close()
    else client.close()
  }
}

/**
 * A stand-in engine for the tracing-semaphore tests, on an IPC socket as anvil serves it (JSON
 * values in, one answer per line out): answers any method, holds tracing methods for `delayMs`,
 * and counts how many of those it holds at once.
 */
export type FakeEngine = {
  ipcPath: string
  inFlight: () => number
  peak: () => number
  served: () => number
  close(): Promise<void>
}

export async function startFakeEngine(delayMs: number): Promise<FakeEngine> {
  const { createServer } = await import('node:net')
  const { JsonStreamSplitter } = await import('../../src/devnet/node/json-stream.js')
  let inFlight = 0
  let peak = 0
  let served = 0
  const isTracing = (m: string) =>
    m.startsWith('debug_trace') ||
    m.startsWith('debug_executionWitness') ||
    m.startsWith('trace_') ||
    m === 'eth_callBundle'
  const answer = async (req: { id: unknown; method: string }) => {
    if (req.method === 'eth_getBlockByNumber') return { jsonrpc: '2.0', id: req.id, result: { gasLimit: '0x1c9c380' } }
    if (!isTracing(req.method)) return { jsonrpc: '2.0', id: req.id, result: '0x1' }
    inFlight++
    peak = Math.max(peak, inFlight)
    await new Promise((r) => setTimeout(r, delayMs))
    inFlight--
    served++
    return { jsonrpc: '2.0', id: req.id, result: { traced: req.method } }
  }
  const sockets = new Set<import('node:net').Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    const splitter = new JsonStreamSplitter(
      {
        onValue: async (bytes) => {
          const msg = JSON.parse(bytes.toString('utf8'))
          const out = Array.isArray(msg) ? await Promise.all(msg.map(answer)) : await answer(msg)
          if (!socket.destroyed) socket.write(`${JSON.stringify(out)}\n`)
        },
        onTooLarge: () => socket.destroy(),
      },
      1 << 24,
    )
    socket.on('data', (c: Buffer) => splitter.push(c))
  })
  const dir = mkdtempSync(join(tmpdir(), 'tnv-fake-engine-'))
  const ipcPath = join(dir, 'engine.ipc')
  await new Promise<void>((r) => server.listen(ipcPath, r))
  return {
    ipcPath,
    inFlight: () => inFlight,
    peak: () => peak,
    served: () => served,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => {
          rmSync(dir, { recursive: true, force: true })
          r()
        })
      }),
  }
}

/** The pids of a process's children (pgrep -P), none when it has none. */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number)
  } catch {
    return []
  }
}
