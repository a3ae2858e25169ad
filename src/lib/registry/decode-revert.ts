/**
 * Decodes a registry revert (from a simulation, or from replaying a reverted receipt) into the
 * operator-facing error with the spec's remedy. Every custom error of the registry ABI is
 * known; anything else is reported by name (or as undecodable) and never silently dropped.
 */
import { type Address, BaseError, decodeErrorResult, type Hex } from 'viem'
import type { TnvError } from '../errors.js'
import { registryAbi, statusName } from './abi.js'
import {
  AddressRetiredError,
  BlsKeyAlreadyRegisteredError,
  DelegationExpiredError,
  InvalidBlsPubkeyError,
  InvalidDelegationSignatureError,
  InvalidProofOfPossessionError,
  NoRefundError,
  NotRecipientError,
  NotRegistryOwnerError,
  NotStakedError,
  NotWhitelistedError,
  RegistryRevertedError,
  RewardPoolShortError,
  RewardShortfallError,
  RewardsBelowMinimumError,
  UnknownRevertError,
  UnstakeNotEligibleError,
  WrongStakeAmountError,
  WrongStatusError,
} from './errors.js'

export type RevertContext = {
  /** What was attempted, for messages: "stake", "unstake", ... */
  action: string
  /** The validator the step is about. */
  validator: Address
  /** The sender. */
  signer: Address
  /** The value sent, when there is one. */
  value?: bigint | undefined
  /** The stake amount tnv read (for InvalidStakeAmount). */
  stakeAmount?: bigint | undefined
  /** Rewards and pool balance read before (the unstake shortfall, a claim the pool cannot pay). */
  shortfall?: { rewards: bigint; pool: bigint } | undefined
  /** The transaction hash when the revert comes from a mined receipt. */
  txHash?: Hex | undefined
}

/** The revert data carried anywhere along a viem error's cause chain. */
export function extractRevertData(err: unknown): Hex | undefined {
  let cur: unknown = err
  for (let depth = 0; cur && depth < 12; depth++) {
    const data = (cur as { data?: unknown }).data
    if (typeof data === 'string' && /^0x[0-9a-fA-F]*$/.test(data) && data.length >= 10) return data as Hex
    if (data && typeof data === 'object') {
      const inner = (data as { data?: unknown }).data
      if (typeof inner === 'string' && /^0x[0-9a-fA-F]*$/.test(inner) && inner.length >= 10) return inner as Hex
    }
    cur = (cur as { cause?: unknown }).cause
  }
  return undefined
}

/** True when the error is an execution revert (as opposed to a transport fault). */
export function isRevert(err: unknown): boolean {
  if (extractRevertData(err) !== undefined) return true
  const text = err instanceof BaseError ? `${err.shortMessage} ${err.details}` : String(err)
  return /revert|execution reverted/i.test(text)
}

/**
 * @example throw registryErrorFromRevert(err, { action: 'stake', validator, signer })
 */
