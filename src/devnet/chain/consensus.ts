/**
 * The devnet's simulated consensus. A real network orders transactions with Bullshark: each
 * commit has a leader, a commit timestamp and reputation scores, and at the epoch's end the
 * node rewards each leader by its consensus-header count (`applyIncentives`). The devnet has no
 * consensus: anvil mines blocks. So the devnet treats every block as one commit and gives it a
 * leader from the committee of the epoch the block belongs to, round-robin in the registry's
 * committee order:
 *
 *   leader(block b of epoch E) = committee(E)[(b − firstBlock(E)) mod |committee(E)|]
 *
 * Blocks are counted from max(firstBlock(E), 1) (the genesis block has no leader) through the
 * block that concludes E. The same rule gives `applyIncentives`' header counts at the boundary
 * (system-calls.ts) and the reference node's `tn_latestConsensusHeader` scores, so what the
 * node reports and what the registry credits agree, on the devnet and in any node that joins it.
 */
import { blake3 } from '@noble/hashes/blake3.js'
import type { Address } from 'viem'
import { base58Encode } from '../../lib/io/base58.js'

export type RewardInfo = { validatorAddress: Address; consensusHeaderCount: bigint }

/** The index in the epoch's committee of the leader of `blockNumber` (first block of the epoch: `epochStart`). */
export function leaderIndex(blockNumber: bigint, epochStart: bigint, committeeSize: number): number {
  if (committeeSize <= 0) throw new RangeError('the committee is empty')
  const offset = blockNumber - epochStart
  if (offset < 0n) throw new RangeError(`block ${blockNumber} is before the epoch's first block ${epochStart}`)
  return Number(offset % BigInt(committeeSize))
}

/** The first block of an epoch that has a leader (the genesis block has none). */
function firstLedBlock(epochStart: bigint): bigint {
  return epochStart > 1n ? epochStart : 1n
}

/**
 * How many blocks each committee member led in the epoch starting at `epochStart`, from its first
 * led block through `throughBlock` (inclusive), in committee order.
 * @example leaderCounts([a, b], 10n, 14n) // a: 10, 12, 14 → 3; b: 11, 13 → 2
 */
export function leaderCounts(committee: readonly Address[], epochStart: bigint, throughBlock: bigint): bigint[] {
  const n = committee.length
  const counts = committee.map(() => 0n)
  const first = firstLedBlock(epochStart)
  if (n === 0 || throughBlock < first) return counts
  const blocks = throughBlock - first + 1n
  const full = blocks / BigInt(n)
  for (let i = 0; i < n; i++) counts[i] = full
  // the partial round starts at the leader of `first`
  const start = leaderIndex(first, epochStart, n)
  const rest = Number(blocks % BigInt(n))
  for (let k = 0; k < rest; k++) {
    const i = (start + k) % n
    counts[i] = (counts[i] as bigint) + 1n
  }
  return counts
}

/**
 * `applyIncentives`' argument for the epoch: one entry per committee member (merged when an
 * address sits twice), zero counts included (the registry skips them).
 */
export function headerCounts(committee: readonly Address[], epochStart: bigint, throughBlock: bigint): RewardInfo[] {
  const counts = leaderCounts(committee, epochStart, throughBlock)
  const merged = new Map<string, RewardInfo>()
  committee.forEach((validatorAddress, i) => {
    const key = validatorAddress.toLowerCase()
    const prior = merged.get(key)
    const c = counts[i] as bigint
    if (prior) prior.consensusHeaderCount += c
    else merged.set(key, { validatorAddress, consensusHeaderCount: c })
  })
  return [...merged.values()]
}

/**
 * A validator's authority id as the node derives it: BLAKE3 of the 96-byte compressed BLS public
 * key, written in base58 in JSON (telcoin-network `AuthorityIdentifier`).
 */
export function authorityId(blsPublicKey: Uint8Array): string {
  if (blsPublicKey.length !== 96) throw new RangeError(`bls_public_key: expected 96 bytes, got ${blsPublicKey.length}`)
  return base58Encode(blake3(blsPublicKey))
}
