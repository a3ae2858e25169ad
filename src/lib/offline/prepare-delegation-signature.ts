/**
 * `tnv offline prepare delegation-signature`: everything of `tnv delegation sign` that needs
 * the network or the BLS key, done on the networked host, for a validator whose ECDSA key is
 * offline: the registry's digest for (key, validator, delegator, deadline), reproduced locally
 * (stake version and delegation nonce found), the checks (not staked, not retired, key not
 * registered, deadline ahead) and the proof of possession of the generation. The bundle holds
 * the digest and every input of it; `tnv offline sign` signs the digest with the validator's
 * key. Nothing is signed here.
 */
import { type Address, type Hex, keccak256 } from 'viem'
import { BadInputError } from '../errors.js'
import { matchRegistryDigest } from '../registry/delegation-digest.js'
import { readFirstBatch } from '../registry/first-batch.js'
import { sharedRegistryAbi } from '../registry/generations/shared-abi.js'
import { statusOf } from '../registry/read-own-validator.js'
import { orNullOnRevert } from '../registry/reads.js'
import { assertDelegatable, checkDeadline } from '../registry/sign-delegation.js'
import { checkStakeKeyMaterial, resolveStakeProof } from '../registry/stake-checks.js'
import type { RegistryContext, Reporter } from '../registry/types.js'
import { BUNDLE_FORMAT, BUNDLE_VERSION, DELEGATION_SIGNATURE_STEP, type DelegationBundle, sealed } from './bundle.js'
import { describeDelegationIntent } from './intent.js'
import type { StakeBundleMaterial } from './prepare-bundle.js'

export type PrepareDelegationSignatureParameters = {
  /** The validator (its key signs offline). */
  validator: Address
  /** The address that will submit delegateStake and pay the stake. */
  delegator: Address
  /** Unix seconds (next generation; ignored on adiri, whose signatures have no deadline). */
  deadline: bigint | null
  stake: StakeBundleMaterial
  expiresInSeconds: number
  prepareCommand: string
  report?: Reporter | undefined
  now?: Date | undefined
}

/**
 * @example const bundle = await prepareDelegationSignature(ctx, { validator, delegator, deadline, stake, expiresInSeconds: 86400, prepareCommand })
 */
export async function prepareDelegationSignature(
  ctx: RegistryContext,
  params: PrepareDelegationSignatureParameters,
): Promise<DelegationBundle> {
  const { validator, delegator, stake, report } = params
  const now = params.now ?? new Date()
  const nowSeconds = BigInt(Math.floor(now.getTime() / 1000))
  checkDelegationInputs(params)
  const { chain, adapter, stakeVersion, record, retired, keyRegistered, epoch, code } = await readDelegationState(
    ctx,
    params,
  )
  assertDelegatable({ validator, record, retired, keyRegistered })
  const status = statusOf(record)
  const deadline = checkDeadline(adapter, params.deadline, nowSeconds)
  const { inputs, digest, domainSeparator, structHash } = await matchRegistryDigest(ctx, {
    adapter,
    chain,
    stakeVersion,
    request: { blsPubkey: stake.blsPubkey, validator, delegator, deadline },
  })
  report?.({
    type: 'step',
    message: `registry ${adapter.generation}: digest ${digest} reproduced locally (stake version ${stakeVersion}, nonce ${inputs.nonce})`,
  })
  const proof = await resolveStakeProof({ ...stake, adapter, validator })
  return sealed<DelegationBundle>({
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    step: DELEGATION_SIGNATURE_STEP,
    createdAt: now.toISOString(),
    expiresAt: expiresAtOf(now, params.expiresInSeconds, deadline),
    chain: { chainId: chain.chainId, name: chain.name },
    registry: { address: ctx.target.registry, codeHash: keccak256(code as Hex), generation: adapter.generation },
    delegation: {
      validator,
      delegator,
      blsPubkey: stake.blsPubkey,
      stakeVersion,
      nonce: inputs.nonce.toString(),
      deadline: deadline === null ? null : deadline.toString(),
      digest,
      domainSeparator,
      structHash,
      proof,
    },
    preconditions: { validator, status, stakeVersion, epoch },
    intent: describeDelegationIntent({
      validator,
      delegator,
      blsPubkey: stake.blsPubkey,
      deadline,
      revocable: adapter.features.increaseNonce,
    }),
    keyBinding: keyBindingOf(stake),
    prepareCommand: params.prepareCommand,
  })
}

/** `expiresInSeconds` from now; a bundle never outlives the signature's deadline. */
function expiresAtOf(now: Date, expiresInSeconds: number, deadline: bigint | null): string {
  const expires = Math.min(
    now.getTime() + expiresInSeconds * 1000,
    deadline === null ? Number.POSITIVE_INFINITY : Number(deadline) * 1000,
  )
  return new Date(expires).toISOString()
}

/** Before any read: the key material is well-formed and the delegator is not the validator itself. */
function checkDelegationInputs({ validator, delegator, stake }: PrepareDelegationSignatureParameters): void {
  checkStakeKeyMaterial({ ...stake, validator })
  if (delegator.toLowerCase() === validator.toLowerCase())
    throw new BadInputError(`The delegator ${delegator} is the validator itself.`, {
      fix: 'A validator stakes for itself with `tnv offline prepare stake`; pass --delegator with the address that will pay the stake.',
    })
}

/** The first batch: chain, generation, stake version, the validator's and the key's state, the epoch, the registry code. */
async function readDelegationState(
  ctx: RegistryContext,
  { validator, stake, report }: PrepareDelegationSignatureParameters,
) {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const first = await readFirstBatch(ctx, { purpose: 'write', action: 'a delegation signature', report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
      client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
      client.readContract({ ...registry, functionName: 'isValidator', args: [stake.blsPubkey] }),
      client.readContract({ ...registry, functionName: 'getCurrentEpoch' }),
      client.getCode({ address: target.registry }),
    ]),
  )
  const [stakeVersion, record, retired, keyRegistered, epoch, code] = first.values
  return { chain: first.chain, adapter: first.adapter, stakeVersion, record, retired, keyRegistered, epoch, code }
}

/** The key material the delegation binds, recorded for the offline machine's check. */
function keyBindingOf(stake: StakeBundleMaterial): DelegationBundle['keyBinding'] {
  return {
    blsPubkey: stake.blsPubkey,
    proofOfPossession: stake.proofOfPossession ?? null,
    executionAddress: stake.executionAddress ?? null,
    nodeInfo: stake.nodeInfo,
    keyOnDisk: stake.keyOnDisk,
  }
}
