/**
 * eth_subscribe / eth_unsubscribe for one client connection (WebSocket or IPC), relayed to
 * the engine over a WebSocket of its own, opened at the first subscription and closed with
 * the client's connection (so the engine drops the client's subscriptions with it).
 * Notifications are passed to the client as the engine's own text.
 */
import WebSocket from 'ws'
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
  engineWsUrl: string
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
  #socket: WebSocket | null = null
  #open: Promise<WebSocket> | null = null
  readonly #pending = new Map<number, Pending>()
  readonly #active = new Set<string>()
  #nextId = 1
  #closed = false

  constructor(params: EngineSubscriptionsParameters) {
    this.#p = params
  }

  async request(req: RpcRequest): Promise<string> {
    const params = Array.isArray(req.params) ? req.params : []
    if (req.method === 'eth_unsubscribe' && !this.#open) return resultResponse(req.id, false)
    if (req.method === 'eth_subscribe' && this.#active.size >= this.#p.maxSubscriptions) {
      return errorResponse(
        req.id,
        TOO_MANY_SUBSCRIPTIONS,
        'Too many subscriptions on the connection',
        `at most ${this.#p.maxSubscriptions} (--rpc.max-subscriptions-per-connection)`,
      )
    }
    const socket = await this.#connect()
    return new Promise((resolve) => {
      const id = this.#nextId++
      const unsubscribes = req.method === 'eth_unsubscribe' && typeof params[0] === 'string' ? params[0] : null
      this.#pending.set(id, { clientId: req.id, method: req.method, unsubscribes, resolve })
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method: req.method, params }))
    })
  }

  close(): void {
    this.#closed = true
    this.#socket?.terminate()
    this.#socket = null
    this.#failPending('the connection closed')
  }

  #connect(): Promise<WebSocket> {
    if (this.#closed) return Promise.reject(new EngineUnavailableError('the connection is closed'))
    this.#open ??= new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(this.#p.engineWsUrl, { perMessageDeflate: false })
      socket.on('open', () => {
        this.#socket = socket
        resolve(socket)
      })
      socket.on('message', (data: Buffer) => this.#onMessage(data.toString('utf8')))
      socket.on('error', (err) => {
        reject(new EngineUnavailableError(`cannot reach the engine's WebSocket: ${err.message}`))
      })
      socket.on('close', () => {
        this.#socket = null
        this.#open = null
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
    if (answer.error === undefined && pending.method === 'eth_subscribe' && typeof answer.result === 'string') {
      this.#active.add(answer.result)
    }
    if (pending.unsubscribes !== null && answer.result === true) this.#active.delete(pending.unsubscribes)
    pending.resolve(engineAnswerResponse(pending.clientId, answer))
  }

  #failPending(reason: string): void {
    for (const p of this.#pending.values()) {
      p.resolve(
        errorResponse(p.clientId, ErrorCode.InternalError, 'Internal error', `execution engine unavailable: ${reason}`),
      )
    }
    this.#pending.clear()
  }
}
