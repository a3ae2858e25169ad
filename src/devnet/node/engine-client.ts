/**
 * The node's connection to its execution engine (anvil): a pool of connections to the
 * engine's IPC socket (the only way to the engine: src/devnet/chain/engine-isolation.ts),
 * written for throughput (docs/decisions.md, "The reference node: one gateway in front of anvil"). Each connection carries one
 * request at a time; anvil answers each request with one line of compact JSON.
 *
 * - A request the node does not need to inspect travels as the client's own bytes, and the
 *   engine's answer comes back as its own bytes (no parse, no re-serialisation).
 * - Light requests that arrive while the engine is busy share one round trip as a JSON-RPC
 *   batch (ids rewritten, answers split and re-addressed): under load this halves the
 *   engine's and the node's work per request. Heavy requests (tracing, logs) always go alone.
 * - Answers larger than --rpc.max-response-size are refused before they are read into memory.
 * - The engine may be restarted under the node (a compaction, src/devnet/chain/engine-compaction.ts):
 *   the devnet pauses the client first (`pause`: requests wait, up to MAX_WAITING, until
 *   `resume`), and a request whose connection could not be opened (the socket not there or
 *   refusing: nothing was sent) waits and is tried again for up to `reconnectWaitMs`.
 */
import { isUtf8 } from 'node:buffer'
import { connect, type Socket } from 'node:net'

/** What the engine answered for one request: its own bytes, or a parsed answer object. */
export type EngineAnswer = { raw: Buffer; object?: undefined } | { raw?: undefined; object: EngineAnswerObject }
export type EngineAnswerObject = { result?: unknown; error?: unknown }

/** The engine could not be asked (down, refused, closed mid-answer) or answered nonsense. */
export class EngineUnavailableError extends Error {}
/** The engine's socket could not be opened: the request was not sent. */
class EngineNotReachedError extends EngineUnavailableError {}
/** The engine's answer is larger than the node may send. */
export class EngineResponseTooBigError extends Error {
  constructor(readonly limitBytes: number) {
    super(`response exceeds ${limitBytes} bytes`)
  }
}

type Job = {
  method: string
  params: unknown
  /** The client's own request bytes, sent as is when the job travels alone. */
  raw: Buffer | null
  done: (err: Error | null, answer?: EngineAnswer) => void
  /** When a connection for it first could not be opened (ms). */
  unreachedSince?: number
}

/** Requests that may wait while the engine is paused or out of reach; more are refused at once. */
const MAX_WAITING = 10_000
/** Pause between attempts to reach an engine that is not there. */
const RECONNECT_PAUSE_MS = 100

export type EngineClientParameters = {
  /** The engine's IPC socket (src/devnet/chain: `DevnetChain.engineIpcPath`). */
  path: string
  /** Largest answer accepted (bytes). */
  maxResponseBytes: number
  /** Most requests sharing one round trip. */
  maxBatch?: number
  /** Round trips carrying light requests at once (more queue up and are batched). */
  lightConnections?: number
  /** Connections to the engine at most (light + solo). */
  maxConnections?: number
  /** How long a request waits for an engine whose socket cannot be opened (a restart), ms. */
  reconnectWaitMs?: number
}

export class EngineClient {
  readonly #path: string
  readonly #maxResponseBytes: number
  readonly #maxBatch: number
  readonly #lightConnections: number
  readonly #maxConnections: number
  readonly #idle: EngineConnection[] = []
  readonly #all = new Set<EngineConnection>()
  #light: Job[] = []
  readonly #solo: Job[] = []
  readonly #reconnectWaitMs: number
  #lightInFlight = 0
  /** Round trips under way (light and solo). */
  #inFlight = 0
  #scheduled = false
  #closed = false
  /** Paused by the devnet; settles `#drained` once nothing is in flight. */
  #paused = false
  #drained: (() => void) | null = null
  /** Waiting for an engine that could not be reached. */
  #unreachable = false

  constructor({
    path,
    maxResponseBytes,
    maxBatch = 100,
    lightConnections = 4,
    maxConnections = 64,
    reconnectWaitMs = 30_000,
  }: EngineClientParameters) {
    this.#reconnectWaitMs = reconnectWaitMs
    this.#path = path
    this.#maxResponseBytes = maxResponseBytes
    this.#maxBatch = maxBatch
    this.#lightConnections = lightConnections
    this.#maxConnections = maxConnections
  }

