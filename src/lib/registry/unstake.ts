/**
 * `unstake(validatorAddress, acceptRewardShortfall)` by the validator or its delegator
 * (spec rule 5). Eligibility is computed and explained before anything is sent: Staked, or
 * Exited with the current epoch at least exit epoch + 1. The reward shortfall is computed
 * from the issuance pool's balance: without acceptance it is an error that says how much
 * would be forfeited; with it, a warning. Irreversible (the address is retired).
 * Idempotent: a retired validator reports success and sends nothing.
 */
import { type Address, encodeFunctionData, parseEventLogs, zeroAddress } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import { registryAbi, statusName, type ValidatorStatusName } from './abi.js'
import { NotRecipientError, RewardShortfallError, UnstakeNotEligibleError, WrongStatusError } from './errors.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import { submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type UnstakeParameters = OperationOptions & {
  signer: Signer
  /** The validator to unstake; default: the signer (self-staked). */
  validator?: Address | undefined
  /** Forfeit rewards the issuance pool cannot cover (the stake itself is never reduced by it). */
  acceptRewardShortfall?: boolean | undefined
}

export type UnstakeReturnType = TxOutcome & {
  chain: ChainInfo
  validator: Address
  /** Status before the unstake. */
  status: ValidatorStatusName
  delegated: boolean
  /** Who is paid: the validator (self-staked), the signer when it is the delegator, null when unknown. */
  recipient: Address | null
  /** wei */
  stakeAmount: string
  /** Accrued rewards, wei. */
  rewards: string
  /** Rewards the pool cannot cover and that are forfeited, wei (from the receipt once sent). */
  rewardsForfeited: string
  /** Credited as a refund because the recipient rejected the transfer, wei ("0" if none). */
  refundCredited: string
}

/**
 * @example await unstake(ctx, { signer, acceptRewardShortfall: false, confirm })
 */
