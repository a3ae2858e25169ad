/**
 * Waits on an endpoint say what they wait for. Every HTTP request tnv's chain client sends (one
 * attempt; viem sends it again on a timeout, up to its retry count) starts a timer: when no answer
 * has come `noticeMs` (5 s) after the attempt began, the listener the command installed hears the
 * endpoint, the methods, the attempt and the timeout, so an endpoint that accepts the connection
 * and never answers is never silence. Library code never prints: the command renders the notice
 * (a stderr line, or a `waiting` JSON event).
 */

export type SlowAnswer = {
  /** The endpoint, as the operator named it. */
  endpoint: string
  /** The JSON-RPC methods of the request (a batch lists each). */
  methods: string[]
  /** This attempt (1 = the first send) and how many there will be at most. */
  attempt: number
  attempts: number
  /** How long this attempt has waited, and how long it may wait before it is abandoned. */
  waitedSeconds: number
  timeoutSeconds: number
}

type Listener = (notice: SlowAnswer) => void
const listeners = new Set<Listener>()

/**
 * Hears every slow answer of this process until the returned function is called.
 * @example const off = onSlowAnswer((s) => process.stderr.write(`waiting for ${s.endpoint}\n`))
 */
export function onSlowAnswer(listener: Listener): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** Milliseconds before the notice of an attempt that has not been answered. */
export const SLOW_NOTICE_MS = 5_000

export type WatchedFetchParameters = {
  endpoint: string
  fetchFn: typeof fetch
  timeoutMs: number
  attempts: number
  noticeMs?: number
}

/**
 * `fetchFn`, with a notice for each attempt still unanswered after `noticeMs`. Attempts of one
 * request are told apart by their body: viem sends the same bytes again when it retries.
 * @example http(url, { fetchFn: watchedFetch({ endpoint: url, fetchFn: fetch, timeoutMs: 15_000, attempts: 4 }) })
 */
export function watchedFetch({
  endpoint,
  fetchFn,
  timeoutMs,
  attempts,
  // an attempt shorter than the notice would end unheard: then a notice at half of it
  noticeMs = Math.min(SLOW_NOTICE_MS, Math.max(1_000, Math.floor(timeoutMs / 2))),
}: WatchedFetchParameters): typeof fetch {
  const sent = new Map<string, number>()
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const body = typeof init?.body === 'string' ? init.body : ''
    const calls = callsOf(body)
    // a retry carries new JSON-RPC ids: the same request is the same methods and params
    const key = JSON.stringify(calls.map((c) => [c.method, c.params]))
    const attempt = (sent.get(key) ?? 0) + 1
    if (attempt >= attempts) sent.delete(key)
    else sent.set(key, attempt)
    const started = Date.now()
    const timer = setTimeout(() => {
      const notice: SlowAnswer = {
        endpoint,
        methods: calls.map((c) => String(c.method ?? '?')),
        attempt,
        attempts,
        waitedSeconds: Math.round((Date.now() - started) / 1000),
        timeoutSeconds: Math.round(timeoutMs / 1000),
      }
      for (const l of listeners) l(notice)
    }, noticeMs)
    // a notice never keeps the process alive on its own
    timer.unref?.()
    try {
      const res = await fetchFn(input, init)
      if (res.ok) sent.delete(key)
      return res
    } finally {
      clearTimeout(timer)
    }
  }) as typeof fetch
}

function callsOf(body: string): { method?: unknown; params?: unknown }[] {
  try {
    const parsed: unknown = JSON.parse(body)
    return (Array.isArray(parsed) ? parsed : [parsed]).filter((c) => typeof c === 'object' && c !== null)
  } catch {
    return []
  }
}

/** The notice as the one stderr line a person reads. */
export function slowAnswerLine(s: SlowAnswer): string {
  const methods = s.methods.length > 3 ? `${s.methods.slice(0, 3).join(', ')}, …` : s.methods.join(', ')
  return `Waiting for ${s.endpoint}${methods ? ` (${methods})` : ''}: no answer after ${s.waitedSeconds} s, attempt ${s.attempt} of ${s.attempts}; each attempt waits up to ${s.timeoutSeconds} s (--rpc-timeout).`
}
