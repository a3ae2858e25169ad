/**
 * `unstake` by the validator or its delegator (spec rule 5), in the generation's form:
 * next `unstake(address, bool acceptRewardShortfall)`, adiri `unstake(address)` (no choice: a
 * shortfall reverts). Eligibility is computed and explained before anything is sent: Staked, or
 * Exited with the current epoch at least exit epoch + 1. The reward shortfall is computed from
 * the Issuance pool's balance: without acceptance (or on adiri) it is an error that says how
 * much; with it, a warning. Irreversible (the address is retired). Idempotent: a retired
 * validator reports success and sends nothing. The delegator has no view: a delegated
 * validator's payout goes to "the delegator", named only when the delegator is the signer.
 */
import { type Address, parseEventLogs, type TransactionReceipt } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import type { StepRun } from '../tx/run-step.js'
import {
  AddressRetiredError,
  NotRecipientError,
  NotWhitelistedError,
  RewardShortfallError,
  UnstakeNotEligibleError,
  WrongStatusError,
} from './errors.js'
import { readFirstBatch } from './first-batch.js'
import { nextRegistryAbi } from './generations/abi-next.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { UNSET_EPOCH } from './generations/status.js'
import { statusOf } from './read-own-validator.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import { registryStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, Reporter, TxOutcome } from './types.js'

export type UnstakeParameters = OperationOptions & {
  signer: Signer
  /** The validator to unstake; default: the signer (self-staked). */
  validator?: Address | undefined
  /** next: forfeit rewards the issuance pool cannot cover (the stake itself is never reduced by it). */
  acceptRewardShortfall?: boolean | undefined
}

export type UnstakeReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
  validator: Address
  /** Status before the unstake. */
  status: ReturnType<typeof statusOf>
  delegated: boolean
  /** Who is paid: the validator (self-staked), the signer when it is the delegator, null when the registry does not say. */
  recipient: Address | null
  /** The stake part of the payout, wei. */
  stakeAmount: string
  /** Accrued rewards, wei. */
  rewards: string
  /** Rewards the pool cannot cover and that are forfeited, wei (from the receipt once sent). */
  rewardsForfeited: string
  /** Credited as a refund because the recipient rejected the transfer, wei ("0" if none; always "0" on adiri, which keeps no refunds). */
  refundCredited: string
}

/**
 * @example await unstake(ctx, { signer, acceptRewardShortfall: false, confirm })
 */
export async function unstake(ctx: RegistryContext, params: UnstakeParameters): Promise<UnstakeReturnType> {
  return registryStep(ctx, 'unstake', params, (run) => unstakeStep(ctx, params, run))
}

async function unstakeStep(
  ctx: RegistryContext,
  { signer, validator: validatorParam, acceptRewardShortfall = false, report, confirm }: UnstakeParameters,
  run: StepRun,
): Promise<UnstakeReturnType> {
  const validator = validatorParam ?? signer.address
  const state = await readUnstakeState(ctx, { validator, signer: signer.address, report })
  const { chain, adapter, record, retired, delegated, epoch, pool, account } = state
  const [balance, , rewards] = state.breakdown
  const status = statusOf(record)
  const isSigner = (a: Address) => a.toLowerCase() === signer.address.toLowerCase()
  // self-staked: the validator; delegated: the delegator, which only the signer can be known to be
  const recipient = !delegated ? validator : isSigner(validator) ? null : signer.address
  const shortfall = rewards > pool ? rewards - pool : 0n
  const base = {
    chain,
    registry: state.info,
    validator,
    status,
    delegated,
    recipient,
    rewards: rewards.toString(),
    rewardsForfeited: '0',
    refundCredited: '0',
  }
  if (retired || status === 'Retired')
    return {
      ...base,
      stakeAmount: '0',
      outcome: 'already-done',
      message: `${validator} has already unstaked (it is retired); nothing was sent.`,
    }
  checkUnstakeAllowed(state, { validator, status, signerIsValidator: isSigner(validator), caller: signer.address })
  report?.({ type: 'step', message: `${validator} is ${status} in epoch ${epoch}: unstake is accepted` })
  checkShortfall(state, { rewards, shortfall, acceptRewardShortfall, report })
  const stakeAmount = balance > rewards ? balance - rewards : 0n
  const refundsBefore =
    adapter.features.refunds && recipient !== null && signer.type === 'local'
      ? await readRefunds(ctx, recipient, undefined)
      : null
  const { outcome, receipt } = await submit({
    ctx,
    chain,
    adapter,
    signer,
    account,
    data: adapter.unstakeData(validator, acceptRewardShortfall),
    action: 'unstake',
    title: `Unstake validator ${validator} and retire the address for good (irreversible)`,
    rows: planRows(state, { validator, status, stakeAmount, rewards, shortfall, recipient }),
    irreversible: true,
    revert: { validator, shortfall: { rewards, pool } },
    report,
    confirm,
    run,
  })
  const paid = receipt
    ? await payoutOf(ctx, receipt, { recipient, refundsBefore, owed: stakeAmount + rewards, report })
    : { forfeited: shortfall > 0n && acceptRewardShortfall ? shortfall : 0n, refundCredited: 0n }
  return {
    ...base,
    stakeAmount: stakeAmount.toString(),
    rewardsForfeited: paid.forfeited.toString(),
    refundCredited: paid.refundCredited.toString(),
    ...outcome,
  }
}

