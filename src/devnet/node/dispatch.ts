/**
 * Answers JSON-RPC requests for one transport connection: validation (-32700, -32600),
 * the namespace rule (-32601 `Method not found` for a namespace the transport does not serve
 * and for every method the node does not have, the engine's own included), the limits, the
 * tracing semaphore, the node's own answers, and the relay to the engine.
 */
import type { Namespace, RpcLimits } from '../../lib/rpc/types.js'
import {
  EngineResponseTooBigError,
  EngineRpcError,
  EngineUnavailableError,
  type EngineAnswer,
  type EngineClient,
} from './engine-client.js'
import {
  engineAnswerResponse,
  ErrorCode,
  errorResponse,
  INVALID_REQUEST_RESPONSE,
  isRelayableId,
  PARSE_ERROR_RESPONSE,
  RpcAnswerError,
  type RpcId,
  type RpcRequest,
  resultResponse,
  validateRequest,
} from './jsonrpc.js'
import {
  capCallGas,
  checkFilterRange,
  checkLogCount,
  checkTraceFilterRange,
  filterRange,
  isGasCappedMethod,
} from './limits.js'
import { type MethodRoute, routeOf } from './methods.js'
import type { Semaphore } from './semaphore.js'
import type { TnMethods } from './tn-methods.js'

/** A connection's way to the engine's subscriptions (WebSocket and IPC only). */
export interface SubscriptionChannel {
  request(req: RpcRequest): Promise<string>
}

/** What a request needs to know about the connection it came on. */
export type ConnectionContext = {
  transport: 'http' | 'ws' | 'ipc'
  served: ReadonlySet<Namespace>
  /** JSON text of the `rpc_modules` result here, or null where `rpc` is not served. */
  rpcModules: string | null
  subscriptions: SubscriptionChannel | null
  /** True once the client has gone (its queued work is skipped). */
  gone: () => boolean
}

export type DispatcherServices = {
  engine: EngineClient
  tracing: Semaphore
  limits: RpcLimits
  tn: TnMethods
  clientVersion: string
  /** The engine's default call gas (its block gas limit), when known. */
  engineCallGas: bigint | null
}

export type Answer = string | Buffer

export class Dispatcher {
  readonly #s: DispatcherServices
  readonly #gasCap: bigint
  readonly #maxResponseBytes: number
  /** Log filters made through this node: id -> criteria (for the range and size limits). */
  readonly #logFilters = new Map<string, unknown>()

  constructor(services: DispatcherServices) {
    this.#s = services
    this.#gasCap = BigInt(services.limits.gasCap)
    this.#maxResponseBytes = services.limits.maxResponseSizeMb * 1024 * 1024
  }

  /** Answers one message (a request or a batch); null when nothing is to be sent (notifications). */
  async handle(body: Buffer | string, ctx: ConnectionContext): Promise<Answer | null> {
    let value: unknown
    try {
      value = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'))
    } catch {
      return PARSE_ERROR_RESPONSE
    }
    if (!Array.isArray(value)) return this.#one(value, ctx, typeof body === 'string' ? null : body)
    if (value.length === 0) return INVALID_REQUEST_RESPONSE
    const answers = await Promise.all(value.map((v) => this.#one(v, ctx, null)))
    const parts: string[] = []
    let size = 2
    for (const a of answers) {
      if (a === null) continue
      const text = typeof a === 'string' ? a : a.toString('utf8')
      size += text.length + 1
      parts.push(text)
    }
    if (parts.length === 0) return null
    if (size > this.#maxResponseBytes) return this.#tooBig(null)
    return `[${parts.join(',')}]`
  }

  async #one(value: unknown, ctx: ConnectionContext, raw: Buffer | null): Promise<Answer | null> {
    const req = validateRequest(value)
    if (typeof req === 'string') return req
    const route = routeOf(req.method)
    const notification = req.id === undefined
    if (!route || !ctx.served.has(route.namespace)) {
      return notification ? null : errorResponse(req.id, ErrorCode.MethodNotFound, 'Method not found')
    }
    let answer: Answer
    try {
      answer = await this.#execute(req, route, ctx, isRelayableId(req.id) ? raw : null)
    } catch (err) {
      answer = this.#errorAnswer(req.id, err)
    }
    if (notification) return null
    if (typeof answer === 'string' && answer.length > this.#maxResponseBytes) return this.#tooBig(req.id)
    return answer
  }

  #tooBig(id: RpcId | undefined): string {
    return errorResponse(
      id,
      ErrorCode.OversizedResponse,
      'Response is too big',
      `the answer exceeds --rpc.max-response-size (${this.#s.limits.maxResponseSizeMb} MB)`,
    )
  }

  #errorAnswer(id: RpcId | undefined, err: unknown): string {
    if (err instanceof RpcAnswerError) return errorResponse(id, err.code, err.message, err.data)
    if (err instanceof EngineRpcError) return engineAnswerResponse(id, { error: err.answer })
    if (err instanceof EngineResponseTooBigError) return this.#tooBig(id)
    if (err instanceof EngineUnavailableError) {
      return errorResponse(id, ErrorCode.InternalError, 'Internal error', `execution engine unavailable: ${err.message}`)
    }
    return errorResponse(id, ErrorCode.InternalError, 'Internal error')
  }

  #respond(id: RpcId | undefined, answer: EngineAnswer): Answer {
    return answer.raw ?? engineAnswerResponse(id, answer.object)
  }

