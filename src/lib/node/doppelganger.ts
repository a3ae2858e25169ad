/**
 * The doppelganger check: before tnv starts a node with a validator key, it watches the network
 * for that key's authority. Over a window of consensus headers read from the network's endpoint
 * (`tn_latestConsensusHeader`, polled), the authority counts as active when, in a header polled
 * after the first one (and committed no earlier than it, on the chain's clock), it is the leader, or its reputation score
 * (`sub_dag.reputation_score.scores_per_authority[authority]`) is higher than in the header before
 * it in the same epoch. Scores are cumulative within an epoch, so a header the polling skipped
 * loses no score evidence; a leader is seen only in the headers polled.
 *
 * What it cannot see (docs/node.md, "Doppelganger check"): a copy that is stopped or cut off
 * during the window; a key that is not registered or not in the current committee (its authority
 * leads nothing and scores nothing; the result says so at once, without waiting); what an endpoint
 * that lies or lags reports.
 *
 * The window: at least `windowSeconds` AND at least `minHeaders` new headers (default: the
 * committee's size + 1, so that in a round-robin every member leads once), given up (inconclusive)
 * after `maxWaitSeconds`.
 */
import { authorityIdOf } from '../health/read-validator-health.js'
import type { CheckDoppelgangerReturnType } from './guard-types.js'
import { jsonRpcRequest, METHOD_NOT_FOUND } from './json-rpc.js'

export type { CheckDoppelgangerReturnType } from './guard-types.js'

export const DEFAULT_DOPPELGANGER_WINDOW_SECONDS = 60

export type DoppelgangerEvent =
  | {
      event: 'doppelganger-watch'
      authorityId: string
      epoch: number
      committeeSize: number
      windowSeconds: number
      minHeaders: number
      endpoint: string
    }
  | { event: 'doppelganger-header'; header: number; score: number | null; leader: string | null; seen: number }

export type CheckDoppelgangerParameters = {
  /** The network's JSON-RPC endpoint (not the node about to start). */
  endpoint: string
  blsPublicKey: `0x${string}`
  windowSeconds?: number
  /** Default: the committee's size + 1. */
  minHeaders?: number
  /** Default: three windows (at least 30 s). */
  maxWaitSeconds?: number
  pollMs?: number
  onEvent?: (e: DoppelgangerEvent) => void
  /** Stops the watch early (the result is then `inconclusive`). */
  signal?: AbortSignal
  nowMs?: () => number
}

type Header = {
  number?: unknown
  sub_dag?: {
    leader?: { author?: unknown; epoch?: unknown } | null
    commit_timestamp?: unknown
    reputation_score?: { scores_per_authority?: unknown } | null
  } | null
}

async function call<T>(endpoint: string, method: string, params: unknown[] = []): Promise<T> {
  const answer = await jsonRpcRequest<T>({ endpoint, method, params, timeoutMs: 10_000 })
  if (answer.ok) return answer.result
  const { DoppelgangerEndpointError } = await import('./fence-errors.js')
  throw new DoppelgangerEndpointError(
    endpoint,
    method,
    answer.code === METHOD_NOT_FOUND ? 'the endpoint does not serve the tn_ methods' : answer.message,
  )
}

/**
 * @example
 * const r = await checkDoppelganger({ endpoint: 'https://rpc.adiri.tel', blsPublicKey: '0x8f…' })
 * if (r.verdict === 'active') throw new DoppelgangerDetectedError(r)
 */
