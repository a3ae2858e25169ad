/**
 * What a node endpoint says about its progress, in ONE batched round trip: chain id, the latest
 * block, tn_nodeMode, tn_latestConsensusHeader and its deprecated alias tn_latestHeader (both
 * asked: an older node serves only the alias, and asking both costs no round trip), and, for the
 * local node, tn_info. -32601 means "not served here" (null); another error or a shape tnv does
 * not read is listed in `unusable`, never read as a number (real-network/node.md §5, §8).
 */
import { keyForms } from '../keys/identity.js'
import { METHOD_NOT_FOUND } from '../node/json-rpc.js'
import { type BatchAnswer, type BatchCall, rpcBatch } from './rpc-batch.js'
import type { EndpointSnapshot, TnInfo } from './types.js'

export type ReadEndpointParameters = {
  endpoint: string
  /** Ask tn_info too (the local node: its identity is compared with node-info.yaml). */
  withInfo?: boolean
  headers?: Record<string, string>
  timeoutMs?: number
  fetchFn?: typeof fetch
  nowMs?: number
}

const CALLS: readonly BatchCall[] = [
  { method: 'eth_chainId' },
  { method: 'eth_getBlockByNumber', params: ['latest', false] },
  { method: 'tn_nodeMode' },
  { method: 'tn_latestConsensusHeader' },
  { method: 'tn_latestHeader' },
]

/**
 * @example const s = await readEndpoint({ endpoint: 'http://127.0.0.1:8545', withInfo: true })
 */
export async function readEndpoint({
  endpoint,
  withInfo = false,
  headers,
  timeoutMs,
  fetchFn,
  nowMs = Date.now(),
}: ReadEndpointParameters): Promise<EndpointSnapshot> {
  const calls = withInfo ? [...CALLS, { method: 'tn_info' }] : CALLS
  const empty: EndpointSnapshot = {
    endpoint,
    reachable: false,
    error: null,
    chainId: null,
    blockNumber: null,
    blockTime: null,
    nodeMode: null,
    consensus: null,
    info: null,
    unusable: [],
  }
  const batch = await rpcBatch({
    endpoint,
    calls,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(headers ? { headers } : {}),
    ...(fetchFn ? { fetchFn } : {}),
  })
  if (!batch.reachable) return { ...empty, error: batch.error }
  const unusable: string[] = []
  const [chainIdA, blockA, modeA, headerA, aliasA, infoA] = batch.answers as [
    BatchAnswer,
    BatchAnswer,
    BatchAnswer,
    BatchAnswer,
    BatchAnswer,
    BatchAnswer | undefined,
  ]
  const value = (a: BatchAnswer | undefined, method: string): unknown => {
    if (!a) return null
    if (a.ok) return a.result
    if (a.code !== METHOD_NOT_FOUND) unusable.push(`${method}: error ${a.code} ${a.message}`)
    return null
  }

  const chainIdRaw = value(chainIdA, 'eth_chainId')
  const chainId = isQuantity(chainIdRaw) ? Number(BigInt(chainIdRaw)) : null
  if (chainIdRaw !== null && chainId === null) unusable.push(`eth_chainId: answered ${short(chainIdRaw)}`)

  const block = value(blockA, 'eth_getBlockByNumber') as { number?: unknown; timestamp?: unknown } | null
  let blockNumber: string | null = null
  let blockTime: number | null = null
  if (block !== null) {
    if (typeof block === 'object' && isQuantity(block.number) && isQuantity(block.timestamp)) {
      blockNumber = BigInt(block.number).toString()
      blockTime = Number(BigInt(block.timestamp))
    } else unusable.push(`eth_getBlockByNumber: answered ${short(block)}`)
  }

  const modeRaw = value(modeA, 'tn_nodeMode')
  const nodeMode = typeof modeRaw === 'string' ? modeRaw : null
  if (modeRaw !== null && nodeMode === null) unusable.push(`tn_nodeMode: answered ${short(modeRaw)}`)

  let consensus: EndpointSnapshot['consensus'] = null
  for (const [answer, method] of [
    [headerA, 'tn_latestConsensusHeader'],
    [aliasA, 'tn_latestHeader'],
  ] as const) {
    const header = value(answer, method)
    if (header === null) continue
    const parsed = parseHeader(header, nowMs)
    if (parsed === null) {
      unusable.push(`${method}: answered ${short(header)}`)
      continue
    }
    consensus = { method, ...parsed }
    break
  }

  const info = withInfo ? parseInfo(value(infoA, 'tn_info'), unusable) : null
  return { ...empty, reachable: true, chainId, blockNumber, blockTime, nodeMode, consensus, info, unusable }
}

