/**
 * JSON-RPC to the engine (anvil) over its IPC socket, the only way the engine is reached
 * (./engine-isolation.ts): one Unix-socket connection carries every request of the client at
 * once, each under an id of its own, so answers may come back in any order. anvil writes each
 * answer as one line of compact JSON (serde never emits a raw newline inside a value), so an
 * answer ends at the next newline. `engineTransport` makes it a viem transport.
 */
import { connect, type Socket } from 'node:net'
import { custom, type EIP1193RequestFn } from 'viem'

/** An error answer of the engine: `code`, `message` and `data` as the engine gave them (viem reads them). */
export class EngineCallError extends Error {
  readonly code: number
  readonly data: unknown
  constructor(error: { code?: unknown; message?: unknown; data?: unknown }) {
    super(typeof error?.message === 'string' ? error.message : 'engine error')
    this.code = typeof error?.code === 'number' ? error.code : -32603
    this.data = error?.data
  }
}

/** The engine's socket could not be used (not there, closed, or an answer that is not JSON). */
export class EngineConnectionError extends Error {}

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void }

const NEWLINE = 0x0a

/** Newline-delimited messages out of a byte stream (anvil's IPC framing), for both engine clients. */
export class LineReader {
  #chunks: Buffer[] = []
  /** Calls `onLine` for every complete, non-empty line in `chunk`; keeps the rest for the next one. */
  push(chunk: Buffer, onLine: (line: Buffer) => void): void {
    let start = 0
    for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl)
      start = nl + 1
      const line = this.#chunks.length === 0 ? piece : Buffer.concat([...this.#chunks, piece])
      this.#chunks = []
      if (line.length > 0) onLine(line)
    }
    if (start < chunk.length) this.#chunks.push(chunk.subarray(start))
  }
  /** Drops a partial line (the connection it came from is gone). */
  reset(): void {
    this.#chunks = []
  }
}

export type EngineRpcOptions = {
  /**
   * How long a request waits for a socket that is not there or refuses (the engine restarting
   * for a compaction, ./engine-compaction.ts), ms; 0 (default): it fails at once.
   */
  reconnectWaitMs?: number
}

export class EngineRpc {
  readonly path: string
  readonly #reconnectWaitMs: number
  #socket: Socket | null = null
  readonly #dropped = new WeakSet<Socket>()
  #opening: Promise<Socket> | null = null
  readonly #pending = new Map<number, Pending>()
  #nextId = 1
  readonly #lines = new LineReader()
  #closed = false

  constructor(path: string, { reconnectWaitMs = 0 }: EngineRpcOptions = {}) {
    this.path = path
    this.#reconnectWaitMs = reconnectWaitMs
  }

  /** Calls `method`; resolves to its result, rejects with EngineCallError for an error answer. */
  async request(method: string, params: unknown = []): Promise<unknown> {
    const socket = await this.#connectWaiting()
    return new Promise((resolve, reject) => {
      const id = this.#nextId++
      this.#pending.set(id, { resolve, reject })
      socket.write(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`)
    })
  }

  /** Drops the connection (the engine is about to restart); the next request opens a new one. */
  disconnect(): void {
    if (!this.#socket) return
    this.#dropped.add(this.#socket)
    this.#socket.destroy()
    this.#socket = null
    this.#lines.reset()
    this.#fail(new EngineConnectionError('the engine connection was dropped for a restart'))
  }

  async #connectWaiting(): Promise<Socket> {
    const deadline = Date.now() + this.#reconnectWaitMs
    for (;;) {
      try {
        return await this.#connect()
      } catch (err) {
        if (this.#closed || Date.now() >= deadline) throw err
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  }

  close(): void {
    this.#closed = true
    this.#socket?.destroy()
    this.#socket = null
    this.#fail(new EngineConnectionError('the engine connection was closed'))
  }

  #connect(): Promise<Socket> {
    if (this.#closed) return Promise.reject(new EngineConnectionError('the engine connection was closed'))
    if (this.#socket) return Promise.resolve(this.#socket)
    this.#opening ??= new Promise<Socket>((resolve, reject) => {
      const socket = connect(this.path)
      socket.once('connect', () => {
        this.#socket = socket
        this.#opening = null
        resolve(socket)
      })
      socket.on('data', (chunk: Buffer) => this.#lines.push(chunk, (line) => this.#onLine(line)))
      socket.on('error', (err) => {
        this.#opening = null
        reject(new EngineConnectionError(`cannot reach the engine at ${this.path}: ${err.message}`))
      })
      socket.on('close', () => {
        // a connection dropped by disconnect() is no longer this client's
        if (this.#dropped.has(socket)) return
        this.#socket = null
        this.#opening = null
        this.#lines.reset()
        this.#fail(new EngineConnectionError('the engine closed the connection'))
      })
    })
    return this.#opening
  }

  #onLine(line: Buffer): void {
    let answer: { id?: unknown; result?: unknown; error?: unknown }
    try {
      answer = JSON.parse(line.toString('utf8'))
    } catch {
      this.#socket?.destroy(new Error('the engine answered with invalid JSON'))
      return
    }
    if (typeof answer?.id !== 'number') return
    const pending = this.#pending.get(answer.id)
    if (!pending) return
    this.#pending.delete(answer.id)
    if (answer.error !== undefined && answer.error !== null) pending.reject(new EngineCallError(answer.error as object))
    else pending.resolve(answer.result ?? null)
  }

  #fail(err: Error): void {
    for (const p of this.#pending.values()) p.reject(err)
    this.#pending.clear()
  }
}

/**
 * A viem transport over the engine's IPC socket.
 * @example createPublicClient({ transport: engineTransport(new EngineRpc(ipcPath)) })
 */
export function engineTransport(rpc: EngineRpc) {
  const request = (({ method, params }: { method: string; params?: unknown }) =>
    rpc.request(method, params ?? [])) as EIP1193RequestFn
  return custom({ request }, { retryCount: 0 })
}

/**
 * One call on a connection of its own, closed afterwards (for an engine about to be stopped).
 * @example const state = await engineCallOnce(ipcPath, 'anvil_dumpState')
 */
export async function engineCallOnce(path: string, method: string, params: unknown[] = []): Promise<unknown> {
  const rpc = new EngineRpc(path)
  try {
    return await rpc.request(method, params)
  } finally {
    rpc.close()
  }
}
