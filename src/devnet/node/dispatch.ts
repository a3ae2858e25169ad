/**
 * Answers JSON-RPC requests for one transport connection: validation (-32700, -32600),
 * the namespace rule (-32601 `Method not found` for a namespace the transport does not serve
 * and for every method the node does not have, the engine's own included), the limits, the
 * tracing semaphore, the node's own answers, and the relay to the engine.
 */
import type { Namespace, RpcLimits } from '../../lib/rpc/types.js'
import {
  type EngineClient,
  EngineResponseTooBigError,
  EngineRpcError,
  EngineUnavailableError,
} from './engine-client.js'
import {
  ErrorCode,
  engineAnswerResponse,
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
  handle(body: Buffer | string, ctx: ConnectionContext): Promise<Answer | null> {
    let value: unknown
    try {
      value = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'))
    } catch {
      return Promise.resolve(PARSE_ERROR_RESPONSE)
    }
    if (!Array.isArray(value)) return this.#one(value, ctx, typeof body === 'string' ? null : body)
    return this.#batch(value, ctx)
  }

  async #batch(values: unknown[], ctx: ConnectionContext): Promise<Answer | null> {
    if (values.length === 0) return INVALID_REQUEST_RESPONSE
    const answers = await Promise.all(values.map((v) => this.#one(v, ctx, null)))
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

  /** One request. Written without async frames: the relay path costs one promise per request. */
  #one(value: unknown, ctx: ConnectionContext, raw: Buffer | null): Promise<Answer | null> {
    const req = validateRequest(value)
    if (typeof req === 'string') return Promise.resolve(req)
    const route = routeOf(req.method)
    const notification = req.id === undefined
    if (!route || !ctx.served.has(route.namespace)) {
      return Promise.resolve(notification ? null : errorResponse(req.id, ErrorCode.MethodNotFound, 'Method not found'))
    }
    let pending: Promise<Answer>
    try {
      pending = this.#execute(req, route, ctx, isRelayableId(req.id) ? raw : null)
    } catch (err) {
      pending = Promise.reject(err)
    }
    return pending.then(
      (answer) => {
        if (notification) return null
        if (typeof answer === 'string' && answer.length > this.#maxResponseBytes) return this.#tooBig(req.id)
        return answer
      },
      (err: unknown) => (notification ? null : this.#errorAnswer(req.id, err)),
    )
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
      return errorResponse(
        id,
        ErrorCode.InternalError,
        'Internal error',
        `execution engine unavailable: ${err.message}`,
      )
    }
    return errorResponse(id, ErrorCode.InternalError, 'Internal error')
  }

  #execute(req: RpcRequest, route: MethodRoute, ctx: ConnectionContext, raw: Buffer | null): Promise<Answer> {
    const { engine } = this.#s
    const { method, id } = req
    const params = req.params ?? []
    switch (route.kind) {
      case 'relay':
      case 'relaySolo':
        return engine
          .send(method, params, raw, route.kind === 'relay')
          .then((a) => a.raw ?? engineAnswerResponse(id, a.object))
      case 'gasCapped': {
        const capped = capCallGas(method, params, this.#gasCap, this.#s.engineCallGas)
        const light = method === 'eth_call' || method === 'eth_estimateGas'
        return engine
          .send(method, capped ?? params, capped ? null : raw, light)
          .then((a) => a.raw ?? engineAnswerResponse(id, a.object))
      }
      case 'tracing':
        return this.#tracing(req, ctx, raw)
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
      default:
        return this.#filters(req, route)
    }
  }

  /** eth_getLogs and the filter methods, under --rpc.max-blocks-per-filter and --rpc.max-logs-per-response. */
  async #filters(req: RpcRequest, route: MethodRoute): Promise<Answer> {
    const { engine } = this.#s
    const { method, id } = req
    const params = (req.params ?? []) as unknown[]
    switch (route.kind) {
      case 'getLogs': {
        const range = await filterRange(Array.isArray(params) ? params[0] : undefined, this.#head)
        checkFilterRange(range, this.#s.limits.maxBlocksPerFilter)
        const logs = await engine.call(method, params, false)
        checkLogCount(logs, this.#s.limits.maxLogsPerResponse, range)
        return resultResponse(id, logs)
      }
      case 'newFilter': {
        const criteria = Array.isArray(params) ? params[0] : undefined
        if (typeof criteria === 'object' && criteria !== null) {
          checkFilterRange(await filterRange(criteria, this.#head), this.#s.limits.maxBlocksPerFilter)
        }
        const filterId = await engine.call(method, params)
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
        const result = await engine.call(method, params, false)
        if (isLogFilter) checkLogCount(result, this.#s.limits.maxLogsPerResponse, range)
        return resultResponse(id, result)
      }
      case 'uninstallFilter': {
        const result = await engine.call(method, params)
        if (Array.isArray(params) && typeof params[0] === 'string') this.#logFilters.delete(params[0].toLowerCase())
        return resultResponse(id, result)
      }
      default:
        throw new RpcAnswerError(ErrorCode.InternalError, 'Internal error')
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
      const answer = await this.#s.engine.send(method, params, raw, false)
      return answer.raw ?? engineAnswerResponse(id, answer.object)
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