  /**
   * Sends one request. `raw` (the client's bytes) is used when the request travels alone;
   * `batchable` lets it share a round trip with other light requests.
   */
  send(method: string, params: unknown, raw: Buffer | null, batchable: boolean): Promise<EngineAnswer> {
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(new EngineUnavailableError('the node is shutting down'))
      if ((this.#paused || this.#unreachable) && this.#light.length + this.#solo.length >= MAX_WAITING)
        return reject(
          new EngineUnavailableError(`the execution engine is restarting and ${MAX_WAITING} requests are waiting`),
        )
      const job: Job = {
        method,
        params,
        raw,
        done: (err, answer) => (err ? reject(err) : resolve(answer as EngineAnswer)),
      }
      if (batchable) {
        this.#light.push(job)
        if (!this.#scheduled) {
          this.#scheduled = true
          setImmediate(this.#pump)
        }
      } else {
        this.#solo.push(job)
        this.#pump()
      }
    })
  }

  /** Calls a method and returns its result; an engine error answer is thrown as EngineRpcError. */
  async call(method: string, params: unknown[], batchable = true): Promise<unknown> {
    const answer = await this.send(method, params, null, batchable)
    const object = answer.object ?? parseAnswer(answer.raw)
    if (object.error !== undefined && object.error !== null) throw new EngineRpcError(object.error)
    return object.result
  }

  /**
   * Holds every new request until `resume()` is called; resolves once the requests under way
   * have been answered, with `resume`.
   */
  pause(): Promise<() => void> {
    this.#paused = true
    const resume = () => {
      this.#paused = false
      this.#pump()
    }
    if (this.#inFlight === 0) return Promise.resolve(resume)
    return new Promise((resolve) => {
      this.#drained = () => resolve(resume)
    })
  }

  close(): void {
    this.#closed = true
    this.#drained?.()
    this.#drained = null
    const err = new EngineUnavailableError('the node is shutting down')
    for (const job of this.#light.splice(0)) job.done(err)
    for (const job of this.#solo.splice(0)) job.done(err)
    for (const conn of this.#all) conn.destroy(err)
  }

  readonly #pump = (): void => {
    this.#scheduled = false
    if (this.#paused || this.#unreachable || this.#closed) return
    while (this.#solo.length > 0) {
      const conn = this.#acquire()
      if (!conn) return
      const job = this.#solo.shift() as Job
      this.#sendOne(conn, job, false)
    }
    while (this.#light.length > 0 && this.#lightInFlight < this.#lightConnections) {
      const conn = this.#acquire()
      if (!conn) return
      this.#lightInFlight++
      if (this.#light.length === 1) {
        this.#sendOne(conn, this.#light.pop() as Job, true)
      } else {
        const jobs = this.#light.length <= this.#maxBatch ? this.#light : this.#light.slice(0, this.#maxBatch)
        this.#light = jobs === this.#light ? [] : this.#light.slice(this.#maxBatch)
        this.#sendBatch(conn, jobs)
      }
    }
  }

  #acquire(): EngineConnection | null {
    let idle = this.#idle.pop()
    // a connection that closed while idle (the engine restarted) is not used again
    while (idle && !idle.reusable) idle = this.#idle.pop()
    if (idle) return idle
    if (this.#all.size >= this.#maxConnections) return null
    const conn = new EngineConnection(this.#path, () => this.#all.delete(conn))
    this.#all.add(conn)
    return conn
  }

  #release(conn: EngineConnection, light: boolean): void {
    if (light) this.#lightInFlight--
    this.#inFlight--
    if (conn.reusable && !this.#closed) this.#idle.push(conn)
    if (this.#paused && this.#inFlight === 0 && this.#drained) {
      const drained = this.#drained
      this.#drained = null
      drained()
    }
    if (this.#solo.length > 0 || this.#light.length > 0) this.#pump()
  }

  /**
   * A connection could not be opened, so nothing was sent: the jobs wait for the engine and are
   * tried again, unless they have waited `reconnectWaitMs` already. True when they will be.
   */
  #retryUnreached(err: Error, jobs: Job[], light: boolean): boolean {
    if (!(err instanceof EngineNotReachedError) || this.#closed) return false
    const now = Date.now()
    if (jobs.some((job) => now - (job.unreachedSince ?? now) >= this.#reconnectWaitMs)) return false
    for (const job of jobs) job.unreachedSince ??= now
    if (light) this.#light.unshift(...jobs)
    else this.#solo.unshift(...jobs)
    if (!this.#unreachable) {
      this.#unreachable = true
      setTimeout(() => {
        this.#unreachable = false
        this.#pump()
      }, RECONNECT_PAUSE_MS)
    }
    return true
  }

  #sendOne(conn: EngineConnection, job: Job, light: boolean): void {
    // the client's own bytes go as they are only when the engine reads exactly the text the node parsed
    const sentRaw = job.raw !== null && isUtf8(job.raw)
    const body = sentRaw ? (job.raw as Buffer) : Buffer.from(requestText(0, job.method, job.params))
    this.#inFlight++
    conn.request(body, this.#maxResponseBytes, (err, response) => {
      const retried = err !== null && this.#retryUnreached(err, [job], light)
      this.#release(conn, light)
      if (retried) return
      if (err) return job.done(err)
      if (sentRaw) return job.done(null, { raw: response as Buffer })
      const object = parseAnswer(response as Buffer) as EngineAnswerObject & { id?: unknown }
      // the node's own request carries id 0: another id is an answer out of step with the request
      if (object.id !== undefined && object.id !== 0) {
        conn.destroy(new Error('answer out of step'))
        return job.done(new EngineUnavailableError('the engine answered another request on this connection'))
      }
      job.done(null, { object })
    })
  }

  #sendBatch(conn: EngineConnection, jobs: Job[]): void {
    let text = '['
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i] as Job
      text += (i === 0 ? '' : ',') + requestText(i, job.method, job.params)
    }
    text += ']'
    this.#inFlight++
    conn.request(Buffer.from(text), this.#maxResponseBytes * jobs.length, (err, response) => {
      const retried = err !== null && this.#retryUnreached(err, jobs, true)
      this.#release(conn, true)
      if (retried) return
      if (err) {
        for (const job of jobs) job.done(err)
        return
      }
      let answers: unknown
      try {
        answers = JSON.parse((response as Buffer).toString('utf8'))
      } catch {
        const bad = new EngineUnavailableError('the engine answered a batch with invalid JSON')
        for (const job of jobs) job.done(bad)
        return
      }
      if (!Array.isArray(answers)) {
        const object = answers as EngineAnswerObject
        for (const job of jobs) job.done(null, { object })
        return
      }
      const byIndex: (EngineAnswerObject | undefined)[] = new Array(jobs.length)
      for (const a of answers as (EngineAnswerObject & { id?: unknown })[]) {
        if (typeof a?.id === 'number' && a.id >= 0 && a.id < jobs.length) byIndex[a.id] = a
      }
      for (let i = 0; i < jobs.length; i++) {
        const object = byIndex[i]
        const job = jobs[i] as Job
        if (object) job.done(null, { object })
        else job.done(new EngineUnavailableError('the engine left a batch entry unanswered'))
      }
    })
  }
}

/** An error answer from the engine, carried to the client unchanged. */
export class EngineRpcError extends Error {
  constructor(readonly answer: unknown) {
    const m = (answer as { message?: unknown })?.message
    super(typeof m === 'string' ? m : 'engine error')
  }
}

function requestText(id: number, method: string, params: unknown): string {
  return `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params ?? [])}}`
}

function parseAnswer(raw: Buffer): EngineAnswerObject {
  try {
    const v = JSON.parse(raw.toString('utf8'))
    if (typeof v === 'object' && v !== null) return v as EngineAnswerObject
  } catch {
    // fall through
  }
  return { error: { code: -32603, message: 'the execution engine answered with invalid JSON' } }
}

type ResponseCallback = (err: Error | null, body?: Buffer) => void

const NEWLINE = 0x0a

/** One connection to the engine's IPC socket; one request at a time, answered by one line. */
class EngineConnection {
  readonly #socket: Socket
  #pending: ResponseCallback | null = null
  #limit = 0
  /** Bytes received for the current answer (kept as a list: a large answer arrives in many chunks). */
  #chunks: Buffer[] = []
  #size = 0
  #dead = false
  /** True once the socket is open: before, nothing written has reached the engine. */
  #connected = false
  /** False once the connection failed or is out of step with its answers. */
  reusable = true

  constructor(path: string, onGone: () => void) {
    this.#socket = connect(path)
    this.#socket.once('connect', () => {
      this.#connected = true
    })
    this.#socket.on('data', (chunk: Buffer) => this.#onData(chunk))
    const gone = (err?: Error) => {
      if (this.#dead) return
      this.#dead = true
      this.reusable = false
      onGone()
      const cb = this.#pending
      this.#pending = null
      const Failure = this.#connected ? EngineUnavailableError : EngineNotReachedError
      cb?.(new Failure(`the execution engine connection failed${err ? `: ${err.message}` : ''}`))
    }
    this.#socket.on('error', gone)
    this.#socket.on('close', () => gone())
  }

  request(body: Buffer, limit: number, cb: ResponseCallback): void {
    if (this.#dead) {
      // nothing is written on a closed connection
      cb(new EngineNotReachedError('the execution engine connection is closed'))
      return
    }
    this.#pending = cb
    this.#limit = limit
    this.#socket.write(body)
  }

  destroy(err: Error): void {
    this.#socket.destroy(err)
  }

  #fail(err: Error): void {
    const cb = this.#pending
    this.#pending = null
    this.reusable = false
    this.#socket.destroy()
    cb?.(err)
  }

  #onData(chunk: Buffer): void {
    const nl = chunk.indexOf(NEWLINE)
    if (nl < 0) {
      this.#chunks.push(chunk)
      this.#size += chunk.length
      // refused before the rest is read into memory
      if (this.#size > this.#limit) this.#fail(new EngineResponseTooBigError(this.#limit))
      return
    }
    const cb = this.#pending
    this.#pending = null
    const piece = chunk.subarray(0, nl)
    const size = this.#size + piece.length
    const body = this.#chunks.length === 0 ? piece : Buffer.concat([...this.#chunks, piece], size)
    this.#chunks = []
    this.#size = 0
    // Anything after the answer's line is an answer nobody asked for: the connection is out of
    // step (a request the engine answered twice) and is not used again.
    if (nl + 1 < chunk.length || !cb) {
      this.reusable = false
      this.#socket.end()
    }
    if (!cb) return
    if (size > this.#limit) {
      cb(new EngineResponseTooBigError(this.#limit))
      return
    }
    cb(null, body)
  }
}
