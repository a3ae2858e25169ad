/**
 * A node's progress as the real tools judge it (real-network/node.md §5 and §8): the latest
 * consensus header (`tn_latestConsensusHeader`, or its deprecated alias `tn_latestHeader` on
 * an older node) with its number and commit time, and `tn_nodeMode` (`CvvActive`,
 * `CvvInactive` = a committee member still catching up, `Observer`). A node that does not
 * serve the tn namespace on this endpoint (-32601) is judged by `eth_blockNumber` alone.
 */
import { remoteText } from '../io/remote-text.js'
import { jsonRpcRequest, METHOD_NOT_FOUND, RpcCallError } from './json-rpc.js'

export const CONSENSUS_HEADER_METHODS = ['tn_latestConsensusHeader', 'tn_latestHeader'] as const
export type ConsensusHeaderMethod = (typeof CONSENSUS_HEADER_METHODS)[number]

/** A commit older than this is stale (the deployment scripts' check-node.sh warns past 60 s). */
export const STALE_COMMIT_SECONDS = 60

export type ConsensusHead = {
  method: ConsensusHeaderMethod
  /** The consensus header number (0 = genesis: the node has committed nothing yet). */
  number: bigint
  /** `sub_dag.commit_timestamp`, seconds since the epoch, when present. */
  commitTimestamp: number | null
}

export type NodeProgress = {
  /** `tn_nodeMode`, or null when not served here (or unusable). */
  nodeMode: string | null
  /** The latest consensus header, or null when neither method is served here (or the answer is unusable). */
  consensus: ConsensusHead | null
  /** `eth_blockNumber`, or null when not served. */
  blockNumber: bigint | null
  /** tn methods that answered something other than their documented shape (ignored, never read as numbers). */
  unusable: string[]
}

export type ReadProgressOptions = { timeoutMs?: number; headers?: Record<string, string> }

/**
 * Reads what the endpoint serves of tn_nodeMode, tn_latestConsensusHeader (else
 * tn_latestHeader) and eth_blockNumber, in parallel.
 * @throws RpcCallError when the endpoint gives no JSON-RPC answer at all, or answers with nothing usable
 */
export async function readNodeProgress(endpoint: string, options: ReadProgressOptions = {}): Promise<NodeProgress> {
  const unusable: string[] = []
  const [nodeMode, consensus, block] = await Promise.all([
    tolerate(readNodeMode(endpoint, options), 'tn_nodeMode', unusable),
    tolerate(readConsensusHead(endpoint, options), 'tn_latestConsensusHeader', unusable),
    optional(endpoint, 'eth_blockNumber', options).then((r) => (r === null ? null : hexQuantity(endpoint, r))),
  ])
  if (consensus === null && block === null)
    throw new RpcCallError(
      endpoint,
      `it serves neither tn_latestConsensusHeader nor eth_blockNumber${unusable.length ? ` (${unusable.join('; ')})` : ' (both -32601)'}`,
    )
  return { nodeMode, consensus, blockNumber: block, unusable }
}

/**
 * A tn answer of the wrong shape (a proxy or a stand-in node that answers every method the same
 * way) is set aside, not read as a number: the node is then judged by eth_blockNumber.
 */
export async function tolerate<T>(read: Promise<T | null>, method: string, unusable: string[]): Promise<T | null> {
  try {
    return await read
  } catch (err) {
    if (err instanceof RpcCallError && /answered/.test(err.message)) {
      unusable.push(
        `${method}: ${err.message.replace(/^The RPC endpoint \S+ did not answer: /, '').replace(/\.$/, '')}`,
      )
      return null
    }
    throw err
  }
}

export async function readNodeMode(endpoint: string, options: ReadProgressOptions = {}): Promise<string | null> {
  const mode = await optional(endpoint, 'tn_nodeMode', options)
  if (mode === null) return null
  // a mode is a short identifier (CvvActive, CvvInactive, Observer): anything else is refused, never printed raw
  if (typeof mode !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(mode))
    throw new RpcCallError(endpoint, `tn_nodeMode answered ${short(mode)}, not a mode name`)
  return mode
}

/** The latest consensus header, trying the current name first and the deprecated alias second; null when neither is served. */
export async function readConsensusHead(
  endpoint: string,
  options: ReadProgressOptions = {},
): Promise<ConsensusHead | null> {
  for (const method of CONSENSUS_HEADER_METHODS) {
    const header = await optional(endpoint, method, options)
    if (header === null) continue
    return parseConsensusHeader(endpoint, method, header)
  }
  return null
}

/** `{parent_hash, sub_dag: {…, commit_timestamp}, number, extra}` (node.md §5). */
export function parseConsensusHeader(endpoint: string, method: ConsensusHeaderMethod, value: unknown): ConsensusHead {
  if (typeof value !== 'object' || value === null)
    throw new RpcCallError(endpoint, `${method} answered ${short(value)}, not a consensus header`)
  const { number, sub_dag: subDag } = value as { number?: unknown; sub_dag?: unknown }
  let n: bigint
  if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 0) n = BigInt(number)
  else if (typeof number === 'string' && /^(0x[0-9a-fA-F]{1,16}|[0-9]{1,20})$/.test(number)) n = BigInt(number)
  else throw new RpcCallError(endpoint, `${method} answered a header whose number is ${short(number)}`)
  const ts =
    typeof subDag === 'object' && subDag !== null
      ? (subDag as { commit_timestamp?: unknown }).commit_timestamp
      : undefined
  const commitTimestamp = typeof ts === 'number' && Number.isFinite(ts) && ts >= 0 ? ts : null
  return { method, number: n, commitTimestamp }
}

/** Seconds since the header's commit, or null when the header has no timestamp. */
export function commitAgeSeconds(head: ConsensusHead, nowMs = Date.now()): number | null {
  return head.commitTimestamp === null ? null : Math.max(0, Math.round(nowMs / 1000 - head.commitTimestamp))
}

/** The result of `method`, or null when the endpoint answers -32601 (not served here). */
async function optional(
  endpoint: string,
  method: string,
  { timeoutMs, headers }: ReadProgressOptions,
): Promise<unknown | null> {
  const answer = await jsonRpcRequest({
    endpoint,
    method,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(headers ? { headers } : {}),
  })
  if (answer.ok) return answer.result
  if (answer.code === METHOD_NOT_FOUND) return null
  throw new RpcCallError(endpoint, `${method} failed with ${answer.code} ${answer.message}`)
}

function hexQuantity(endpoint: string, value: unknown): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value))
    throw new RpcCallError(endpoint, `eth_blockNumber answered ${short(value)}, not a hex quantity`)
  return BigInt(value)
}

function short(value: unknown): string {
  return remoteText(JSON.stringify(value) ?? String(value), 60)
}
