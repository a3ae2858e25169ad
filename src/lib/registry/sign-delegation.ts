/**
 * The validator's side of a delegation: its ECDSA signature of the registry's delegation digest
 * as a raw 32-byte hash (what the deployed registries verify; a typed-data signature over the
 * domain `eip712Domain()` reports would be rejected, see ./generations/delegation-hash.ts),
 * made with the validator's key only. Online, the digest is the registry's own, reproduced
 * locally before signing; offline (generation, stake version and nonce stated), computed with
 * nothing contacted. The file also carries the proof of possession of the generation (adiri:
 * signed with the BLS key, which only the validator holds).
 */
import { type Address, type Hex, type LocalAccount, recoverAddress } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { BadInputError, UsageError } from '../errors.js'
import { deadlineIso } from './deadline.js'
import {
  computeOfflineDelegationDigest,
  type DelegationDigestInputs,
  matchRegistryDigest,
} from './delegation-digest.js'
import { type DelegationSignatureFile, toDelegationFile } from './delegation-file.js'
import {
  AddressRetiredError,
  BlsKeyAlreadyRegisteredError,
  InvalidDelegationSignatureError,
  WrongStatusError,
} from './errors.js'
import { readFirstBatch } from './first-batch.js'
import type { RegistryAdapter } from './generations/adapter.js'
import { registryAdapters } from './generations/adapters.js'
import type { RegistryGeneration } from './generations/detect.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { statusOf } from './read-own-validator.js'
import { orNullOnRevert } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import { checkStakeKeyMaterial, resolveStakeProof, type SignAdiriProof, type StakeKeyMaterial } from './stake-checks.js'
import type { RegistryContext, Reporter } from './types.js'

export type SignDelegationSource =
  /** Read the stake version and the registry's digest, and reproduce it before signing. */
  | { mode: 'online'; ctx: RegistryContext }
  /** Sign with values the operator states; no endpoint is contacted. */
  | {
      mode: 'offline'
      generation: RegistryGeneration
      chainId: number
      registry: Address
      stakeVersion: number
      nonce: bigint
    }

/** Who signs the digest: the validator's key here, or a signature made elsewhere (a hardware wallet). */
export type DelegationSigner =
  | { kind: 'key'; account: LocalAccount }
  /** A 65-byte signature of the digest made by another signer; checked to recover to the validator. */
  | { kind: 'external'; validator: Address; signature: Hex }

export type SignDelegationParameters = StakeKeyMaterial & {
  source: SignDelegationSource
  /** The validator (the address whitelisted for the stake) or its signature. */
  signer: DelegationSigner
  delegator: Address
  /** Unix seconds (next generation); ignored on adiri, whose signatures have no deadline. */
  deadline: bigint | null
  /** adiri: signs the 218-byte proof with the BLS key; called only when needed. */
  signAdiriProof?: SignAdiriProof | undefined
  /** For the past-deadline check; default: the clock. */
  nowSeconds?: bigint | undefined
  report?: Reporter | undefined
}

export type SignDelegationReturnType = {
  /** null offline */
  chain: ChainInfo | null
  registry: RegistryInfo | null
  file: DelegationSignatureFile
}

/**
 * @example const { file } = await signDelegation({ source: { mode: 'online', ctx }, signer: { kind: 'key', account }, delegator, deadline, blsPubkey, proofOfPossession })
 */
export async function signDelegation(params: SignDelegationParameters): Promise<SignDelegationReturnType> {
  const { signer } = params
  const nowSeconds = params.nowSeconds ?? BigInt(Math.floor(Date.now() / 1000))
  const validator = signer.kind === 'key' ? signer.account.address : signer.validator
  const sign = checkSigningInputs(params, validator)
  const { chain, info, adapter, inputs, digest } = await delegationDigest(params, validator, nowSeconds)
  const proof = await resolveStakeProof({ ...params, adapter, validator })
  const signature =
    signer.kind === 'external'
      ? await checkedExternalSignature(signer, digest, validator)
      : await (sign as NonNullable<typeof sign>)({ hash: digest })
  return { chain, registry: info, file: toDelegationFile(adapter.generation, inputs, { proof, digest, signature }) }
}

/**
 * The digest the validator signs, with every read and refusal of the run before it: the key
 * material is well-formed and the delegator is not the validator; online, the validator may still
 * be delegated to and the registry's own digest is reproduced; the deadline fits the generation.
 * Signs nothing (`signDelegation`, and `--check` through ./check-delegation-signature.ts).
 */
export async function delegationDigest(
  params: Omit<SignDelegationParameters, 'signer'>,
  validator: Address,
  nowSeconds: bigint,
): Promise<DigestFound> {
  const { source, delegator } = params
  checkStakeKeyMaterial({ ...params, validator })
  if (delegator.toLowerCase() === validator.toLowerCase())
    throw new BadInputError(`The delegator ${delegator} is the validator itself.`, {
      fix: 'A validator stakes for itself with `tnv stake`; pass --delegator with the address that will pay the stake.',
    })
  return source.mode === 'online'
    ? registryDigest(source.ctx, params, validator, nowSeconds)
    : offlineDigest(source, params, validator, nowSeconds)
}

