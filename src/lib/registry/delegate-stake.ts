/**
 * The delegator's side: `delegateStake` in the generation's form (adiri
 * `delegateStake(bytes,(bytes,bytes),address,bytes)`, next `…,bytes,uint256 deadline)`),
 * paying the stake amount. Before anything is sent: the file's generation, chain and registry
 * match what is found; the signature recovers to the validator over the file's digest; the
 * file's digest is what its inputs give; the registry's digest for the same inputs is still
 * that digest (else the reason: the deadline passed, the stake version or the validator's
 * nonce changed); the proof of possession verifies; the validator is whitelisted and has not
 * staked. The registry owner may delegate without a signature (governance-initiated
 * delegation). Idempotent like `stake`.
 */
import { type Address, type Hex, recoverAddress } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { InsufficientFundsError } from '../chain/errors.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import { UsageError } from '../errors.js'
import type { StepRun } from '../tx/run-step.js'
import { deadlineIso } from './deadline.js'
import { type DelegationSignatureFile, delegationInputsOf } from './delegation-file.js'
import {
  AddressRetiredError,
  BlsKeyAlreadyRegisteredError,
  DelegationExpiredError,
  DelegationRevokedError,
  DelegationStakeVersionError,
  InvalidDelegationSignatureError,
  NotRegistryOwnerError,
  NotWhitelistedError,
  WrongStatusError,
} from './errors.js'
import { readFirstBatch } from './first-batch.js'
import type { StakeProof } from './generations/adapter.js'
import { verifyAdiriProof } from './generations/adiri-proof.js'
import { computeDelegationDigest } from './generations/delegation-hash.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { nonceFromDigest } from './read-delegation-nonce.js'
import { statusOf } from './read-own-validator.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import { readStakeAmount } from './stake.js'
import { checkStakeKeyMaterial, resolveStakeProof, type SignAdiriProof, type StakeKeyMaterial } from './stake-checks.js'
import { registryStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, Reporter, TxOutcome } from './types.js'

export type DelegationAuthority =
  /** The validator's signature file from `tnv delegation sign`. */
  | { kind: 'signature'; file: DelegationSignatureFile }
  /** Governance-initiated: the signer is the registry owner; no signature. */
  | ({
      kind: 'owner'
      validator: Address
      /** next: the call's deadline; ignored on adiri. */
      deadline: bigint
      signAdiriProof?: SignAdiriProof | undefined
    } & StakeKeyMaterial)

export type DelegateStakeParameters = OperationOptions & {
  /** The delegator (pays the stake). */
  signer: Signer
  authority: DelegationAuthority
}

export type DelegateStakeReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
  validator: Address
  delegator: Address
  blsPubkey: Hex
  stakeVersion: number
  /** wei */
  stakeAmount: string
}

/**
 * @example await delegateStake(ctx, { signer: delegator, authority: { kind: 'signature', file } })
 */
export async function delegateStake(
  ctx: RegistryContext,
  params: DelegateStakeParameters,
): Promise<DelegateStakeReturnType> {
  return registryStep(ctx, 'delegateStake', params, (run) => delegateStakeStep(ctx, params, run))
}

async function delegateStakeStep(
  ctx: RegistryContext,
  { signer, authority, report, confirm }: DelegateStakeParameters,
  run: StepRun,
): Promise<DelegateStakeReturnType> {
  const delegator = signer.address
  const validator = authority.kind === 'signature' ? authority.file.validator : authority.validator
  const blsPubkey = authority.kind === 'signature' ? authority.file.blsPubkey : authority.blsPubkey
  if (authority.kind === 'owner') checkStakeKeyMaterial({ ...authority, validator })
  else await checkSignatureFileOffline(ctx, authority.file, delegator)

  const state = await readDelegationState(ctx, { validator, blsPubkey, delegator, report })
  const { chain, adapter, version, account } = state
  const base = { chain, registry: state.info, validator, delegator, blsPubkey, stakeVersion: version }
  if (authority.kind === 'signature') checkSignatureFileNetwork(authority.file, state)
  const alreadyDone = await alreadyStakedOutcome(ctx, state, base)
  if (alreadyDone) return alreadyDone

  const now = account.latestBlock.timestamp
  const { proof, signature, deadline } =
    authority.kind === 'owner'
      ? await ownerDelegation(authority, { state, validator, delegator, now })
      : await signedDelegation(ctx, authority.file, { state, delegator, now })
  report?.({
    type: 'step',
    message: `key material${authority.kind === 'signature' ? ', signature and digest' : ''} check out for validator ${validator}${deadline !== null ? `; deadline ${deadlineIso(deadline)} is ${deadline - now} s ahead` : ''}`,
  })

  const stakeAmount = await readStakeAmount(ctx, version)
  if (signer.type !== 'unsigned') checkDelegatorPays(delegator, account.balance, stakeAmount)
  const { outcome } = await submit({
    ctx,
    chain,
    adapter,
    signer,
    account,
    data: adapter.delegateStakeData({ blsPubkey, proof, validator, signature, deadline }),
    value: stakeAmount,
    action: 'delegateStake',
    title: `Stake ${formatTelAndWei(stakeAmount)} for validator ${validator}, paid by delegator ${delegator}`,
    rows: [
      ['validator', validator],
      ['delegator', delegator],
      ['bls public key', blsPubkey],
      // not 'registry': the plan's own row names the registry's address (one key per row in the JSON plan)
      ['function', `${adapter.signatures.delegateStake} (the ${adapter.generation} registry)`],
      ['stake version', String(version)],
      ...(deadline !== null ? [['deadline', deadlineIso(deadline)] as [string, string]] : []),
      ['stake amount', formatTelAndWei(stakeAmount)],
    ],
    revert: { validator, stakeAmount },
    report,
    confirm,
    run,
  })
  return { ...base, stakeAmount: stakeAmount.toString(), ...outcome }
}