  async #execute(req: RpcRequest, route: MethodRoute, ctx: ConnectionContext, raw: Buffer | null): Promise<Answer> {
    const { engine } = this.#s
    const { method, id } = req
    const params = req.params ?? []
    switch (route.kind) {
      case 'relay':
        return this.#respond(id, await engine.send(method, params, raw, true))
      case 'relaySolo':
        return this.#respond(id, await engine.send(method, params, raw, false))
      case 'gasCapped': {
        const capped = capCallGas(method, params, this.#gasCap, this.#s.engineCallGas)
        const light = method === 'eth_call' || method === 'eth_estimateGas'
        return this.#respond(id, await engine.send(method, capped ?? params, capped ? null : raw, light))
      }
      case 'tracing':
        return this.#tracing(req, ctx, raw)
      case 'getLogs': {
        const range = await filterRange(Array.isArray(params) ? params[0] : undefined, this.#head)
        checkFilterRange(range, this.#s.limits.maxBlocksPerFilter)
        const logs = await engine.call(method, params as unknown[], false)
        checkLogCount(logs, this.#s.limits.maxLogsPerResponse, range)
        return resultResponse(id, logs)
      }
      case 'newFilter': {
        const criteria = Array.isArray(params) ? params[0] : undefined
        const explicit = typeof criteria === 'object' && criteria !== null
        if (explicit) checkFilterRange(await filterRange(criteria, this.#head), this.#s.limits.maxBlocksPerFilter)
        const filterId = await engine.call(method, params as unknown[])
        if (typeof filterId === 'string') this.#logFilters.set(filterId.toLowerCase(), criteria)
        return resultResponse(id, filterId)
      }
      case 'getFilterLogs':
      case 'getFilterChanges': {
        const key = Array.isArray(params) && typeof params[0] === 'string' ? params[0].toLowerCase() : ''
        const isLogFilter = this.#logFilters.has(key)
        let range: { from: bigint; to: bigint } | null = null
        if (isLogFilter && route.kind === 'getFilterLogs') {
          range = await filterRange(this.#logFilters.get(key), this.#head)
          checkFilterRange(range, this.#s.limits.maxBlocksPerFilter)
        }
        const result = await engine.call(method, params as unknown[], false)
        if (isLogFilter) checkLogCount(result, this.#s.limits.maxLogsPerResponse, range)
        return resultResponse(id, result)
      }
      case 'uninstallFilter': {
        const result = await engine.call(method, params as unknown[])
        if (Array.isArray(params) && typeof params[0] === 'string') this.#logFilters.delete(params[0].toLowerCase())
        return resultResponse(id, result)
      }
      case 'subscribe':
      case 'unsubscribe':
        if (!ctx.subscriptions) {
          throw new RpcAnswerError(
            ErrorCode.NotificationsUnsupported,
            `notifications not supported: ${method} needs a WebSocket or IPC connection`,
          )
        }
        return ctx.subscriptions.request(req)
      case 'local':
        return this.#local(req, ctx)
    }
  }

  async #tracing(req: RpcRequest, ctx: ConnectionContext, raw: Buffer | null): Promise<Answer> {
    const { method, id } = req
    let params = req.params ?? []
    if (method === 'trace_filter') {
      const range = await filterRange(Array.isArray(params) ? params[0] : undefined, this.#head)
      checkTraceFilterRange(range, this.#s.limits.maxTraceFilterBlocks)
    }
    if (isGasCappedMethod(method)) {
      const capped = capCallGas(method, params, this.#gasCap, this.#s.engineCallGas)
      if (capped) {
        params = capped
        raw = null
      }
    }
    const release = await this.#s.tracing.acquire(ctx.gone)
    try {
      return this.#respond(id, await this.#s.engine.send(method, params, raw, false))
    } finally {
      release()
    }
  }

  readonly #head = async (): Promise<bigint> => BigInt((await this.#s.engine.call('eth_blockNumber', [])) as string)

  async #local(req: RpcRequest, ctx: ConnectionContext): Promise<Answer> {
    const { id, method } = req
    switch (method) {
      case 'rpc_modules':
        if (ctx.rpcModules === null) return errorResponse(id, ErrorCode.MethodNotFound, 'Method not found')
        return `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":${ctx.rpcModules}}`
      case 'eth_syncing':
      case 'eth_mining':
        return resultResponse(id, false)
      case 'eth_accounts':
        return resultResponse(id, [])
      case 'eth_hashrate':
      case 'net_peerCount':
        return resultResponse(id, '0x0')
      case 'net_listening':
        return resultResponse(id, true)
      case 'web3_clientVersion':
        return resultResponse(id, this.#s.clientVersion)
      case 'eth_sendTransaction':
      case 'eth_sign':
      case 'eth_signTransaction':
      case 'eth_signTypedData':
      case 'eth_signTypedData_v4':
        throw new RpcAnswerError(
          ErrorCode.ServerError,
          'unknown account: the node holds no signing keys; sign the transaction yourself and send it with eth_sendRawTransaction',
        )
      default:
        return resultResponse(id, await this.#s.tn.handle(method, Array.isArray(req.params) ? req.params : []))
    }
  }
}
