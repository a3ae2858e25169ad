/**
 * Which methods the reference node answers, and how. The namespace decides whether a
 * transport serves a method at all (the plan's selection); the kind decides the path:
 * relayed to the engine, relayed under a limit, answered by the node, or a subscription.
 * The engine's own methods (anvil_*, evm_*, hardhat_*, ganache_*, txpool_*, ...) have no
 * entry here, so they are never reachable: they answer -32601 like any unknown method.
 */
import type { Namespace } from '../../lib/rpc/types.js'

export type MethodKind =
  /** Relayed as is; may share an engine round trip with other light requests. */
  | 'relay'
  /** Relayed alone (unknown or possibly heavy cost). */
  | 'relaySolo'
  /** Relayed with the call's gas capped by --rpc.gascap. */
  | 'gasCapped'
  /** Shares the tracing semaphore (--rpc.max-tracing-requests); relayed alone. */
  | 'tracing'
  | 'getLogs'
  | 'newFilter'
  | 'getFilterLogs'
  | 'getFilterChanges'
  | 'uninstallFilter'
  | 'subscribe'
  | 'unsubscribe'
  /** Answered by the node itself (rpc_modules, eth_syncing, tn_*, ...). */
  | 'local'

export type MethodRoute = { namespace: Namespace; kind: MethodKind }

const ETH: Record<string, MethodKind> = {
  blockNumber: 'relay',
  chainId: 'relay',
  gasPrice: 'relay',
  maxPriorityFeePerGas: 'relay',
  blobBaseFee: 'relay',
  feeHistory: 'relay',
  protocolVersion: 'relay',
  getBalance: 'relay',
  getCode: 'relay',
  getStorageAt: 'relay',
  getTransactionCount: 'relay',
  getAccount: 'relay',
  getProof: 'relaySolo',
  getBlockByHash: 'relay',
  getBlockByNumber: 'relay',
  getBlockReceipts: 'relaySolo',
  getHeaderByHash: 'relay',
  getHeaderByNumber: 'relay',
  getBlockTransactionCountByHash: 'relay',
  getBlockTransactionCountByNumber: 'relay',
  getUncleByBlockHashAndIndex: 'relay',
  getUncleByBlockNumberAndIndex: 'relay',
  getUncleCountByBlockHash: 'relay',
  getUncleCountByBlockNumber: 'relay',
  getTransactionByHash: 'relay',
  getTransactionByBlockHashAndIndex: 'relay',
  getTransactionByBlockNumberAndIndex: 'relay',
  getRawTransactionByHash: 'relay',
  getRawTransactionByBlockHashAndIndex: 'relay',
  getRawTransactionByBlockNumberAndIndex: 'relay',
  getTransactionReceipt: 'relay',
  sendRawTransaction: 'relay',
  call: 'gasCapped',
  estimateGas: 'gasCapped',
  createAccessList: 'gasCapped',
  simulateV1: 'gasCapped',
  callBundle: 'tracing',
  getLogs: 'getLogs',
  newFilter: 'newFilter',
  newBlockFilter: 'relay',
  newPendingTransactionFilter: 'relay',
  getFilterLogs: 'getFilterLogs',
  getFilterChanges: 'getFilterChanges',
  uninstallFilter: 'uninstallFilter',
  subscribe: 'subscribe',
  unsubscribe: 'unsubscribe',
  // Answered by the node: it syncs no differently from the reference (always false), and it
  // holds no local keys (the engine's unlocked dev accounts must not sign for anyone).
  syncing: 'local',
  accounts: 'local',
  sendTransaction: 'local',
  sign: 'local',
  signTransaction: 'local',
  signTypedData: 'local',
  signTypedData_v4: 'local',
  mining: 'local',
  hashrate: 'local',
}

const NET: Record<string, MethodKind> = { version: 'relay', listening: 'local', peerCount: 'local' }
const WEB3: Record<string, MethodKind> = { clientVersion: 'local', sha3: 'relay' }
const RPC: Record<string, MethodKind> = { modules: 'local' }

/** tn_* methods the node answers (see tn-methods.ts; shapes in docs/devnet.md). */
export const TN_METHODS = [
  'info',
  'nodeMode',
  'latestConsensusHeader',
  'latestHeader',
  'genesis',
  'getCurrentEpoch',
  'getCurrentEpochInfo',
  'getEpochInfo',
  'getValidators',
  'getCommitteeValidators',
  'getCommitteeBlsPubkeys',
  'getValidator',
  'getBlsPubkey',
  'isValidator',
  'isDelegated',
  'isRetired',
  'getRewards',
  'getBalanceBreakdown',
  'delegationDigest',
  'getNextCommitteeSize',
  'getCurrentStakeVersion',
  'undistributedIssuance',
] as const

const TABLES: Partial<Record<Namespace, Record<string, MethodKind>>> = {
  eth: ETH,
  net: NET,
  web3: WEB3,
  rpc: RPC,
  tn: Object.fromEntries(TN_METHODS.map((m) => [m, 'local' as const])),
}

const NODE_NAMESPACES = new Set<string>(['eth', 'net', 'web3', 'rpc', 'tn', 'debug', 'trace'])

/** `debug_trace*`, `debug_executionWitness*`, `trace_*`, `eth_callBundle` share the tracing limit (spec). */
function debugKind(name: string): MethodKind {
  if (name.startsWith('trace') || name.startsWith('executionWitness')) return 'tracing'
  return 'relaySolo'
}

const cache = new Map<string, MethodRoute | null>()

/** The route of a method, or null when the node has no such method (-32601). */
export function routeOf(method: string): MethodRoute | null {
  const hit = cache.get(method)
  if (hit !== undefined) return hit
  const route = computeRoute(method)
  if (cache.size < 4096) cache.set(method, route)
  return route
}

function computeRoute(method: string): MethodRoute | null {
  const sep = method.indexOf('_')
  if (sep <= 0 || sep === method.length - 1) return null
  const ns = method.slice(0, sep)
  const name = method.slice(sep + 1)
  if (!NODE_NAMESPACES.has(ns)) return null
  const namespace = ns as Namespace
  if (namespace === 'debug') return { namespace, kind: debugKind(name) }
  if (namespace === 'trace') return { namespace, kind: 'tracing' }
  const kind = TABLES[namespace]?.[name]
  return kind ? { namespace, kind } : null
}
