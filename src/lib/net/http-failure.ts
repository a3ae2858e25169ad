/**
 * One wording for every HTTP failure of an endpoint (issue 16 item 2): the status and its
 * name, at most one line of what the server answered (control characters removed, cut short),
 * and what to check for that status. Used by the viem transport's errors (../chain/rpc-errors.ts),
 * the node driver's JSON-RPC calls (../node/json-rpc.ts) and `rpc check`.
 */
import { createRequire } from 'node:module'
import { remoteText } from '../io/remote-text.js'

export type HttpFailureTextParameters = {
  url: string
  status: number
  /** What the server answered (an HTML page, a JSON error, text); only its first line is quoted. */
  body?: unknown
}

/** What to check, by status. */
function advice(status: number): string {
  if (status === 401 || status === 403)
    return 'The endpoint needs credentials or blocks this client; use an endpoint that serves JSON-RPC openly, such as your own node (for a node started with --rpc.jwtsecret, `tnv rpc jwt` makes the bearer token).'
  if (status === 404 || status === 405 || status === 501)
    return 'The URL does not lead to a JSON-RPC server: a node serves JSON-RPC with POST at the root of its HTTP port (e.g. http://127.0.0.1:8545); check the host, port and path of the URL.'
  if (status === 407) return 'A proxy between tnv and the endpoint wants credentials: check HTTPS_PROXY / HTTP_PROXY.'
  if (status === 408 || status === 504 || status === 524)
    return 'The endpoint (or a gateway in front of it) timed out: try again, or use your own node.'
  if (status === 413 || status === 414 || status === 431)
    return 'The endpoint refused the request as too large; use an endpoint without such a limit, such as your own node.'
  if (status === 415) return 'The endpoint does not take JSON (application/json): it is not a JSON-RPC server.'
  if (status === 429) return 'The endpoint rate-limits this client: wait a minute and try again, or use your own node.'
  if (status >= 500)
    return 'The server behind the endpoint failed: try again later, or use your own node (`tnv node status` shows whether it runs).'
  if (status >= 300 && status < 400)
    return 'The endpoint redirects elsewhere; use the final URL (JSON-RPC requests are not redirected).'
  return 'Check the URL: it should be the HTTP JSON-RPC endpoint of a Telcoin Network node.'
}

/**
 * @example httpFailureText({ url, status: 404, body: '<html>Not Found</html>' }).message
 * // 'The endpoint http://… answered HTTP 404 (Not Found): "<html>Not Found</html>".'
 */
export function httpFailureText({ url, status, body }: HttpFailureTextParameters): { message: string; fix: string } {
  // node:http is required only here: loading it at start-up costs every command a few ms
  const name = (createRequire(import.meta.url)('node:http') as typeof import('node:http')).STATUS_CODES[status]
  // viem hands on the body JSON-encoded ("\"<html>…\""): decode it so its escapes are cleaned, not printed
  if (typeof body === 'string' && body.startsWith('"'))
    try {
      body = JSON.parse(body)
    } catch {
      // keep it as it came
    }
  const firstLine = remoteText(
    typeof body === 'string' ? (body.split(/\r?\n/).find((l) => l.trim() !== '') ?? '') : body,
    120,
  )
  const quoted = firstLine ? `: "${firstLine}"` : ''
  return {
    message: `The endpoint ${remoteText(url, 200)} answered HTTP ${status}${name ? ` (${name})` : ''}${quoted}.`,
    fix: advice(status),
  }
}
