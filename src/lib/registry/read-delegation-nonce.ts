/**
 * The validator's delegation nonce. No view exposes it in either generation (registry.md §3,
 * registry-next.md §6): it is read the only way the code allows, through the registry's own
 * `delegationDigest`, by finding the nonce whose locally computed digest equals it (the local
 * computation is checked against the registry's at the same time). Null when the validator
 * holds no ConsensusNFT (the digest view then reverts: there is no nonce to speak of).
 */
import type { Address, Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { DelegationDigestMismatchError } from './errors.js'
import type { RegistryAdapter } from './generations/adapter.js'
import { findDelegationNonce } from './generations/delegation-hash.js'
import { orNullOnRevert } from './reads.js'
import type { RegistryContext } from './types.js'

/** Any 96 bytes serve as the key: the nonce does not depend on it (only the digest does). */
const PROBE_KEY: Hex = `0x${'00'.repeat(96)}`
const PROBE_DELEGATOR: Address = '0x0000000000000000000000000000000000000000'

export type ReadDelegationNonceParameters = {
  adapter: RegistryAdapter
  chain: ChainInfo
  validator: Address
  /** The current epoch's stake version (read by the caller in its first batch). */
  stakeVersion: number
}

/**
 * @example const nonce = await readDelegationNonce(ctx, { adapter, chain, validator, stakeVersion })
 */
export async function readDelegationNonce(
  ctx: RegistryContext,
  { adapter, chain, validator, stakeVersion }: ReadDelegationNonceParameters,
): Promise<bigint | null> {
  const deadline = adapter.features.deadline ? 0n : null
  const onChain = await orNullOnRevert(
    adapter.readDelegationDigest(ctx.client, ctx.target.registry, {
      blsPubkey: PROBE_KEY,
      validator,
      delegator: PROBE_DELEGATOR,
      deadline,
    }),
  )
  if (onChain === null) return null
  return nonceFromDigest({ adapter, chain, registry: ctx.target.registry, validator, stakeVersion, onChain })
}

/** The nonce of a digest the registry returned for the probe inputs; throws when none matches. */
export function nonceFromDigest(p: {
  adapter: RegistryAdapter
  chain: ChainInfo
  registry: Address
  validator: Address
  stakeVersion: number
  onChain: Hex
  blsPubkey?: Hex
  delegator?: Address
  deadline?: bigint | null
}): bigint {
  const nonce = findDelegationNonce(
    p.adapter.delegationType,
    {
      chainId: p.chain.chainId,
      registry: p.registry,
      blsPubkey: p.blsPubkey ?? PROBE_KEY,
      validator: p.validator,
      delegator: p.delegator ?? PROBE_DELEGATOR,
      validatorVersion: p.stakeVersion,
      deadline: p.deadline !== undefined ? p.deadline : p.adapter.features.deadline ? 0n : null,
    },
    p.onChain,
  )
  if (nonce === null)
    throw new DelegationDigestMismatchError({
      registry: p.registry,
      generation: p.adapter.generation,
      onChain: p.onChain,
    })
  return nonce
}