/** A key here can sign a raw 32-byte digest: its signing function, given back before anything is read. */
function checkSigningInputs(params: SignDelegationParameters, validator: Address): LocalAccount['sign'] {
  const { signer } = params
  const sign = signer.kind === 'key' ? signer.account.sign : undefined
  if (signer.kind === 'key' && !sign)
    throw new UsageError(`The key of ${validator} cannot sign a raw 32-byte digest.`, {
      fix: 'Use TN_PRIVATE_KEY or --keystore for the validator key, or sign the digest elsewhere and pass --external-signature (docs/staking.md lists which hardware signers can).',
    })
  return sign
}

/** The digest, its inputs and the generation, with the chain and registry read online (null offline). */
export type DigestFound = {
  chain: ChainInfo | null
  info: RegistryInfo | null
  adapter: RegistryAdapter
  inputs: DelegationDigestInputs
  digest: Hex
}

/**
 * Online: the validator may still be delegated to (assertDelegatable), and
 * the registry's own digest for the request is reproduced locally.
 */
async function registryDigest(
  ctx: RegistryContext,
  { blsPubkey, delegator, report, deadline: requested }: Omit<SignDelegationParameters, 'signer'>,
  validator: Address,
  nowSeconds: bigint,
): Promise<DigestFound> {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const first = await readFirstBatch(ctx, { purpose: 'write', action: 'a delegation signature', report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
      client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
      client.readContract({ ...registry, functionName: 'isValidator', args: [blsPubkey] }),
    ]),
  )
  const [stakeVersion, record, retired, keyRegistered] = first.values
  const { chain, adapter } = first
  assertDelegatable({ validator, record, retired, keyRegistered })
  const deadline = checkDeadline(adapter, requested, nowSeconds)
  const { inputs, digest } = await matchRegistryDigest(ctx, {
    adapter,
    chain,
    stakeVersion,
    request: { blsPubkey, validator, delegator, deadline },
  })
  report?.({
    type: 'step',
    message: `registry ${adapter.generation}: digest ${digest} reproduced locally (stake version ${stakeVersion}, nonce ${inputs.nonce})`,
  })
  return { chain, info: first.registry, adapter, inputs, digest }
}

/** Offline: the digest of the stated generation, chain, registry, stake version and nonce; nothing contacted. */
function offlineDigest(
  source: Extract<SignDelegationSource, { mode: 'offline' }>,
  { blsPubkey, delegator, deadline: requested }: Omit<SignDelegationParameters, 'signer'>,
  validator: Address,
  nowSeconds: bigint,
): DigestFound {
  const adapter = registryAdapters[source.generation]
  const deadline = checkDeadline(adapter, requested, nowSeconds)
  const { inputs, digest } = computeOfflineDelegationDigest({
    generation: source.generation,
    chainId: source.chainId,
    registry: source.registry,
    stakeVersion: source.stakeVersion,
    nonce: source.nonce,
    blsPubkey,
    validator,
    delegator,
    deadline,
  })
  return { chain: null, info: null, adapter, inputs, digest }
}

/** A signature made elsewhere recovers to the validator over this digest. */
export async function checkedExternalSignature(
  signer: Extract<DelegationSigner, { kind: 'external' }>,
  digest: Hex,
  validator: Address,
): Promise<Hex> {
  const recovered = await recoverAddress({ hash: digest, signature: signer.signature }).catch(() => null)
  if (recovered?.toLowerCase() !== validator.toLowerCase())
    throw new InvalidDelegationSignatureError(
      `The signature given ${recovered ? `recovers to ${recovered}` : 'is not a valid signature'} over digest ${digest}, not to the validator ${validator}: it was made by another key, or over another digest (a wallet's typed-data or personal signing hashes differently; sign this digest as a raw hash).`,
    )
  return signer.signature
}

/** next: a deadline in the future (required); adiri: none. */
/**
 * A delegation can be used only for a validator that has not staked, is not retired, and whose
 * BLS key the registry does not hold yet: refused otherwise, before anything is signed.
 */
export function assertDelegatable({
  validator,
  record,
  retired,
  keyRegistered,
}: {
  validator: Address
  record: Parameters<typeof statusOf>[0]
  retired: boolean
  keyRegistered: boolean
}): void {
  if (retired) throw new AddressRetiredError(validator)
  const status = statusOf(record)
  if (status !== 'Undefined')
    throw new WrongStatusError(
      `${validator} is ${status}: it has staked already, so a delegation for it can never be used.`,
      'Check it with `tnv validator status`.',
    )
  if (keyRegistered) throw new BlsKeyAlreadyRegisteredError()
}

/** The deadline a generation's delegation signature carries: required and in the future there, null elsewhere. */
export function checkDeadline(adapter: RegistryAdapter, deadline: bigint | null, now: bigint): bigint | null {
  if (!adapter.features.deadline) return null
  if (deadline === null)
    throw new UsageError(
      `The ${adapter.generation} registry's delegation signatures carry a deadline, and none was given.`,
      {
        fix: 'Pass --deadline (e.g. 24h or 7d).',
      },
    )
  if (deadline <= now)
    throw new BadInputError(`The deadline ${deadline} (${deadlineIso(deadline)}) is in the past.`, {
      fix: 'Pass a later --deadline, such as 24h or 7d.',
    })
  return deadline
}
