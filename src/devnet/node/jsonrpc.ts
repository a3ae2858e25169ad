/**
 * JSON-RPC 2.0 building blocks of the reference node: request validation and response text.
 * Responses are built as text so relayed engine bytes and local answers join without a
 * second serialisation (batches are `[` + parts + `]`).
 */

export type RpcId = string | number | null

/** A validated request. `id` is undefined for a notification (no response is sent). */
export type RpcRequest = {
  id: RpcId | undefined
  method: string
  params: unknown[] | Record<string, unknown> | undefined
}

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** eth_subscribe over HTTP (geth's "notifications not supported"). */
  NotificationsUnsupported: -32001,
  /** Generic server error (engine answers such as reverts use their own codes). */
  ServerError: -32000,
  /** jsonrpsee's codes, which the reference node's server answers with. */
  OversizedRequest: -32007,
  OversizedResponse: -32008,
} as const

/** An error answered to one request (code + message, optional data). */
export class RpcAnswerError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export function errorResponse(id: RpcId | undefined, code: number, message: string, data?: unknown): string {
  const dataPart = data === undefined ? '' : `,"data":${JSON.stringify(data)}`
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"error":{"code":${code},"message":${JSON.stringify(message)}${dataPart}}}`
}

export function resultResponse(id: RpcId | undefined, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":${JSON.stringify(result ?? null)}}`
}

/** Re-addresses an engine answer object (`{result}` or `{error}`) to the client's id. */
export function engineAnswerResponse(id: RpcId | undefined, answer: { result?: unknown; error?: unknown }): string {
  if (answer.error !== undefined && answer.error !== null) {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"error":${JSON.stringify(answer.error)}}`
  }
  return resultResponse(id, answer.result)
}

export const PARSE_ERROR_RESPONSE = errorResponse(null, ErrorCode.ParseError, 'Parse error')
export const INVALID_REQUEST_RESPONSE = errorResponse(null, ErrorCode.InvalidRequest, 'Invalid request')

function isValidId(id: unknown): id is RpcId {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))
}

/**
 * Checks one JSON-RPC 2.0 request object. Returns the request, or the error response text
 * (-32600, with the request's id when that id itself is valid).
 */
export function validateRequest(value: unknown): RpcRequest | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return INVALID_REQUEST_RESPONSE
  const { jsonrpc, method, params, id } = value as Record<string, unknown>
  const hasId = 'id' in value
  if (hasId && !isValidId(id)) return INVALID_REQUEST_RESPONSE
  const answerId = hasId ? (id as RpcId) : null
  if (jsonrpc !== '2.0' || typeof method !== 'string' || method.length === 0) {
    return errorResponse(answerId, ErrorCode.InvalidRequest, 'Invalid request')
  }
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    return errorResponse(answerId, ErrorCode.InvalidRequest, 'Invalid request')
  }
  return {
    id: hasId ? (id as RpcId) : undefined,
    method,
    params: params as RpcRequest['params'],
  }
}

/** The engine accepts the client's own bytes only with an id it represents exactly. */
export function isRelayableId(id: RpcId | undefined): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)
}
