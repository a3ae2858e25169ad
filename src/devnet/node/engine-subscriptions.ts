/**
 * eth_subscribe / eth_unsubscribe for one client connection (WebSocket or IPC), relayed to
 * the engine over a connection of its own to the engine's IPC socket, opened at the first
 * subscription and closed with the client's connection (so the engine drops the client's
 * subscriptions with it).
 *
 * The engine may be restarted on purpose under the node (a compaction,
 * src/devnet/chain/engine-compaction.ts), announced through `EngineSwap`. When the engine's
 * connection closes during one, the subscriptions are restored once the new engine is up: the
 * connection is opened again and every active eth_subscribe is sent again with its params. The
 * client keeps the subscription ids it was given: notifications from the new engine carry them
 * (`params.subscription` rewritten), and eth_unsubscribe with them goes to the new engine's ids.
 * Notifications go on with the first block the new engine makes (no block is made during a
 * compaction). An engine connection that closes at any other time, or a restoration that fails,
 * ends the client's connection (`onLost`): its subscriptions are gone.
 *
 * The limit (--rpc.max-subscriptions-per-connection) is counted here, before anything is
 * forwarded: subscriptions the engine has confirmed plus those still on their way, so a client
 * that sends many eth_subscribe at once (pipelined) gets no more than the limit.
 */
import { connect, type Socket } from 'node:net'
import { LineReader } from '../chain/engine-rpc.js'
import type { SubscriptionChannel } from './dispatch.js'
import { EngineUnavailableError } from './engine-client.js'
import { ErrorCode, engineAnswerResponse, errorResponse, type RpcRequest, resultResponse } from './jsonrpc.js'

/** jsonrpsee's code for "Too many subscriptions on the connection". */
const TOO_MANY_SUBSCRIPTIONS = -32006

/** How long the end of a planned restart waits for the subscriptions to be restored on the new engine. */
const RESTORE_WAIT_MS = 10_000

/**
 * Whether the engine is being restarted on purpose (the devnet's compaction): the node's whole
 * gateway shares one. `begin` before the engine is stopped, `end` once the new one is up (or
 * the restart failed); `end` settles once the subscriptions are back on the new engine (or
 * ended), so nothing the node sends the engine after it makes a block a subscriber misses.
 */
export class EngineSwap {
  #done: Promise<void> | null = null
  #end: (() => void) | null = null
  readonly #restorations = new Set<Promise<void>>()

  get underway(): boolean {
    return this.#done !== null
  }

  begin(): void {
    if (this.#done) return
    this.#done = new Promise((resolve) => {
      this.#end = resolve
    })
  }

  async end(): Promise<void> {
    const end = this.#end
    this.#done = null
    this.#end = null
    end?.()
    const restorations = [...this.#restorations]
    if (restorations.length === 0) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.all(restorations),
      new Promise((resolve) => {
        timer = setTimeout(resolve, RESTORE_WAIT_MS)
      }),
    ])
    clearTimeout(timer)
  }

  /** Settles once no restart is under way. */
  settled(): Promise<void> {
    return this.#done ?? Promise.resolve()
  }

  /** A connection's subscriptions being restored (`end` waits for it). */
  restoring(restoration: Promise<void>): void {
    this.#restorations.add(restoration)
    void restoration.finally(() => this.#restorations.delete(restoration))
  }
}

export type EngineSubscriptionsParameters = {
  /** The engine's IPC socket. */
  engineIpcPath: string
  /** Planned engine restarts (subscriptions are restored across them). */
  swap: EngineSwap
  /** Delivers a notification to the client. */
  notify: (text: string) => void
  /** The engine's socket closed while the client was subscribed: the client must be told. */
  onLost: (reason: string) => void
  maxSubscriptions: number
}

type EngineAnswerObject = { result?: unknown; error?: unknown }

type Pending = { resolve: (answer: EngineAnswerObject) => void }

/** One subscription the client holds. */
type Subscription = {
  /** The eth_subscribe params it was made with. */
  params: unknown[]
  /** Its id on the engine running now (the client's id until the engine is restarted). */
  engineId: string
}