/** The delegator holds the stake amount (gas aside: the simulation checks the rest). */
function checkDelegatorPays(delegator: Address, balance: bigint, stakeAmount: bigint): void {
  if (balance < stakeAmount)
    throw new InsufficientFundsError(
      `${delegator} holds ${formatTelAndWei(balance)}, less than the stake amount ${formatTelAndWei(stakeAmount)}.`,
      {
        fix: `Fund ${delegator} with at least ${formatTelAndWei(stakeAmount - balance)} more plus gas, then run the command again.`,
      },
    )
}

/**
 * Before any read: the file names this signer as delegator and this command's registry, and its
 * signature recovers to the validator over the file's digest.
 */
async function checkSignatureFileOffline(
  { target }: RegistryContext,
  file: DelegationSignatureFile,
  delegator: Address,
): Promise<void> {
  const { validator } = file
  if (file.delegator.toLowerCase() !== delegator.toLowerCase())
    throw new InvalidDelegationSignatureError(
      `The validator signed this delegation for delegator ${file.delegator}, but the signer is ${delegator}.`,
    )
  if (file.registry.toLowerCase() !== target.registry.toLowerCase())
    throw new UsageError(
      `The signature is for the registry ${file.registry}, but this command uses ${target.registry}.`,
      {
        fix: 'Pick the network the validator signed for (--chain, --rpc-url, --registry).',
      },
    )
  const recovered = await recoverAddress({ hash: file.digest, signature: file.signature }).catch(() => null)
  if (recovered?.toLowerCase() !== validator.toLowerCase())
    throw new InvalidDelegationSignatureError(
      `The signature in the file ${recovered ? `recovers to ${recovered}` : 'does not recover to any address'}, not to the validator ${validator}: it was made by another key or for another digest.`,
    )
}

type DelegationState = Awaited<ReturnType<typeof readDelegationState>>

/** The first batch: chain, generation, and the validator's, key's, owner's and delegator's state. */
async function readDelegationState(
  ctx: RegistryContext,
  {
    validator,
    blsPubkey,
    delegator,
    report,
  }: { validator: Address; blsPubkey: Hex; delegator: Address; report: Reporter | undefined },
) {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [version, nft, record, retired, keyRegistered, registeredKey, owner, account],
  } = await readFirstBatch(ctx, { purpose: 'write', action: 'delegateStake', report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
      client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
      client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
      client.readContract({ ...registry, functionName: 'isValidator', args: [blsPubkey] }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getBlsPubkey', args: [validator] })),
      client.readContract({ ...registry, functionName: 'owner' }),
      readAccountState(client, delegator),
    ]),
  )
  return { chain, adapter, info, version, nft, record, retired, keyRegistered, registeredKey, owner, account }
}

/** The file was made for the chain and the registry generation found. */
function checkSignatureFileNetwork(file: DelegationSignatureFile, { chain, adapter }: DelegationState): void {
  if (file.chainId !== chain.chainId)
    throw new UsageError(
      `The signature is for chain id ${file.chainId}, but the endpoint is chain id ${chain.chainId}.`,
      {
        fix: 'Pick the network the validator signed for (--chain, --rpc-url).',
      },
    )
  if (file.generation !== adapter.generation)
    throw new UsageError(
      `The signature file is for the ${file.generation} registry, but the registry found is ${adapter.generation}.`,
      { fix: 'Pick the network the validator signed for, or ask for a new signature made against this registry.' },
    )
}

/**
 * `already-done` when the validator staked with this key; null when the stake may go ahead.
 * Throws when it staked another key or retired, is not whitelisted, or the key is registered.
 */
