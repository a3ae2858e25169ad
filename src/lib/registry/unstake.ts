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
import { type Address, parseEventLogs } from 'viem'
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
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

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
  const { client, target } = ctx
  const validator = validatorParam ?? signer.address
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
      readAccountState(client, signer.address),
    ]),
  )
  const [balance, , rewards] = breakdown
  const status = statusOf(record)
  const isSigner = (a: Address) => a.toLowerCase() === signer.address.toLowerCase()
  // self-staked: the validator; delegated: the delegator, which only the signer can be known to be
  const recipient = !delegated ? validator : isSigner(validator) ? null : signer.address
  const shortfall = rewards > pool ? rewards - pool : 0n
  const base = {
    chain,
    registry: info,
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
  if (record === null && nft === 0n) throw new NotWhitelistedError(validator)
  if (!isSigner(validator) && !delegated) throw new NotRecipientError({ caller: signer.address, validator })
  checkEligible({ validator, status, exitEpoch: record?.exitEpoch ?? 0, currentEpoch: epoch })
  report?.({ type: 'step', message: `${validator} is ${status} in epoch ${epoch}: unstake is accepted` })
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
    rows: [
      ['validator', validator],
      ['status', status],
      [
        'exit epoch',
        `${record?.exitEpoch ?? '-'} (unstake is accepted from epoch ${Number(record?.exitEpoch ?? 0) + 1}; the chain is in epoch ${epoch})`,
      ],
      // not 'registry': the plan's own row names the registry's address (one key per row in the JSON plan)
      ['function', `${adapter.signatures.unstake} (the ${adapter.generation} registry)`],
      ['stake', formatTelAndWei(stakeAmount)],
      ['rewards', formatTelAndWei(rewards)],
      ...(shortfall > 0n ? [['rewards forfeited', formatTelAndWei(shortfall)] as [string, string]] : []),
      ['paid to', recipient ?? 'the delegator (the registry has no view naming it)'],
    ],
    irreversible: true,
    revert: { validator, shortfall: { rewards, pool } },
    report,
    confirm,
    run,
  })
  let forfeited = shortfall > 0n && acceptRewardShortfall ? shortfall : 0n
  let refundCredited = 0n
  if (receipt) {
    const paid = parseEventLogs({
      abi: nextRegistryAbi,
      logs: receipt.logs.filter((l) => l.address.toLowerCase() === target.registry.toLowerCase()),
      eventName: 'RewardsClaimed',
    }).reduce((sum, e) => sum + e.args.rewards, 0n)
    if (refundsBefore !== null && recipient !== null) {
      const after = await readRefunds(ctx, recipient, receipt.blockNumber)
      refundCredited = after > refundsBefore ? after - refundsBefore : 0n
    }
    const owed = stakeAmount + rewards
    forfeited = owed > paid + refundCredited ? owed - paid - refundCredited : 0n
    if (refundCredited > 0n)
      report?.({
        type: 'warning',
        message: `the recipient rejected the transfer: ${formatTelAndWei(refundCredited)} is credited as a refund; withdraw it with \`tnv refund claim\``,
      })
  }
  return {
    ...base,
    stakeAmount: stakeAmount.toString(),
    rewardsForfeited: forfeited.toString(),
    refundCredited: refundCredited.toString(),
    ...outcome,
  }
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
