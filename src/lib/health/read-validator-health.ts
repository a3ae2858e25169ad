/**
 * The validator's side of a node check, from the network's endpoint (not the local node, which
 * may lag): `readValidatorStatus` (two batched round trips) plus the next epoch's committee
 * (`getEpochInfo(current + 1)`: the registry keeps committees up to two epochs ahead,
 * real-network/registry.md) in a third. The authority id under which the consensus header lists
 * the validator's reputation is BLAKE3 of its 96-byte BLS key, base58 (telcoin-network
 * `AuthorityIdentifier`; tn_info.authority_id reports the same).
 */
import { blake3 } from '@noble/hashes/blake3.js'
import { type Address, hexToBytes } from 'viem'
import { base58Encode } from '../io/base58.js'
import { sharedRegistryAbi } from '../registry/generations/shared-abi.js'
import { readValidatorStatus, type ValidatorStatus } from '../registry/read-validator-status.js'
import { orNullOnRevert } from '../registry/reads.js'
import type { RegistryContext } from '../registry/types.js'
import type { ValidatorFacts } from './types.js'

export type ReadValidatorHealthParameters = { address: Address }

export type ReadValidatorHealthReturnType = { status: ValidatorStatus; facts: Omit<ValidatorFacts, 'reputationScore'> }

export async function readValidatorHealth(
  ctx: RegistryContext,
  { address }: ReadValidatorHealthParameters,
): Promise<ReadValidatorHealthReturnType> {
  const status = await readValidatorStatus(ctx, { address })
  const next = await orNullOnRevert(
    ctx.client.readContract({
      address: ctx.target.registry,
      abi: sharedRegistryAbi,
      functionName: 'getEpochInfo',
      args: [status.currentEpoch + 1],
    }),
  ).catch(() => null)
  const lower = address.toLowerCase()
  return {
    status,
    facts: {
      address,
      whitelisted: status.whitelisted,
      status: status.status,
      activationEpoch: status.activationEpoch,
      exitEpoch: status.exitEpoch,
      currentEpoch: status.currentEpoch,
      inCommittee: status.inCommittee,
      inNextCommittee: next === null ? null : next.committee.some((a) => a.toLowerCase() === lower),
      rewards: status.rewards,
      blsPubkey: status.blsPubkey,
      authorityId: status.blsPubkey ? authorityIdOf(status.blsPubkey) : null,
      secondsToNextEpoch: status.secondsToNextEpoch,
      registry: { generation: status.registry.generation, codeHash: status.registry.codeHash },
    },
  }
}

/** base58(BLAKE3(compressed BLS public key)), the node's authority id. */
export function authorityIdOf(blsPublicKey: `0x${string}` | Uint8Array): string {
  const bytes = typeof blsPublicKey === 'string' ? hexToBytes(blsPublicKey) : blsPublicKey
  if (bytes.length !== 96) throw new RangeError(`bls public key: expected 96 bytes, got ${bytes.length}`)
  return base58Encode(blake3(bytes))
}