export async function unstake(
  ctx: RegistryContext,
  { signer, validator: validatorParam, acceptRewardShortfall = false, report, confirm }: UnstakeParameters,
): Promise<UnstakeReturnType> {
  const { client, target } = ctx
  const validator = validatorParam ?? signer.address
  const registry = { address: target.registry, abi: registryAbi } as const
  const [chainId, record, retired, delegated, rewards, epoch, pool, delegatorRead, stakeBalance, account] =
    await withRpcErrors(target, () =>
      Promise.all([
        client.getChainId(),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
        client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
        client.readContract({ ...registry, functionName: 'isDelegated', args: [validator] }),
        client.readContract({ ...registry, functionName: 'getRewards', args: [validator] }),
        client.readContract({ ...registry, functionName: 'getCurrentEpoch' }),
        client.getBalance({ address: target.issuance }),
        // optional views (the devnet has them; elsewhere a revert reads as unknown)
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getDelegator', args: [validator] })),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getStakeBalance', args: [validator] })),
        readAccountState(client, signer.address),
      ]),
    )
  const chain = checkChainId(target, chainId)
  const status = statusName(record?.currentStatus ?? 0)
  const recipient = recipientOf({ validator, signer: signer.address, delegated, delegator: delegatorRead })
  const shortfall = rewards > pool ? rewards - pool : 0n
  const base = {
    chain,
    validator,
    status,
    delegated,
    recipient,
    rewards: rewards.toString(),
    rewardsForfeited: shortfall.toString(),
    refundCredited: '0',
  }
  if (retired) {
    return {
      ...base,
      stakeAmount: '0',
      rewardsForfeited: '0',
      outcome: 'already-done',
      message: `${validator} has already unstaked (it is retired); nothing was sent.`,
    }
  }
  if (signer.address !== validator && recipient !== signer.address)
    throw new NotRecipientError({ caller: signer.address, validator })
  checkEligible({ validator, status, exitEpoch: record?.exitEpoch ?? 0, currentEpoch: epoch })
  report?.({ type: 'step', message: `${validator} is ${status} in epoch ${epoch}: unstake is accepted` })
  if (shortfall > 0n) {
    if (!acceptRewardShortfall) throw new RewardShortfallError({ rewards, pool })
    report?.({
      type: 'warning',
      message: `the issuance pool holds ${formatTelAndWei(pool)} of ${formatTelAndWei(rewards)} accrued rewards: ${formatTelAndWei(shortfall)} of rewards is forfeited (the stake is paid in full)`,
    })
  }
  // the stake actually held (slashing-aware) where the registry tells it, else the version's amount
  const stakeAmount =
    stakeBalance ??
    (
      await withRpcErrors(target, () =>
        client.readContract({ ...registry, functionName: 'stakeConfig', args: [record?.stakeVersion ?? 0] }),
      )
    ).stakeAmount
  const { outcome, receipt } = await submit({
    ctx,
    chain,
    signer,
    account,
    data: encodeFunctionData({ abi: registryAbi, functionName: 'unstake', args: [validator, acceptRewardShortfall] }),
    action: 'unstake',
    title: `Unstake validator ${validator} and retire the address for good (irreversible)`,
    rows: [
      ['validator', validator],
      ['status', `${status} (epoch ${epoch})`],
      ['stake', formatTelAndWei(stakeAmount)],
      ['rewards', formatTelAndWei(rewards)],
      ...(shortfall > 0n ? [['rewards forfeited', formatTelAndWei(shortfall)] as [string, string]] : []),
      ['paid to', recipient ?? 'the delegator'],
    ],
    irreversible: true,
    revert: { validator, shortfall: { rewards, pool } },
    report,
    confirm,
  })
  let forfeited = shortfall
  let refundCredited = 0n
  if (receipt) {
    const events = parseEventLogs({
      abi: registryAbi,
      logs: receipt.logs.filter((l) => l.address.toLowerCase() === target.registry.toLowerCase()),
      eventName: ['RewardsForfeited', 'RefundCredited'],
    })
    forfeited = 0n
    for (const e of events) {
      if (e.eventName === 'RewardsForfeited') forfeited += e.args.shortfall
      else refundCredited += e.args.amount
    }
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

/** Who is paid: the delegator when delegated (named by the registry, or the signer when it is not the validator). */
function recipientOf(p: {
  validator: Address
  signer: Address
  delegated: boolean
  delegator: Address | null
}): Address | null {
  if (!p.delegated) return p.validator
  if (p.delegator !== null && p.delegator !== zeroAddress) return p.delegator
  return p.signer !== p.validator ? p.signer : null
}

/** Throws the explained error when unstake is not accepted yet (spec: transitions, rule 5). */
function checkEligible({
  validator,
  status,
  exitEpoch,
  currentEpoch,
}: {
  validator: Address
  status: ValidatorStatusName
  exitEpoch: number
  currentEpoch: number
}): void {
  if (status === 'Staked') return
  if (status === 'Exited') {
    if (currentEpoch >= exitEpoch + 1) return
    throw new UnstakeNotEligibleError(
      `${validator} exited in epoch ${exitEpoch}; unstake is accepted from epoch ${exitEpoch + 1} (exit epoch + 1), and the current epoch is ${currentEpoch}.`,
      'Wait for the next epoch boundary (`tnv validator status` shows the blocks left), then run `tnv unstake` again.',
    )
  }
  if (status === 'PendingExit')
    throw new UnstakeNotEligibleError(
      `${validator} is PendingExit in epoch ${currentEpoch}: the protocol marks it Exited once it has no committee assignment in the current and the 2 next epochs, and unstake is accepted from exit epoch + 1.`,
      'Wait until `tnv validator status` shows Exited and canUnstake, then run `tnv unstake` again.',
    )
  if (status === 'Active' || status === 'PendingActivation')
    throw new UnstakeNotEligibleError(
      `${validator} is ${status}: an activated validator must exit before it can unstake.`,
      'Begin the exit with `tnv exit`, wait until it is Exited and the epoch is at least exit epoch + 1, then run `tnv unstake`.',
    )
  throw new WrongStatusError(`${validator} has nothing staked (status ${status}).`, 'There is nothing to unstake.')
}