/** `{parent_hash, sub_dag: {leader, commit_timestamp, reputation_score: {scores_per_authority}}, number, extra}`. */
function parseHeader(value: unknown, nowMs: number): Omit<NonNullable<EndpointSnapshot['consensus']>, 'method'> | null {
  if (typeof value !== 'object' || value === null) return null
  const { number, sub_dag: subDag } = value as { number?: unknown; sub_dag?: unknown }
  let n: bigint
  if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 0) n = BigInt(number)
  else if (typeof number === 'string' && /^(0x[0-9a-fA-F]{1,16}|[0-9]{1,20})$/.test(number)) n = BigInt(number)
  else return null
  const dag = (typeof subDag === 'object' && subDag !== null ? subDag : {}) as {
    commit_timestamp?: unknown
    leader?: { author?: unknown } | null
    reputation_score?: { scores_per_authority?: unknown } | null
  }
  const ts = dag.commit_timestamp
  const commitTimestamp = typeof ts === 'number' && Number.isFinite(ts) && ts >= 0 ? ts : null
  const rawScores = dag.reputation_score?.scores_per_authority
  let scores: Record<string, number> | null = null
  if (typeof rawScores === 'object' && rawScores !== null && !Array.isArray(rawScores)) {
    scores = {}
    for (const [k, v] of Object.entries(rawScores)) if (typeof v === 'number') scores[k] = v
  }
  const author = dag.leader?.author
  return {
    number: n.toString(),
    commitTimestamp,
    ageSeconds: commitTimestamp === null ? null : Math.max(0, Math.round(nowMs / 1000 - commitTimestamp)),
    scores,
    leader: typeof author === 'string' ? author : null,
  }
}

function parseInfo(value: unknown, unusable: string[]): TnInfo | null {
  if (value === null) return null
  if (typeof value !== 'object' || Array.isArray(value)) {
    unusable.push(`tn_info: answered ${short(value)}`)
    return null
  }
  const v = value as Record<string, unknown>
  const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : null)
  // network keys in tnv's one JSON shape (hex, base58 beside), whichever form the node answers
  const networkKey = (k: string) => {
    const text = str(k)
    const forms = text === null ? null : keyForms(text, 36)
    if (text !== null && forms === null) unusable.push(`tn_info: ${k} is neither 0x hex nor base58 of 36 bytes`)
    return forms ?? { hex: null, base58: null }
  }
  const primary = networkKey('primary_network_key')
  const worker = networkKey('worker_network_key')
  return {
    chainId: typeof v.chain_id === 'number' ? v.chain_id : null,
    version: str('version'),
    name: str('name'),
    blsPublicKey: str('bls_public_key'),
    authorityId: str('authority_id'),
    executionAddress: str('execution_address'),
    primaryNetworkKey: primary.hex,
    primaryNetworkKeyBase58: primary.base58,
    workerNetworkKey: worker.hex,
    workerNetworkKeyBase58: worker.base58,
  }
}

function isQuantity(v: unknown): v is string {
  return typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v)
}

function short(value: unknown): string {
  return (JSON.stringify(value) ?? String(value)).slice(0, 60)
}
