/**
 * The digest a validator signs so that a delegator may stake for it (spec rule 2), exactly as
 * the deployed registry computes it (./generations/delegation-hash.ts: zero-hash domain,
 * `validatorVersion`, the generation's key hash; adiri has no deadline).
 * Online: the registry's own `delegationDigest(...)` is read, and tnv reproduces it locally by
 * finding the validator's nonce (no view exposes it); a digest tnv cannot reproduce is an error,
 * never a signature. Offline: computed from values the operator states, nothing contacted.
 */
import type { Address, Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { NotWhitelistedError } from './errors.js'
import { readFirstBatch } from './first-batch.js'
import type { RegistryAdapter } from './generations/adapter.js'
import { registryAdapters } from './generations/adapters.js'
import { type DelegationDigestInputs, delegationDigestParts } from './generations/delegation-hash.js'
import type { RegistryGeneration } from './generations/detect.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { nonceFromDigest } from './read-delegation-nonce.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import type { RegistryContext } from './types.js'

export type { DelegationDigestInputs }

export type DelegationRequest = {
  blsPubkey: Hex
  validator: Address
  delegator: Address
  /** Unix seconds; the next generation signs it, adiri has none (pass null). */
  deadline: bigint | null
}

export type DelegationDigest = {
  generation: RegistryGeneration
  inputs: DelegationDigestInputs
  digest: Hex
  /** The digest's EIP-712 halves (digest = keccak256(0x1901 ‖ domainSeparator ‖ structHash)), for hardware signers. */
  domainSeparator: Hex
  structHash: Hex
}

export type ReadDelegationDigestReturnType = DelegationDigest & {
  chain: ChainInfo
  registry: RegistryInfo
  adapter: RegistryAdapter
}

/**
 * Online: the registry's digest for these inputs, reproduced locally (nonce found) or refused.
 * @example const { digest, inputs } = await readDelegationDigest(ctx, { blsPubkey, validator, delegator, deadline })
 */
export async function readDelegationDigest(
  ctx: RegistryContext,
  request: DelegationRequest,
): Promise<ReadDelegationDigestReturnType> {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [stakeVersion],
  } = await readFirstBatch(ctx, { purpose: 'write', action: 'a delegation digest' }, () =>
    Promise.all([client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' })]),
  )
  const matched = await matchRegistryDigest(ctx, { adapter, chain, stakeVersion, request })
  return { chain, registry: info, adapter, generation: adapter.generation, ...matched }
}

export type MatchRegistryDigestParameters = {
  adapter: RegistryAdapter
  chain: ChainInfo
  /** The current epoch's stake version, read in the caller's first batch. */
  stakeVersion: number
  request: DelegationRequest
}

/**
 * Reads the registry's `delegationDigest` for the request (one eth_call) and reproduces it
 * locally: the inputs, with the nonce that gives the registry's digest.
 * @throws NotWhitelistedError (the view reverts for a validator without a ConsensusNFT), DelegationDigestMismatchError
 */
export async function matchRegistryDigest(
  ctx: RegistryContext,
  { adapter, chain, stakeVersion, request }: MatchRegistryDigestParameters,
): Promise<Pick<DelegationDigest, 'inputs' | 'digest' | 'domainSeparator' | 'structHash'>> {
  const { client, target } = ctx
  const deadline = adapter.features.deadline ? (request.deadline ?? 0n) : null
  const onChain = await withRpcErrors(
    target,
    () =>
      orNullOnRevert(
        adapter.readDelegationDigest(client, target.registry, {
          blsPubkey: request.blsPubkey,
          validator: request.validator,
          delegator: request.delegator,
          deadline,
        }),
      ),
    adapter.errorAbi,
  )
  if (onChain === null) throw new NotWhitelistedError(request.validator)
  const nonce = nonceFromDigest({
    adapter,
    chain,
    registry: target.registry,
    validator: request.validator,
    stakeVersion,
    onChain,
    blsPubkey: request.blsPubkey,
    delegator: request.delegator,
    deadline,
  })
  const inputs: DelegationDigestInputs = {
    chainId: chain.chainId,
    registry: target.registry,
    blsPubkey: request.blsPubkey,
    validator: request.validator,
    delegator: request.delegator,
    validatorVersion: stakeVersion,
    nonce,
    deadline,
  }
  const { domainSeparator, structHash } = delegationDigestParts(adapter.delegationType, inputs)
  return { inputs, digest: onChain, domainSeparator, structHash }
}

export type OfflineDelegationParameters = DelegationRequest & {
  generation: RegistryGeneration
  chainId: number
  registry: Address
  stakeVersion: number
  nonce: bigint
}

/**
 * Offline: the digest the registry of that generation would compute, from stated values.
 * @example computeOfflineDelegationDigest({ generation: 'adiri', chainId: 2017, registry, stakeVersion: 0, nonce: 0n, ... })
 */
export function computeOfflineDelegationDigest(p: OfflineDelegationParameters): DelegationDigest {
  const adapter = registryAdapters[p.generation]
  const inputs: DelegationDigestInputs = {
    chainId: p.chainId,
    registry: p.registry,
    blsPubkey: p.blsPubkey,
    validator: p.validator,
    delegator: p.delegator,
    validatorVersion: p.stakeVersion,
    nonce: p.nonce,
    deadline: adapter.features.deadline ? (p.deadline ?? 0n) : null,
  }
  return { generation: p.generation, inputs, ...delegationDigestParts(adapter.delegationType, inputs) }
}