type UnstakeState = Awaited<ReturnType<typeof readUnstakeState>>

/** The first batch: chain, generation, the validator's record and balances, the epoch, the issuance pool, the signer. */
async function readUnstakeState(
  ctx: RegistryContext,
  { validator, signer, report }: { validator: Address; signer: Address; report: Reporter | undefined },
) {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [nft, record, retired, delegated, breakdown, epoch, pool, account],
  } = await readFirstBatch(ctx, { purpose: 'write', action: 'unstake', report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
      client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
      client.readContract({ ...registry, functionName: 'isDelegated', args: [validator] }),
      client.readContract({ ...registry, functionName: 'getBalanceBreakdown', args: [validator] }),
      client.readContract({ ...registry, functionName: 'getCurrentEpoch' }),
      client.getBalance({ address: target.issuance }),
      readAccountState(client, signer),
    ]),
  )
  return { chain, adapter, info, nft, record, retired, delegated, breakdown, epoch, pool, account }
}

/**
 * The validator is whitelisted or has a record, the signer is the validator or the validator is
 * delegated (its delegator may unstake), and the validator is eligible in this epoch.
 */
function checkUnstakeAllowed(
  { nft, record, delegated, epoch }: UnstakeState,
  {
    validator,
    status,
    signerIsValidator,
    caller,
  }: { validator: Address; status: ReturnType<typeof statusOf>; signerIsValidator: boolean; caller: Address },
): void {
  if (record === null && nft === 0n) throw new NotWhitelistedError(validator)
  if (!signerIsValidator && !delegated) throw new NotRecipientError({ caller, validator })
  checkEligible({ validator, status, exitEpoch: record?.exitEpoch ?? 0, currentEpoch: epoch })
}

/**
 * Rewards the pool cannot cover: an error on adiri or without acceptance, else a warning; an
 * acceptance the generation cannot express is warned about.
 */
function checkShortfall(
  { chain, adapter, pool }: UnstakeState,
  {
    rewards,
    shortfall,
    acceptRewardShortfall,
    report,
  }: { rewards: bigint; shortfall: bigint; acceptRewardShortfall: boolean; report: Reporter | undefined },
): void {
  if (shortfall > 0n) {
    const devnet = chain.name === 'devnet'
    if (!adapter.features.unstakeShortfallChoice)
      throw new RewardShortfallError({ rewards, pool }, {}, { canForfeit: false, devnet })
    if (!acceptRewardShortfall) throw new RewardShortfallError({ rewards, pool }, {}, { devnet })
    report?.({
      type: 'warning',
      message: `the issuance pool holds ${formatTelAndWei(pool)} of ${formatTelAndWei(rewards)} accrued rewards: ${formatTelAndWei(shortfall)} of rewards is forfeited (the stake is paid in full)`,
    })
  } else if (acceptRewardShortfall && !adapter.features.unstakeShortfallChoice)
    report?.({
      type: 'warning',
      message: `--accept-reward-shortfall has no effect on the ${adapter.generation} registry (unstake(address) has no such choice); the pool covers the rewards`,
    })
}