export class EngineSubscriptions implements SubscriptionChannel {
  readonly #p: EngineSubscriptionsParameters
  #socket: Socket | null = null
  #open: Promise<Socket> | null = null
  readonly #pending = new Map<number, Pending>()
  /** The client's subscriptions, by the id the client holds. */
  readonly #subs = new Map<string, Subscription>()
  /** The client's id of each engine subscription whose id differs from it (after a restart). */
  readonly #clientIdOf = new Map<string, string>()
  /** Settles once the subscriptions are restored after an engine restart. */
  #restoring: Promise<void> | null = null
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
    // a request during an engine restart waits for the new engine, as the node's other requests do
    await this.#p.swap.settled()
    await this.#restoring
    if (req.method === 'eth_unsubscribe' && !this.#open) return resultResponse(req.id, false)
    const subscribing = req.method === 'eth_subscribe'
    if (subscribing && this.#subs.size + this.#subscribing >= this.#p.maxSubscriptions) {
      return errorResponse(
        req.id,
        TOO_MANY_SUBSCRIPTIONS,
        'Too many subscriptions on the connection',
        `at most ${this.#p.maxSubscriptions} (--rpc.max-subscriptions-per-connection)`,
      )
    }
    if (subscribing) this.#subscribing++
    let answer: EngineAnswerObject
    try {
      if (req.method === 'eth_unsubscribe' && typeof params[0] === 'string') {
        const clientId = params[0]
        const sub = this.#subs.get(clientId)
        answer = await this.#call('eth_unsubscribe', sub ? [sub.engineId, ...params.slice(1)] : params)
        if (sub && answer.result === true) {
          this.#subs.delete(clientId)
          this.#clientIdOf.delete(sub.engineId)
        }
      } else {
        answer = await this.#call(req.method, params)
        if (subscribing && answer.error === undefined && typeof answer.result === 'string')
          this.#subs.set(answer.result, { params, engineId: answer.result })
      }
    } finally {
      if (subscribing) this.#subscribing--
    }
    return engineAnswerResponse(req.id, answer)
  }

  /** Subscriptions the engine holds for this connection. */
  get active(): number {
    return this.#subs.size
  }

  close(): void {
    this.#closed = true
    this.#socket?.destroy()
    this.#socket = null
    this.#failPending('the connection closed')
  }

  /** Sends one request on the engine connection (opened if need be) and waits for its answer. */
  /**
   * Sends one request on the engine connection (opened if need be) and waits for its answer.
   * `onAnswer` runs as the answer is read, before the engine's next line (a notification under
   * a subscription id it has just given) is.
   */
  async #call(
    method: string,
    params: unknown[],
    onAnswer?: (answer: EngineAnswerObject) => void,
  ): Promise<EngineAnswerObject> {
    const socket = await this.#connect()
    return new Promise((resolve) => {
      const id = this.#nextId++
      this.#pending.set(id, {
        resolve: (answer) => {
          onAnswer?.(answer)
          resolve(answer)
        },
      })
      socket.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    })
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
        if (this.#closed || this.#subs.size === 0 || this.#restoring) return
        if (this.#p.swap.underway) {
          const restoration = this.#restore().finally(() => {
            this.#restoring = null
          })
          this.#restoring = restoration
          this.#p.swap.restoring(restoration)
        } else {
          this.#lost('the execution engine closed its subscription connection')
        }
      })
    })
    return this.#open
  }

  /** After a planned engine restart: the same subscriptions on the new engine, under the client's ids. */
  async #restore(): Promise<void> {
    await this.#p.swap.settled()
    try {
      for (const [clientId, sub] of this.#subs) {
        if (this.#closed) return
        const answer = await this.#call('eth_subscribe', sub.params, ({ error, result }) => {
          if (error !== undefined || typeof result !== 'string') return
          this.#clientIdOf.delete(sub.engineId)
          sub.engineId = result
          if (result !== clientId) this.#clientIdOf.set(result, clientId)
        })
        if (answer.error !== undefined || typeof answer.result !== 'string')
          throw new EngineUnavailableError('the restarted engine refused a subscription')
      }
    } catch (err) {
      if (this.#closed) return
      this.#lost(
        `the execution engine restarted and the subscriptions could not be restored: ${(err as Error).message}`,
      )
    }
  }

  #lost(reason: string): void {
    if (this.#subs.size === 0) return
    this.#subs.clear()
    this.#clientIdOf.clear()
    this.#p.onLost(reason)
  }

  #onMessage(text: string): void {
    if (text.includes('"eth_subscription"')) {
      this.#p.notify(this.#clientIdOf.size === 0 ? text : this.#readdress(text))
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
    pending.resolve(answer)
  }

  /** A notification under the subscription id the client holds. */
  #readdress(text: string): string {
    let note: { params?: { subscription?: unknown } }
    try {
      note = JSON.parse(text)
    } catch {
      return text
    }
    const engineId = note.params?.subscription
    const clientId = typeof engineId === 'string' ? this.#clientIdOf.get(engineId) : undefined
    if (clientId === undefined || !note.params) return text
    note.params.subscription = clientId
    return JSON.stringify(note)
  }

  #failPending(reason: string): void {
    for (const p of this.#pending.values()) {
      p.resolve({
        error: {
          code: ErrorCode.InternalError,
          message: 'Internal error',
          data: `execution engine unavailable: ${reason}`,
        },
      })
    }
    this.#pending.clear()
  }
}
