/**
 * eth_subscribe / eth_unsubscribe for one client connection (WebSocket or IPC), relayed to
 * the engine over a connection of its own to the engine's IPC socket, opened at the first
 * subscription and closed with the client's connection (so the engine drops the client's
 * subscriptions with it). Notifications are passed to the client as the engine's own text.
 *
 * The limit (--rpc.max-subscriptions-per-connection) is counted here, before anything is
 * forwarded: subscriptions the engine has confirmed plus those still on their way, so a client
 * that sends many eth_subscribe at once (pipelined) gets no more than the limit.
 */
import { connect, type Socket } from 'node:net'
import { LineReader } from '../chain/engine-rpc.js'
import type { SubscriptionChannel } from './dispatch.js'
import { EngineUnavailableError } from './engine-client.js'
import {
  ErrorCode,
  engineAnswerResponse,
  errorResponse,
  type RpcId,
  type RpcRequest,
  resultResponse,
} from './jsonrpc.js'

/** jsonrpsee's code for "Too many subscriptions on the connection". */
const TOO_MANY_SUBSCRIPTIONS = -32006

export type EngineSubscriptionsParameters = {
  /** The engine's IPC socket. */
  engineIpcPath: string
  /** Delivers a notification (the engine's text) to the client. */
  notify: (text: string) => void
  /** The engine's socket closed while the client was subscribed: the client must be told. */
  onLost: (reason: string) => void
  maxSubscriptions: number
}

type Pending = {
  clientId: RpcId | undefined
  method: string
  /** The subscription an eth_unsubscribe names. */
  unsubscribes: string | null
  resolve: (answer: string) => void
}

export class EngineSubscriptions implements SubscriptionChannel {
  readonly #p: EngineSubscriptionsParameters
  #socket: Socket | null = null
  #open: Promise<Socket> | null = null
  readonly #pending = new Map<number, Pending>()
  readonly #active = new Set<string>()
  /** eth_subscribe calls forwarded and not answered yet (they count against the limit). */
  #subscribing = 0
  readonly #lines = new LineReader()
  #nextId = 1
  #closed = false

  constructor(params: EngineSubscriptionsParameters) {
    this.#p = params
  }

  async request(req: RpcRequest): Promise<string> {
    const params = Array.isArray(req.params) ? req.params : []
    if (req.method === 'eth_unsubscribe' && !this.#open) return resultResponse(req.id, false)
    const subscribing = req.method === 'eth_subscribe'
    if (subscribing && this.#active.size + this.#subscribing >= this.#p.maxSubscriptions) {
      return errorResponse(
        req.id,
        TOO_MANY_SUBSCRIPTIONS,
        'Too many subscriptions on the connection',
        `at most ${this.#p.maxSubscriptions} (--rpc.max-subscriptions-per-connection)`,
      )
    }
    if (subscribing) this.#subscribing++
    let socket: Socket
    try {
      socket = await this.#connect()
    } catch (err) {
      if (subscribing) this.#subscribing--
      throw err
    }
    return new Promise((resolve) => {
      const id = this.#nextId++
      const unsubscribes = req.method === 'eth_unsubscribe' && typeof params[0] === 'string' ? params[0] : null
      this.#pending.set(id, { clientId: req.id, method: req.method, unsubscribes, resolve })
      socket.write(JSON.stringify({ jsonrpc: '2.0', id, method: req.method, params }))
    })
  }

  /** Subscriptions the engine holds for this connection. */
  get active(): number {
    return this.#active.size
  }

  close(): void {
    this.#closed = true
    this.#socket?.destroy()
    this.#socket = null
    this.#failPending('the connection closed')
  }

  #connect(): Promise<Socket> {
    if (this.#closed) return Promise.reject(new EngineUnavailableError('the connection is closed'))
    this.#open ??= new Promise<Socket>((resolve, reject) => {
      const socket = connect(this.#p.engineIpcPath)
      socket.on('connect', () => {
        this.#socket = socket
        resolve(socket)
      })
      socket.on('data', (chunk: Buffer) => this.#lines.push(chunk, (line) => this.#onMessage(line.toString('utf8'))))
      socket.on('error', (err) => {
        reject(new EngineUnavailableError(`cannot reach the engine: ${err.message}`))
      })
      socket.on('close', () => {
        this.#socket = null
        this.#open = null
        this.#lines.reset()
        this.#failPending('the engine closed the subscription connection')
        if (!this.#closed && this.#active.size > 0) {
          this.#active.clear()
          this.#p.onLost('the execution engine closed its subscription connection')
        }
      })
    })
    return this.#open
  }

  #onMessage(text: string): void {
    if (text.includes('"eth_subscription"')) {
      this.#p.notify(text)
      return
    }
    let answer: { id?: unknown; result?: unknown; error?: unknown }
    try {
      answer = JSON.parse(text)
    } catch {
      return
    }
    if (typeof answer.id !== 'number') return
    const pending = this.#pending.get(answer.id)
    if (!pending) return
    this.#pending.delete(answer.id)
    if (pending.method === 'eth_subscribe') {
      this.#subscribing--
      if (answer.error === undefined && typeof answer.result === 'string') this.#active.add(answer.result)
    }
    if (pending.unsubscribes !== null && answer.result === true) this.#active.delete(pending.unsubscribes)
    pending.resolve(engineAnswerResponse(pending.clientId, answer))
  }

  #failPending(reason: string): void {
    this.#subscribing = 0
    for (const p of this.#pending.values()) {
      p.resolve(
        errorResponse(p.clientId, ErrorCode.InternalError, 'Internal error', `execution engine unavailable: ${reason}`),
      )
    }
    this.#pending.clear()
  }
}
