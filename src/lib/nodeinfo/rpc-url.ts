/**
 * Worker RPC endpoints (real-network/node.md §1 and §3; the node's `RpcInfo::validate`): the
 * node parses each value with the `url` crate (a WHATWG URL parser, like Node's `URL`), stores
 * and writes it normalised (`https://rpc.example.org` becomes `https://rpc.example.org/`), and
 * checks the normalised text: http must be http/https, ws must be ws/wss and needs http, each at
 * most 2048 bytes. The error causes are the node's own texts.
 */
import { UsageError } from '../errors.js'
import { InvalidWorkerRpcUrlError, RpcUrlCredentialsError } from './errors.js'
import type { RpcEndpoints } from './types.js'

export const MAX_RPC_URL_LENGTH = 2048

const SCHEMES = { http: ['http', 'https'], ws: ['ws', 'wss'] } as const

/**
 * Checks one RPC URL and returns it normalised as the node writes it.
 * @example checkRpcUrl('https://rpc.example.org', 'http', '--http') // 'https://rpc.example.org/'
 */
export function checkRpcUrl(value: string, kind: 'http' | 'ws', label: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidWorkerRpcUrlError(label, redactUserinfo(value), 'it is not a URL (scheme://host[:port][/path])')
  }
  // node-info.yaml is public (it goes to the registry operators and other validators): a
  // user:password@ part would publish the credentials, so it is refused and never echoed
  if (url.username !== '' || url.password !== '') throw new RpcUrlCredentialsError(label, redactUserinfo(value))
  const href = url.href
  const bytes = Buffer.byteLength(href)
  if (bytes > MAX_RPC_URL_LENGTH)
    throw new InvalidWorkerRpcUrlError(
      label,
      value,
      `rpc endpoint URL length ${bytes} exceeds maximum of ${MAX_RPC_URL_LENGTH} bytes`,
    )
  const scheme = url.protocol.replace(/:$/, '')
  const allowed: readonly string[] = SCHEMES[kind]
  if (!allowed.includes(scheme))
    throw new InvalidWorkerRpcUrlError(
      label,
      value,
      kind === 'http'
        ? `invalid http endpoint scheme \`${scheme}\`, expected \`http\` or \`https\``
        : `invalid ws endpoint scheme \`${scheme}\`, expected \`ws\` or \`wss\``,
    )
  if (!url.hostname) throw new InvalidWorkerRpcUrlError(label, value, 'it has no host')
  return href
}

/** Checks a pair of endpoints (ws needs http) and returns them normalised. Labels name the flags or fields they came from. */
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

/**
 * The URL text with any `user:password@` part replaced by `***@`, for messages.
 * @example redactUserinfo('https://u:p@host/') // 'https://***@host/'
 */
export function redactUserinfo(value: string): string {
  return value.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/?#]*@/, '$1***@')
}
