/**
 * The node's connection to its execution engine (anvil): a pool of keep-alive HTTP/1.1
 * connections on loopback, written for throughput (docs/decisions.md, "Reference node").
 *
 * - A request the node does not need to inspect travels as the client's own bytes, and the
 *   engine's answer comes back as its own bytes (no parse, no re-serialisation).
 * - Light requests that arrive while the engine is busy share one round trip as a JSON-RPC
 *   batch (ids rewritten, answers split and re-addressed): under load this halves the
 *   engine's and the node's work per request. Heavy requests (tracing, logs) always go alone.
 * - Answers larger than --rpc.max-response-size are refused before they are read into memory.
 */
import { connect, type Socket } from 'node:net'

/** What the engine answered for one request: its own bytes, or a parsed answer object. */
export type EngineAnswer = { raw: Buffer; object?: undefined } | { raw?: undefined; object: EngineAnswerObject }
export type EngineAnswerObject = { result?: unknown; error?: unknown }

/** The engine could not be asked (down, refused, closed mid-answer) or answered nonsense. */
export class EngineUnavailableError extends Error {}
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
}

export type EngineClientParameters = {
  /** The engine's HTTP endpoint, e.g. http://127.0.0.1:41234 */
  url: string
  /** Largest answer accepted (bytes). */
  maxResponseBytes: number
  /** Most requests sharing one round trip. */
  maxBatch?: number
  /** Round trips carrying light requests at once (more queue up and are batched). */
  lightConnections?: number
  /** Connections to the engine at most (light + solo). */
  maxConnections?: number
}

export class EngineClient {
  readonly #host: string
  readonly #port: number
  readonly #head: string
  readonly #maxResponseBytes: number
  readonly #maxBatch: number
  readonly #lightConnections: number
  readonly #maxConnections: number
  readonly #idle: EngineConnection[] = []
  readonly #all = new Set<EngineConnection>()
  #light: Job[] = []
  readonly #solo: Job[] = []
  #lightInFlight = 0
  #scheduled = false
  #closed = false

