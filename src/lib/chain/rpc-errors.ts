/**
 * Turns endpoint faults into operator-facing errors. viem has already retried what is safe
 * to retry (timeouts, refused connections, 429, 5xx); what reaches here is explained.
 * Transaction-pool refusals (nonce too low, replacement underpriced, already known) are
 * classified for the step runner (../tx/run-step.ts), which decides what is safe to retry.
 */
import { BaseError, HttpRequestError, TimeoutError } from 'viem'
import { TnvError } from '../errors.js'
import { remoteText } from '../io/remote-text.js'
import { httpFailureText } from '../net/http-failure.js'
import { isLoopbackAddress } from '../rpc/loopback.js'
import { InsufficientFundsError, RpcUnreachableError } from './errors.js'

export type RpcFaultKind =
  | 'unreachable'
  | 'timeout'
  | 'rate-limited'
  | 'unauthorized'
  | 'http-status'
  | 'method-missing'
  | 'nonce-too-low'
  | 'underpriced'
  | 'already-known'
  | 'insufficient-funds'
  | 'other'

/**
 * The faults after which the endpoint has given no verdict on the request: it may have been
 * carried out, and may answer differently later (a node restarting, a gateway limiting or
 * refusing this client for now). The step runner (../tx/run-step.ts) keeps a transaction open
 * after one of them, never concluding it was dropped; the receipt wait (./wait-for-receipt.ts)
 * polls through them. The one classification of transient faults.
 */
const TRANSIENT_FAULTS: ReadonlySet<RpcFaultKind> = new Set<RpcFaultKind>([
  'unreachable',
  'timeout',
  'rate-limited',
  'unauthorized',
  'method-missing',
])

/** @example if (isTransientRpcFault(classifyRpcError(err))) throw explainRpcError(err, rpcUrl) ?? err */
export function isTransientRpcFault(kind: RpcFaultKind): boolean {
  return TRANSIENT_FAULTS.has(kind)
}

/** Every message and detail along the cause chain, lower-cased, for matching node wording. */
function chainText(err: unknown): string {
  const parts: string[] = []
  let cur: unknown = err
  for (let depth = 0; cur && depth < 10; depth++) {
    if (cur instanceof BaseError) parts.push(cur.shortMessage, cur.details)
    if (cur instanceof Error) parts.push(cur.message)
    const code = (cur as { code?: unknown }).code
    if (typeof code === 'string') parts.push(code)
    cur = (cur as { cause?: unknown }).cause
  }
  return parts.join(' | ').toLowerCase()
}

function httpStatus(err: unknown): number | undefined {
  if (!(err instanceof BaseError)) return undefined
  const http = err.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null
  return http?.status
}

/** What kind of fault this is, from viem's error classes and the node's wording. */
export function classifyRpcError(err: unknown): RpcFaultKind {
  const text = chainText(err)
  if (/nonce too low|nonce is too low|oldnonce|invalid nonce/.test(text)) return 'nonce-too-low'
  if (/replacement transaction underpriced|replacement underpriced|transaction underpriced/.test(text))
    return 'underpriced'
  if (/already known|already imported|alreadyknown|known transaction/.test(text)) return 'already-known'
  if (/insufficient funds|insufficient balance/.test(text)) return 'insufficient-funds'
  const status = httpStatus(err)
  if (status === 429 || /rate limit|too many requests|limit exceeded|-32005/.test(text)) return 'rate-limited'
  if (status === 401 || status === 403) return 'unauthorized'
  if (/method not found|does not exist\/is not available|method not supported|-32601/.test(text))
    return 'method-missing'
  if (err instanceof BaseError && err.walk((e) => e instanceof TimeoutError)) return 'timeout'
  if (/timed out|timeout/.test(text)) return 'timeout'
  if (err instanceof BaseError && err.walk((e) => e instanceof HttpRequestError)) {
    // no status, a timeout status or a server failure: transient, worth waiting through
    if (status === undefined || status === 408 || status >= 500) return 'unreachable'
    return 'http-status'
  }
  if (/econnrefused|enotfound|econnreset|eai_again|fetch failed|socket hang up|network/.test(text)) return 'unreachable'
  return 'other'
}

/**
 * An operator-facing error for a transport-level fault, or undefined when the error is not
 * one (a revert, a bug): the caller then handles it.
 */
