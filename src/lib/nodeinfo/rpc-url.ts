/**
 * Worker RPC endpoints (reference-facts: node-info.yaml): http must be http/https, ws must be
 * ws/wss and needs http; at most 2048 characters each.
 */
import { UsageError } from '../errors.js'
import { InvalidRpcUrlError } from './errors.js'
import type { RpcEndpoints } from './types.js'

export const MAX_RPC_URL_LENGTH = 2048

const SCHEMES = { http: ['http:', 'https:'], ws: ['ws:', 'wss:'] } as const

/**
 * Checks one RPC URL and returns it unchanged.
 * @example checkRpcUrl('https://rpc.example.org', 'http', '--http')
 */
export function checkRpcUrl(value: string, kind: 'http' | 'ws', label: string): string {
  if (value.length > MAX_RPC_URL_LENGTH)
    throw new InvalidRpcUrlError(label, value, `is ${value.length} characters long; the limit is ${MAX_RPC_URL_LENGTH}`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidRpcUrlError(label, value, 'is not a URL')
  }
  const allowed: readonly string[] = SCHEMES[kind]
  if (!allowed.includes(url.protocol))
    throw new InvalidRpcUrlError(
      label,
      value,
      `has scheme ${url.protocol.replace(/:$/, '')}; ${kind === 'http' ? 'http or https' : 'ws or wss'} is required`,
    )
  if (!url.hostname) throw new InvalidRpcUrlError(label, value, 'has no host')
  return value
}

/** Checks a pair of endpoints (ws needs http). Labels name the flags or fields they came from. */
export function checkRpcEndpoints(
  { http, ws }: { http?: string | undefined; ws?: string | undefined },
  labels: { http: string; ws: string },
): RpcEndpoints | undefined {
  if (http === undefined && ws === undefined) return undefined
  if (http === undefined)
    throw new UsageError(`${labels.ws} is given without ${labels.http}: a WebSocket endpoint needs an HTTP one.`, {
      fix: `Pass ${labels.http} <http(s) URL> as well.`,
    })
  return {
    http: checkRpcUrl(http, 'http', labels.http),
    ...(ws !== undefined ? { ws: checkRpcUrl(ws, 'ws', labels.ws) } : {}),
  }
}
