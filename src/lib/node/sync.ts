/**
 * Waits until the local node is synced. The spec: `eth_syncing` always returns false, so
 * compare the local `eth_blockNumber` with the network's public endpoint, and proceed when
 * the two match and keep advancing together.
 *
 * "Match": |network - local| <= tolerance (samples are not simultaneous, so a block or two
 * of skew is normal). "Keep advancing together": `samples` consecutive matching polls, and
 * over those polls the network height moved (or `allowIdleChain`, for a chain that only
 * produces blocks on demand).
 */
import { NotSyncedError } from './errors.js'
import { blockNumber } from './json-rpc.js'

export type SyncProgress = { local: bigint; network: bigint; behind: bigint; matching: number; needed: number }

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

export type WaitForSyncReturnType = { synced: true; local: string; network: string; polls: number }

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
  let matching = 0
  let firstMatchNetwork: bigint | null = null
  let polls = 0
  let local = 0n
  let network = 0n
  for (;;) {
    ;[local, network] = await Promise.all([blockNumber(localUrl), blockNumber(networkUrl)])
    polls++
    const behind = network > local ? network - local : 0n
    const diff = network > local ? network - local : local - network
    if (diff <= tolerance) {
      if (matching === 0) firstMatchNetwork = network
      matching++
    } else {
      matching = 0
      firstMatchNetwork = null
    }
    onProgress({ local, network, behind, matching, needed: samples })
    const advanced = firstMatchNetwork !== null && network > firstMatchNetwork
    if (matching >= samples && (advanced || allowIdleChain)) {
      return { synced: true, local: local.toString(), network: network.toString(), polls }
    }
    if (Date.now() > deadline) throw new NotSyncedError(local, network, Math.round(timeoutMs / 1000))
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