/** The plan's rows: what is unstaked, when it is accepted, what is paid and to whom. */
function planRows(
  { adapter, record, epoch }: UnstakeState,
  p: {
    validator: Address
    status: string
    stakeAmount: bigint
    rewards: bigint
    shortfall: bigint
    recipient: Address | null
  },
): [string, string][] {
  return [
    ['validator', p.validator],
    ['status', p.status],
    [
      'exit epoch',
      `${record?.exitEpoch ?? '-'} (unstake is accepted from epoch ${Number(record?.exitEpoch ?? 0) + 1}; the chain is in epoch ${epoch})`,
    ],
    // not 'registry': the plan's own row names the registry's address (one key per row in the JSON plan)
    ['function', `${adapter.signatures.unstake} (the ${adapter.generation} registry)`],
    ['stake', formatTelAndWei(p.stakeAmount)],
    ['rewards', formatTelAndWei(p.rewards)],
    ...(p.shortfall > 0n ? [['rewards forfeited', formatTelAndWei(p.shortfall)] as [string, string]] : []),
    ['paid to', p.recipient ?? 'the delegator (the registry has no view naming it)'],
  ]
}

/**
 * From the receipt: the refund credited when the recipient rejected the transfer (warned about),
 * and what of the stake and rewards owed was neither paid (RewardsClaimed) nor credited.
 */
async function payoutOf(
  ctx: RegistryContext,
  receipt: TransactionReceipt,
  {
    recipient,
    refundsBefore,
    owed,
    report,
  }: { recipient: Address | null; refundsBefore: bigint | null; owed: bigint; report: Reporter | undefined },
): Promise<{ forfeited: bigint; refundCredited: bigint }> {
  let refundCredited = 0n
  const paid = parseEventLogs({
    abi: nextRegistryAbi,
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === ctx.target.registry.toLowerCase()),
    eventName: 'RewardsClaimed',
  }).reduce((sum, e) => sum + e.args.rewards, 0n)
  if (refundsBefore !== null && recipient !== null) {
    const after = await readRefunds(ctx, recipient, receipt.blockNumber)
    refundCredited = after > refundsBefore ? after - refundsBefore : 0n
  }
  const forfeited = owed > paid + refundCredited ? owed - paid - refundCredited : 0n
  if (refundCredited > 0n)
    report?.({
      type: 'warning',
      message: `the recipient rejected the transfer: ${formatTelAndWei(refundCredited)} is credited as a refund; withdraw it with \`tnv refund claim\``,
    })
  return { forfeited, refundCredited }
}

/** claimableRefunds(recipient) at a block (next only). */
async function readRefunds(ctx: RegistryContext, recipient: Address, blockNumber: bigint | undefined): Promise<bigint> {
  const { client, target } = ctx
  return withRpcErrors(target, () =>
    client.readContract({
      address: target.registry,
      abi: nextRegistryAbi,
      functionName: 'claimableRefunds',
      args: [recipient],
      ...(blockNumber !== undefined ? { blockNumber } : {}),
    }),
  )
}

/** Throws the explained error when unstake is not accepted yet (spec: transitions, rule 5). */
function checkEligible({
  validator,
  status,
  exitEpoch,
  currentEpoch,
}: {
  validator: Address
  status: ReturnType<typeof statusOf>
  exitEpoch: number
  currentEpoch: number
}): void {
  if (status === 'Staked') return
  if (status === 'Exited') {
    if (currentEpoch >= exitEpoch + 1) return
    throw new UnstakeNotEligibleError(
      `${validator} exited in epoch ${exitEpoch}; unstake is accepted from epoch ${exitEpoch + 1} (exit epoch + 1), and the current epoch is ${currentEpoch}.`,
      'Wait for the next epoch boundary (`tnv validator status` shows where the chain is), then run `tnv unstake` again.',
    )
  }
  if (status === 'PendingExit')
    throw new UnstakeNotEligibleError(
      `${validator} is PendingExit in epoch ${currentEpoch}${exitEpoch === UNSET_EPOCH ? ' (its exit epoch is not set yet)' : ''}: the protocol marks it Exited once it has no committee assignment in the current and the 2 next epochs, and unstake is accepted from exit epoch + 1.`,
      'Wait until `tnv validator status` shows status Exited and "unstake  possible now", then run `tnv unstake` again.',
    )
  if (status === 'Active' || status === 'PendingActivation')
    throw new UnstakeNotEligibleError(
      `${validator} is ${status}: an activated validator must exit before it can unstake.`,
      'Begin the exit with `tnv exit`, wait until it is Exited and the epoch is at least exit epoch + 1, then run `tnv unstake`.',
    )
  if (status === 'Retired') throw new AddressRetiredError(validator)
  throw new WrongStatusError(`${validator} has nothing staked (status ${status}).`, 'There is nothing to unstake.')
}