async function alreadyStakedOutcome(
  ctx: RegistryContext,
  { record, retired, registeredKey, version, nft, keyRegistered }: DelegationState,
  base: Omit<DelegateStakeReturnType, keyof TxOutcome | 'stakeAmount'>,
): Promise<DelegateStakeReturnType | null> {
  const { validator, blsPubkey } = base
  const status = retired ? 'Retired' : statusOf(record)
  if (status !== 'Undefined') {
    if (registeredKey?.toLowerCase() === blsPubkey.toLowerCase())
      return {
        ...base,
        stakeAmount: (await readStakeAmount(ctx, record?.stakeVersion ?? version)).toString(),
        outcome: 'already-done',
        message: `${validator} already staked with this BLS key (status ${status === 'Retired' ? 'retired' : status}); nothing was sent.`,
      }
    if (status === 'Retired') throw new AddressRetiredError(validator)
    throw new WrongStatusError(
      `${validator} already staked with another BLS key; its status is ${status}.`,
      'Check it with `tnv validator status`; a validator address stakes once.',
    )
  }
  if (nft === 0n) throw new NotWhitelistedError(validator)
  if (keyRegistered) throw new BlsKeyAlreadyRegisteredError()
  return null
}

/** What the delegateStake call carries besides the key, the validator and the amount. */
type DelegationCall = { proof: StakeProof; signature: Hex; deadline: bigint | null }

/** Governance-initiated: the delegator is the registry owner, the deadline is ahead, the proof verifies. */
async function ownerDelegation(
  authority: Extract<DelegationAuthority, { kind: 'owner' }>,
  { state, validator, delegator, now }: { state: DelegationState; validator: Address; delegator: Address; now: bigint },
): Promise<DelegationCall> {
  const { owner, adapter } = state
  if (owner.toLowerCase() !== delegator.toLowerCase())
    throw new NotRegistryOwnerError({
      signer: delegator,
      owner,
      action: 'delegate stake without a validator signature',
    })
  const deadline = adapter.features.deadline ? authority.deadline : null
  if (deadline !== null && deadline <= now) throw new DelegationExpiredError(deadline)
  const proof = await resolveStakeProof({ ...authority, adapter, validator })
  return { proof, signature: '0x', deadline }
}

/**
 * The validator's signature file: its digest is that of its inputs, the deadline is ahead, the
 * stake version is current, the registry still gives the same digest, and its proof verifies.
 */
async function signedDelegation(
  ctx: RegistryContext,
  file: DelegationSignatureFile,
  { state, delegator, now }: { state: DelegationState; delegator: Address; now: bigint },
): Promise<DelegationCall> {
  const { adapter, version } = state
  const { blsPubkey, validator } = file
  const inputs = delegationInputsOf(file)
  if (computeDelegationDigest(adapter.delegationType, inputs).toLowerCase() !== file.digest.toLowerCase())
    throw new InvalidDelegationSignatureError(
      'The file’s digest is not the digest of its own inputs: the file was altered or made for another registry generation.',
    )
  const deadline = inputs.deadline
  if (deadline !== null && deadline <= now) throw new DelegationExpiredError(deadline)
  if (file.stakeVersion !== version)
    throw new DelegationStakeVersionError({ signedVersion: file.stakeVersion, currentVersion: version })
  await checkDigestStillCurrent(ctx, file, { state, delegator, nonce: inputs.nonce, deadline })
  const proof = file.proof
  if (
    proof.format !== adapter.proofFormat ||
    (proof.format === 'uncompressed' && !verifyAdiriProof(blsPubkey, proof, validator))
  )
    throw new InvalidDelegationSignatureError(
      `The proof of possession in the file does not verify for the key ${blsPubkey.slice(0, 18)}… and validator ${validator}.`,
    )
  if (proof.format === 'compressed') checkStakeKeyMaterial({ blsPubkey, proofOfPossession: proof.signature, validator })
  return { proof, signature: file.signature, deadline }
}

/** The registry's digest for the file's inputs is still the file's digest; else the nonce moved on. */
async function checkDigestStillCurrent(
  { client, target }: RegistryContext,
  file: DelegationSignatureFile,
  {
    state,
    delegator,
    nonce,
    deadline,
  }: { state: DelegationState; delegator: Address; nonce: bigint; deadline: bigint | null },
): Promise<void> {
  const { adapter, chain, version } = state
  const { blsPubkey, validator } = file
  const onChain = await withRpcErrors(
    target,
    () =>
      adapter.readDelegationDigest(client, target.registry, {
        blsPubkey,
        validator,
        delegator,
        deadline,
      }),
    adapter.errorAbi,
  )
  if (onChain.toLowerCase() === file.digest.toLowerCase()) return
  const current = nonceFromDigest({
    adapter,
    chain,
    registry: target.registry,
    validator,
    stakeVersion: version,
    onChain,
    blsPubkey,
    delegator,
    deadline,
  })
  throw new DelegationRevokedError({
    signedNonce: nonce,
    currentNonce: current,
    validator,
    revocable: adapter.features.increaseNonce,
  })
}
