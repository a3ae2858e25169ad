/**
 * Waits until the local node is synced. `eth_syncing` always returns false on this node, so
 * tnv compares the local node with the network's public endpoint, as the real tools do
 * (real-network/node.md §5, §8): by the latest consensus header number
 * (`tn_latestConsensusHeader`, else the deprecated `tn_latestHeader`) when both ends serve it,
 * otherwise by `eth_blockNumber` (the specification's way). When the local node serves
 * `tn_nodeMode`, `CvvInactive` (a committee member still catching up) is never "synced".
 *
 * "Match": |network - local| <= tolerance (samples are not simultaneous, so a block or two of
 * skew is normal). "Keep advancing together": `samples` consecutive matching polls, and over
 * those polls the network height moved (or `allowIdleChain`, for a chain that only produces
 * blocks on demand).
 */
import { NotSyncedError } from './errors.js'
import { type ConsensusHeaderMethod, readConsensusHead, readNodeMode, tolerate } from './health.js'
import { blockNumber, RpcCallError } from './json-rpc.js'

export type SyncMethod = ConsensusHeaderMethod | 'eth_blockNumber'

export type SyncProgress = {
  local: bigint
  network: bigint
  behind: bigint
  matching: number
  needed: number
  method: SyncMethod
  nodeMode: string | null
}

export type WaitForSyncParameters = {
  localUrl: string
  networkUrl: string
  tolerance?: bigint
  samples?: number
  intervalMs?: number
  timeoutMs?: number
  allowIdleChain?: boolean
  onProgress?: (p: SyncProgress) => void
}

export type WaitForSyncReturnType = {
  synced: true
  local: string
  network: string
  polls: number
  /** What the heights are: consensus header numbers, or execution block numbers. */
  method: SyncMethod
  /** The local node's tn_nodeMode at the end, or null when it does not serve it. */
  nodeMode: string | null
}

export async function waitForSync({
  localUrl,
  networkUrl,
  tolerance = 2n,
  samples = 3,
  intervalMs = 1_000,
  timeoutMs = 600_000,
  allowIdleChain = false,
  onProgress = () => {},
}: WaitForSyncParameters): Promise<WaitForSyncReturnType> {
  const deadline = Date.now() + timeoutMs
  // a failure names the end that failed: the network's endpoint failing is not the node's fault
  const blame = <T>(end: 'local' | 'network', p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      if (!(err instanceof RpcCallError) || err.endpoint !== (end === 'local' ? localUrl : networkUrl)) throw err
      throw end === 'local'
        ? new RpcCallError(
            err.endpoint,
            err.reason,
            "Your node's RPC endpoint",
            'Check that the node is running (`tnv node status`) and serves this URL or IPC path.',
          )
        : new RpcCallError(
            err.endpoint,
            err.reason,
            "The network's endpoint (compared with your node)",
            'Your node is not the problem: check this URL, or give another public endpoint of the network with --network-url.',
          )
    })
  // Which heights to compare: consensus headers when both ends serve them (each end may use the alias).
  const unusable: string[] = []
  const [localHead, networkHead] = await Promise.all([
    blame('local', tolerate(readConsensusHead(localUrl), 'tn_latestConsensusHeader', unusable)),
    blame('network', tolerate(readConsensusHead(networkUrl), 'tn_latestConsensusHeader', unusable)),
  ])
  const consensus = localHead !== null && networkHead !== null
  const height = async (url: string, method: SyncMethod): Promise<bigint> => {
    if (method === 'eth_blockNumber') return blockNumber(url)
    const head = await readConsensusHead(url)
    if (!head) throw new Error(`${url} stopped serving ${method}`)
    return head.number
  }
  const localMethod: SyncMethod = consensus
    ? (localHead as { method: ConsensusHeaderMethod }).method
    : 'eth_blockNumber'
  const networkMethod: SyncMethod = consensus
    ? (networkHead as { method: ConsensusHeaderMethod }).method
    : 'eth_blockNumber'
  let matching = 0
  let firstMatchNetwork: bigint | null = null
  let polls = 0
  let local = 0n
  let network = 0n
  let nodeMode: string | null = null
  for (;;) {
    ;[local, network, nodeMode] = await Promise.all([
      blame('local', height(localUrl, localMethod)),
      blame('network', height(networkUrl, networkMethod)),
      tolerate(readNodeMode(localUrl), 'tn_nodeMode', unusable),
    ])
    polls++
    const behind = network > local ? network - local : 0n
    const diff = network > local ? network - local : local - network
    if (diff <= tolerance && nodeMode !== 'CvvInactive') {
      if (matching === 0) firstMatchNetwork = network
      matching++
    } else {
      matching = 0
      firstMatchNetwork = null
    }
    onProgress({ local, network, behind, matching, needed: samples, method: localMethod, nodeMode })
    const advanced = firstMatchNetwork !== null && network > firstMatchNetwork
    if (matching >= samples && (advanced || allowIdleChain)) {
      return {
        synced: true,
        local: local.toString(),
        network: network.toString(),
        polls,
        method: localMethod,
        nodeMode,
      }
    }
    if (Date.now() > deadline)
      throw new NotSyncedError(local, network, Math.round(timeoutMs / 1000), localMethod, nodeMode)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