export async function checkDoppelganger({
  endpoint,
  blsPublicKey,
  windowSeconds = DEFAULT_DOPPELGANGER_WINDOW_SECONDS,
  minHeaders,
  maxWaitSeconds,
  pollMs = 1_000,
  onEvent = () => {},
  signal,
  nowMs = Date.now,
}: CheckDoppelgangerParameters): Promise<CheckDoppelgangerReturnType> {
  const started = nowMs()
  const authorityId = authorityIdOf(blsPublicKey)
  const key = blsPublicKey.toLowerCase() as `0x${string}`
  const result: CheckDoppelgangerReturnType = {
    verdict: 'silent',
    endpoint,
    authorityId,
    blsPublicKey: key,
    epoch: null,
    committeeSize: null,
    seatedNext: null,
    windowSeconds,
    minHeaders: minHeaders ?? 0,
    headersSeen: 0,
    firstHeader: null,
    lastHeader: null,
    waitedMs: 0,
    evidence: [],
  }
  const registered = await call<boolean>(endpoint, 'tn_isValidator', [key])
  if (!registered) return { ...result, verdict: 'not-registered' }
  const epoch = Number(await call<number>(endpoint, 'tn_getCurrentEpoch'))
  const committee = (await call<string[]>(endpoint, 'tn_getCommitteeBlsPubkeys', [epoch])).map((k) => k.toLowerCase())
  result.epoch = epoch
  result.committeeSize = committee.length
  result.minHeaders = minHeaders ?? committee.length + 1
  if (!committee.includes(key)) {
    const next = await call<string[]>(endpoint, 'tn_getCommitteeBlsPubkeys', [epoch + 1]).catch(() => [] as string[])
    return { ...result, verdict: 'not-in-committee', seatedNext: next.some((k) => k.toLowerCase() === key) }
  }

  onEvent({
    event: 'doppelganger-watch',
    authorityId,
    epoch,
    committeeSize: committee.length,
    windowSeconds,
    minHeaders: result.minHeaders,
    endpoint,
  })
  // headers committed before the first one polled are history (possibly this host's own node);
  // judged on the chain's clock (commit timestamps), not this host's
  let since = Number.POSITIVE_INFINITY
  const maxWaitMs = (maxWaitSeconds ?? Math.max(30, windowSeconds * 3)) * 1000
  let previous: { number: number; score: number | null } | null = null
  for (;;) {
    const header = await call<Header | null>(endpoint, 'tn_latestConsensusHeader')
    const number = typeof header?.number === 'number' ? header.number : Number(header?.number ?? Number.NaN)
    if (Number.isFinite(number) && (previous === null || number > previous.number)) {
      const dag = header?.sub_dag
      const scores = dag?.reputation_score?.scores_per_authority
      const raw = scores && typeof scores === 'object' ? (scores as Record<string, unknown>)[authorityId] : undefined
      const score = typeof raw === 'number' ? raw : null
      const leader = typeof dag?.leader?.author === 'string' ? dag.leader.author : null
      const commitTimestamp = typeof dag?.commit_timestamp === 'number' ? dag.commit_timestamp : 0
      if (previous === null) {
        result.firstHeader = number
        since = commitTimestamp
      } else {
        result.headersSeen++
        const recent = commitTimestamp >= since
        if (recent && leader === authorityId)
          result.evidence.push({ header: number, commitTimestamp, kind: 'led', score, previousScore: previous.score })
        // a lower score is a new epoch (scores restart): no evidence either way
        else if (recent && score !== null && previous.score !== null && score > previous.score)
          result.evidence.push({ header: number, commitTimestamp, kind: 'score', score, previousScore: previous.score })
        onEvent({ event: 'doppelganger-header', header: number, score, leader, seen: result.headersSeen })
      }
      result.lastHeader = number
      previous = { number, score }
      if (result.evidence.length) break
    }
    const elapsed = nowMs() - started
    if (elapsed >= windowSeconds * 1000 && result.headersSeen >= result.minHeaders) break
    if (elapsed >= maxWaitMs || signal?.aborted) {
      result.verdict = 'inconclusive'
      break
    }
    await new Promise((r) => setTimeout(r, pollMs))
  }
  result.waitedMs = nowMs() - started
  if (result.evidence.length) result.verdict = 'active'
  return result
}