export function registryErrorFromRevert(err: unknown, ctx: RevertContext): TnvError {
  const data = extractRevertData(err)
  const details = [...(ctx.txHash ? [`transaction ${ctx.txHash} reverted on chain`] : [])]
  if (data === undefined) {
    const reason = err instanceof BaseError ? err.details || err.shortMessage : String(err)
    return new UnknownRevertError({ action: ctx.action, reason: reason || 'no reason given' }, { details, cause: err })
  }
  let decoded: { errorName: string; args: readonly unknown[] | undefined }
  try {
    const result = decodeErrorResult({ abi: registryAbi, data })
    decoded = { errorName: result.errorName, args: result.args }
  } catch {
    return new UnknownRevertError(
      { action: ctx.action, reason: `undecodable revert data ${data.slice(0, 74)}${data.length > 74 ? '…' : ''}` },
      { details, cause: err },
    )
  }
  const extra = { details: [`revert: ${describe(decoded)}`, ...details], cause: err }
  const args = decoded.args ?? []
  switch (decoded.errorName) {
    case 'InvalidTokenId':
    case 'RequiresConsensusNFT':
      return new NotWhitelistedError(ctx.validator, extra)
    case 'InvalidStatus': {
      const status = typeof args[0] === 'number' ? statusName(args[0]) : 'unknown'
      return new WrongStatusError(
        `The registry refuses ${ctx.action} for ${ctx.validator}: the validator's status (${status}) does not allow it.`,
        "Check the state with `tnv validator status` (the registry's `getValidator()`), and run the step that status calls for.",
        extra,
      )
    }
    case 'InvalidStakeAmount':
      return new WrongStakeAmountError({ sent: ctx.value ?? null, expected: ctx.stakeAmount ?? null }, extra)
    case 'InvalidProofOfPossession':
      return new InvalidProofOfPossessionError(ctx.validator, extra)
    case 'DuplicateBLSPubkey':
      return new BlsKeyAlreadyRegisteredError(extra)
    case 'InvalidBLSPubkey':
      return new InvalidBlsPubkeyError(extra)
    case 'DelegationExpired':
      return new DelegationExpiredError(typeof args[0] === 'bigint' ? args[0] : 0n, extra)
    case 'IneligibleUnstake':
      return new UnstakeNotEligibleError(
        `The registry refuses to unstake ${ctx.validator} yet: it accepts unstake only when the status is Staked, or Exited with the current epoch at least exit epoch + 1.`,
        'See when it becomes possible with `tnv validator status` (unstakeEpoch), then run `tnv unstake` again.',
        extra,
      )
    case 'InsufficientRewards':
      return ctx.action === 'unstake'
        ? new RewardShortfallError(ctx.shortfall ?? null, extra)
        : new RewardPoolShortError(ctx.shortfall ?? null, extra)
    case 'NotRecipient':
      return new NotRecipientError({ caller: ctx.signer, validator: ctx.validator }, extra)
    case 'AlreadyDefined':
      return new WrongStatusError(
        `The registry refuses ${ctx.action}: ${String(args[0] ?? ctx.validator)} is already defined (it staked before).`,
        'Check its state with `tnv validator status`; a validator address stakes once.',
        extra,
      )
    case 'BlsPubkeyNotFound':
      return new NotStakedError(String(args[0] ?? ctx.validator), extra)
    case 'InvalidDelegationSignature':
      return new InvalidDelegationSignatureError(
        `The registry rejects the validator's delegation signature: it was not made by ${String(args[0] ?? ctx.validator)} over this key, delegator, deadline, stake version and the validator's current nonce.`,
        extra,
      )
    case 'AddressRetired':
      return new AddressRetiredError(String(args[0] ?? ctx.validator), extra)
    case 'OnlyOwner':
      return new NotRegistryOwnerError(
        { signer: ctx.signer, owner: 'the governance address', action: ctx.action },
        extra,
      )
    case 'RewardsBelowMinimum':
      return new RewardsBelowMinimumError(
        {
          rewards: typeof args[0] === 'bigint' ? args[0] : null,
          minimum: typeof args[1] === 'bigint' ? args[1] : null,
        },
        extra,
      )
    case 'NoRefund':
      return new NoRefundError(String(args[0] ?? ctx.signer), extra)
    default:
      return new RegistryRevertedError({ action: ctx.action, error: describe(decoded) }, extra)
  }
}

function describe(decoded: { errorName: string; args: readonly unknown[] | undefined }): string {
  const args = (decoded.args ?? []).map((a) => stringify(a)).join(', ')
  return `${decoded.errorName}(${args})`
}

function stringify(v: unknown): string {
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'string') return v
  if (Array.isArray(v)) return `[${v.map(stringify).join(', ')}]`
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${stringify(x)}`)
      .join(', ')}}`
  return String(v)
}