export function explainRpcError(err: unknown, rpcUrl: string): TnvError | undefined {
  const own = tnvErrorInChain(err)
  if (own) return own
  switch (classifyRpcError(err)) {
    case 'unreachable': {
      const http =
        err instanceof BaseError ? (err.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null) : null
      if (http?.status !== undefined) {
        const { message, fix } = httpFailureText({ url: rpcUrl, status: http.status, body: http.details })
        return new RpcUnreachableError(message, { fix, cause: err })
      }
      return unreachable(err, rpcUrl)
    }
    case 'timeout':
      return new RpcUnreachableError(`The endpoint ${rpcUrl} did not answer in time, after retries.`, {
        fix: 'Try again later, use a node of your own with --rpc-url, or give a slow endpoint longer with --rpc-timeout SECONDS (each of the 4 attempts; default 15).',
        cause: err,
      })
    case 'rate-limited':
      return new RpcUnreachableError(`The endpoint ${rpcUrl} keeps refusing requests: rate limited, after retries.`, {
        fix: 'Wait a minute and run the command again, or use a node of your own with --rpc-url (the public endpoint is rate limited).',
        cause: err,
      })
    case 'unauthorized':
      return new RpcUnreachableError(`The endpoint ${rpcUrl} refused the request (HTTP ${httpStatus(err)}).`, {
        fix: 'The endpoint needs credentials or blocks this client; use an endpoint that serves the eth namespace openly, such as your own node.',
        cause: err,
      })
    case 'http-status': {
      const http = (err as BaseError).walk((e) => e instanceof HttpRequestError) as HttpRequestError
      const { message, fix } = httpFailureText({ url: rpcUrl, status: http.status ?? 0, body: http.details })
      return new RpcUnreachableError(message, { fix, cause: err })
    }
    case 'method-missing':
      return new RpcUnreachableError(`The endpoint ${rpcUrl} does not serve a method tnv needs (${rootCause(err)}).`, {
        fix: 'Use an endpoint that serves the eth namespace (the node serves it by default: check --http.api).',
        cause: err,
      })
    case 'insufficient-funds':
      return new InsufficientFundsError(
        `The node refused the transaction: the account cannot pay for it (${rootCause(err)}).`,
        {
          fix: 'Fund the account with enough TEL for the value plus gas, then run the command again.',
          cause: err,
        },
      )
    default:
      return undefined
  }
}

/**
 * A connection that failed: a host name that does not resolve is a DNS or network problem of
 * this machine (or a wrong name), worded as such; the devnet is named only for a loopback
 * endpoint, where it is the likely server.
 */
function unreachable(err: unknown, rpcUrl: string): RpcUnreachableError {
  let host = ''
  try {
    host = new URL(rpcUrl).hostname
  } catch {
    // not a URL: the endpoint is named as given
  }
  const text = chainText(err)
  if (/enotfound|eai_again/.test(text)) {
    const code = text.includes('eai_again') ? 'EAI_AGAIN' : 'ENOTFOUND'
    return new RpcUnreachableError(
      `The host name ${host || rpcUrl} of the endpoint ${rpcUrl} does not resolve (DNS ${code}): tnv could not connect to it.`,
      {
        fix: `Check this machine's network connection and DNS resolver (\`getent hosts ${host || 'HOST'}\` should print an address) and the spelling of the endpoint, then run the command again; or pass another endpoint of the same network with --rpc-url.`,
        cause: err,
      },
    )
  }
  const devnet = host !== '' && isLoopbackAddress(host) ? ' (for the local devnet: `tnv devnet status`)' : ''
  return new RpcUnreachableError(`Cannot reach the endpoint ${rpcUrl} (${rootCause(err)}).`, {
    fix: `Check that the node is running and --rpc-url is right${devnet}.`,
    cause: err,
  })
}

/** A TnvError that tnv's own transport threw inside viem (an answer of the wrong type), found along the cause chain. */
function tnvErrorInChain(err: unknown): TnvError | undefined {
  let cur: unknown = err
  for (let depth = 0; cur && depth < 10; depth++) {
    if (cur instanceof TnvError) return cur
    cur = (cur as { cause?: unknown }).cause
  }
  return undefined
}

/** The innermost message along the cause chain (often the endpoint's own text): cleaned and cut short. */
function rootCause(err: unknown): string {
  let cur: unknown = err
  let last = ''
  for (let depth = 0; cur && depth < 10; depth++) {
    if (cur instanceof BaseError) last = cur.details || cur.shortMessage
    else if (cur instanceof Error) last = cur.message
    cur = (cur as { cause?: unknown }).cause
  }
  return remoteText(last.split('\n')[0] ?? 'unknown error') || 'unknown error'
}