  constructor({
    url,
    maxResponseBytes,
    maxBatch = 100,
    lightConnections = 4,
    maxConnections = 64,
  }: EngineClientParameters) {
    const u = new URL(url)
    this.#host = u.hostname.replace(/^\[|\]$/g, '')
    this.#port = Number(u.port || 80)
    this.#head = `POST ${u.pathname || '/'} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: `
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

  close(): void {
    this.#closed = true
    const err = new EngineUnavailableError('the node is shutting down')
    for (const job of this.#light.splice(0)) job.done(err)
    for (const job of this.#solo.splice(0)) job.done(err)
    for (const conn of this.#all) conn.destroy(err)
  }

  readonly #pump = (): void => {
    this.#scheduled = false
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
    const idle = this.#idle.pop()
    if (idle) return idle
    if (this.#all.size >= this.#maxConnections) return null
    const conn = new EngineConnection(this.#host, this.#port, this.#head, () => this.#all.delete(conn))
    this.#all.add(conn)
    return conn
  }

  #release(conn: EngineConnection, light: boolean): void {
    if (light) this.#lightInFlight--
    if (conn.reusable && !this.#closed) this.#idle.push(conn)
    if (this.#solo.length > 0 || this.#light.length > 0) this.#pump()
  }

  #sendOne(conn: EngineConnection, job: Job, light: boolean): void {
    const body = job.raw ?? Buffer.from(requestText(0, job.method, job.params))
    const sentRaw = job.raw !== null
    conn.request(body, this.#maxResponseBytes, (err, response) => {
      this.#release(conn, light)
      if (err) return job.done(err)
      job.done(null, sentRaw ? { raw: response as Buffer } : { object: parseAnswer(response as Buffer) })
    })
  }

  #sendBatch(conn: EngineConnection, jobs: Job[]): void {
    let text = '['
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i] as Job
      text += (i === 0 ? '' : ',') + requestText(i, job.method, job.params)
    }
    text += ']'
    conn.request(Buffer.from(text), this.#maxResponseBytes * jobs.length, (err, response) => {
      this.#release(conn, true)
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

const CRLFCRLF = Buffer.from('\r\n\r\n')

/** One keep-alive HTTP/1.1 connection; one request at a time. */
class EngineConnection {
  readonly #socket: Socket
  readonly #head: string
  #pending: ResponseCallback | null = null
  #limit = 0
  /** Bytes received for the current answer (kept as a list: a large answer arrives in many chunks). */
  #chunks: Buffer[] = []
  #size = 0
  /** Parsed head of the current answer, once complete. */
  #answer: { status: number; bodyStart: number; length: number | null; close: boolean } | null = null
  #dead = false
  /** False once the engine asked to close or the connection failed. */
  reusable = true

  constructor(host: string, port: number, head: string, onGone: () => void) {
    this.#head = head
    this.#socket = connect({ host, port })
    this.#socket.setNoDelay(true)
    this.#socket.on('data', (chunk: Buffer) => this.#onData(chunk))
    const gone = (err?: Error) => {
      if (this.#dead) return
      this.#dead = true
      this.reusable = false
      onGone()
      const cb = this.#pending
      this.#pending = null
      cb?.(new EngineUnavailableError(`the execution engine connection failed${err ? `: ${err.message}` : ''}`))
    }
    this.#socket.on('error', gone)
    this.#socket.on('close', () => gone())
  }

  request(body: Buffer, limit: number, cb: ResponseCallback): void {
    if (this.#dead) {
      cb(new EngineUnavailableError('the execution engine connection is closed'))
      return
    }
    this.#pending = cb
    this.#limit = limit
    const head = Buffer.from(`${this.#head}${body.length}\r\n\r\n`, 'latin1')
    if (body.length <= 16 * 1024) {
      // one small write is cheaper than a vectored one
      this.#socket.write(Buffer.concat([head, body], head.length + body.length))
      return
    }
    this.#socket.cork()
    this.#socket.write(head)
    this.#socket.write(body)
    this.#socket.uncork()
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
    this.#chunks.push(chunk)
    this.#size += chunk.length
    if (!this.#answer) {
      const buf = this.#chunks.length === 1 ? chunk : Buffer.concat(this.#chunks, this.#size)
      this.#chunks = [buf]
      const headEnd = buf.indexOf(CRLFCRLF)
      if (headEnd < 0) {
        if (buf.length > 64 * 1024) this.#fail(new EngineUnavailableError('the engine sent an oversized HTTP header'))
        return
      }
      const head = buf.toString('latin1', 0, headEnd).toLowerCase()
      const cl = headerValue(head, 'content-length')
      let length: number | null = null
      if (cl !== null) {
        length = Number.parseInt(cl, 10)
        if (!Number.isFinite(length) || length < 0) {
          this.#fail(new EngineUnavailableError('bad Content-Length from the engine'))
          return
        }
        if (length > this.#limit) {
          this.#fail(new EngineResponseTooBigError(this.#limit))
          return
        }
      } else if (!headerValue(head, 'transfer-encoding')?.includes('chunked')) {
        this.#fail(new EngineUnavailableError('the engine answered without a body length'))
        return
      }
      this.#answer = {
        status: Number.parseInt(head.slice(9, 12), 10),
        bodyStart: headEnd + 4,
        length,
        close: headerValue(head, 'connection') === 'close',
      }
    }
    const answer = this.#answer
    let body: Buffer
    let end: number
    if (answer.length !== null) {
      end = answer.bodyStart + answer.length
      if (this.#size < end) return
      const buf = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks, this.#size)
      body = buf.subarray(answer.bodyStart, end)
      this.#chunks = end < buf.length ? [buf.subarray(end)] : []
    } else {
      const buf = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks, this.#size)
      this.#chunks = [buf]
      const decoded = decodeChunked(buf, answer.bodyStart, this.#limit)
      if (decoded === 'too-big') {
        this.#fail(new EngineResponseTooBigError(this.#limit))
        return
      }
      if (decoded === 'bad') {
        this.#fail(new EngineUnavailableError('bad chunked body from the engine'))
        return
      }
      if (decoded === null) return
      body = decoded.body
      end = decoded.end
      this.#chunks = end < buf.length ? [buf.subarray(end)] : []
    }
    this.#size = this.#chunks.length ? (this.#chunks[0] as Buffer).length : 0
    this.#answer = null
    if (answer.close) this.reusable = false
    const cb = this.#pending
    this.#pending = null
    if (!this.reusable) this.#socket.end()
    if (!cb) return
    // The engine answers JSON-RPC errors with 200; another status with a JSON body is passed on too.
    if (answer.status !== 200 && !(body.length > 0 && (body[0] === 0x7b || body[0] === 0x5b))) {
      cb(new EngineUnavailableError(`the engine answered HTTP ${answer.status}`))
      return
    }
    cb(null, body)
  }
}

function headerValue(head: string, name: string): string | null {
  const at = head.indexOf(`\r\n${name}:`)
  if (at < 0) return null
  const start = at + name.length + 3
  const end = head.indexOf('\r\n', start)
  return head.slice(start, end < 0 ? undefined : end).trim()
}

/** Decodes a complete chunked body starting at `start`; null while incomplete. */
function decodeChunked(
  buf: Buffer,
  start: number,
  limit: number,
): { body: Buffer; end: number } | null | 'too-big' | 'bad' {
  const parts: Buffer[] = []
  let total = 0
  let at = start
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at)
    if (lineEnd < 0) return null
    const size = Number.parseInt(buf.toString('latin1', at, lineEnd).split(';')[0] as string, 16)
    if (!Number.isFinite(size) || size < 0) return 'bad'
    if (size === 0) {
      const trailerEnd = buf.indexOf(CRLFCRLF, lineEnd)
      return trailerEnd < 0 ? null : { body: Buffer.concat(parts, total), end: trailerEnd + 4 }
    }
    total += size
    if (total > limit) return 'too-big'
    const dataStart = lineEnd + 2
    if (buf.length < dataStart + size + 2) return null
    parts.push(buf.subarray(dataStart, dataStart + size))
    at = dataStart + size + 2
  }
}
