/**
 * The one way tnv opens an endpoint: a viem public client over HTTP with JSON-RPC batching
 * (independent reads issued in the same tick travel in one HTTP request; the devnet has no
 * multicall contract, and batching needs none) and retries for faults that are safe to
 * retry (timeouts, refused connections, 429 and 5xx; viem's policy, with Retry-After). An attempt
 * unanswered after 5 s is announced to the command (./slow-answer.ts).
 */
import { createPublicClient, http, type PublicClient, type Transport } from 'viem'
import { checkAnswer } from './check-answer.js'
import { watchedFetch } from './slow-answer.js'

export type ChainClient = PublicClient

export type CreateChainClientParameters = {
  rpcUrl: string
  /** A counting fetch (./rpc-counter.ts) for benchmarks and round-trip tests. */
  fetchFn?: typeof fetch | undefined
  /** Per-attempt timeout (`--rpc-timeout`). Default 15 s (public endpoints are slow under load). */
  timeoutMs?: number | undefined
  /** Retries of a failed request (exponential backoff from `retryDelayMs`). Default 3. */
  retryCount?: number | undefined
  retryDelayMs?: number | undefined
  /** JSON-RPC batching (default true); off only to measure what batching saves (bench). */
  batch?: boolean | undefined
}

/**
 * @example const client = createChainClient({ rpcUrl: 'https://rpc.adiri.tel' })
 */
export function createChainClient({
  rpcUrl,
  fetchFn,
  timeoutMs = 15_000,
  retryCount = 3,
  retryDelayMs = 300,
  batch = true,
}: CreateChainClientParameters): ChainClient {
  const inner = http(rpcUrl, {
    batch,
    timeout: timeoutMs,
    retryCount,
    retryDelay: retryDelayMs,
    // an attempt unanswered after 5 s is announced (./slow-answer.ts): a silent endpoint is never silence
    fetchFn: watchedFetch({ endpoint: rpcUrl, fetchFn: fetchFn ?? fetch, timeoutMs, attempts: retryCount + 1 }),
  })
  // every answer is checked for its JSON type before viem decodes it (./check-answer.ts)
  const transport: Transport = (options) => {
    const made = inner(options)
    return {
      ...made,
      request: (async (args: { method: string; params?: unknown }, opts?: unknown) => {
        const result = await made.request(args as never, opts as never)
        checkAnswer(rpcUrl, args.method, result)
        return result
      }) as typeof made.request,
    }
  }
  return createPublicClient({
    transport,
    // receipts are polled by ./wait-for-receipt.ts; no viem-side caching of block numbers
    cacheTime: 0,
  })
}
