/**
 * The EIP-712 delegation a validator signs so that a delegator may stake for it (spec rule 2).
 * Domain {name "ConsensusRegistry", version "1", chainId, verifyingContract: registry};
 * type Delegation(bytes32 blsPubkeyHash, address validatorAddress, address delegator,
 * uint8 stakeVersion, uint64 nonce, uint256 deadline), blsPubkeyHash = keccak256(blsPubkey).
 * The digest is computed locally (viem hashTypedData) and, when an endpoint is at hand,
 * cross-checked with the registry's own `delegationDigest` view.
 */
import { type Address, type Hex, hashTypedData, keccak256 } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { TnvError } from '../errors.js'
import { registryAbi } from './abi.js'
import { withRpcErrors } from './reads.js'
import type { RegistryContext } from './types.js'

export const DELEGATION_TYPES = {
  Delegation: [
    { name: 'blsPubkeyHash', type: 'bytes32' },
    { name: 'validatorAddress', type: 'address' },
    { name: 'delegator', type: 'address' },
    { name: 'stakeVersion', type: 'uint8' },
    { name: 'nonce', type: 'uint64' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export type DelegationInputs = {
  chainId: number
  registry: Address
  blsPubkey: Hex
  validator: Address
  delegator: Address
  stakeVersion: number
  nonce: bigint
  deadline: bigint
}

/** The typed data to sign (viem `signTypedData`) or hash. */
export function delegationTypedData({
  chainId,
  registry,
  blsPubkey,
  validator,
  delegator,
  stakeVersion,
  nonce,
  deadline,
}: DelegationInputs) {
  return {
    domain: { name: 'ConsensusRegistry', version: '1', chainId, verifyingContract: registry },
    types: DELEGATION_TYPES,
    primaryType: 'Delegation',
    message: {
      blsPubkeyHash: keccak256(blsPubkey),
      validatorAddress: validator,
      delegator,
      stakeVersion,
      nonce,
      deadline,
    },
  } as const
}

/** The 32-byte EIP-712 digest, computed locally. */
export function computeDelegationDigest(inputs: DelegationInputs): Hex {
  return hashTypedData(delegationTypedData(inputs))
}

/** The registry's digest differs from tnv's: the contract's domain or type is not the documented one. */
export class DelegationDigestMismatchError extends TnvError {
  constructor(params: { local: Hex; onChain: Hex; registry: string }) {
    super(
      `The registry at ${params.registry} computes delegation digest ${params.onChain}, but tnv computes ${params.local} for the same inputs.`,
      {
        fix: 'The registry uses another EIP-712 domain or type than tnv; do not sign. Check --registry and the network, and report it.',
      },
    )
  }
}

export type ReadDelegationDigestParameters = {
  blsPubkey: Hex
  validator: Address
  delegator: Address
  deadline: bigint
}

export type ReadDelegationDigestReturnType = {
  chain: ChainInfo
  inputs: DelegationInputs
  digest: Hex
}

/**
 * Reads the current stake version and the validator's nonce, computes the digest locally and
 * checks it against `delegationDigest(...)`, all in one batch.
 * @example const { digest, inputs } = await readDelegationDigest(ctx, { blsPubkey, validator, delegator, deadline })
 */
export async function readDelegationDigest(
  ctx: RegistryContext,
  { blsPubkey, validator, delegator, deadline }: ReadDelegationDigestParameters,
): Promise<ReadDelegationDigestReturnType> {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: registryAbi } as const
  const [chainId, stakeVersion, nonce, onChain] = await withRpcErrors(target, () =>
    Promise.all([
      client.getChainId(),
      client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
      client.readContract({ ...registry, functionName: 'delegationNonce', args: [validator] }),
      client.readContract({
        ...registry,
        functionName: 'delegationDigest',
        args: [blsPubkey, validator, delegator, deadline],
      }),
    ]),
  )
  const chain = checkChainId(target, chainId)
  const inputs: DelegationInputs = {
    chainId,
    registry: target.registry,
    blsPubkey,
    validator,
    delegator,
    stakeVersion,
    nonce,
    deadline,
  }
  const digest = computeDelegationDigest(inputs)
  if (digest.toLowerCase() !== onChain.toLowerCase())
    throw new DelegationDigestMismatchError({ local: digest, onChain, registry: target.registry })
  return { chain, inputs, digest }
}
