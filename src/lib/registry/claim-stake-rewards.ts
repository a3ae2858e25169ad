/**
 * `claimStakeRewards(validatorAddress)` (spec rule 6): an active validator claims accrued
 * rewards without exiting; the validator or its delegator may call it. Checked first: rewards
 * above zero and at least the stake config's minimum withdrawal. No rewards: success,
 * nothing sent.
 */
import { type Address, encodeFunctionData, parseEventLogs } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import { registryAbi } from './abi.js'
import { NotRecipientError, RewardPoolShortError, RewardsBelowMinimumError } from './errors.js'
import { withRpcErrors } from './reads.js'
import { submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type ClaimStakeRewardsParameters = OperationOptions & {
  signer: Signer
  /** Default: the signer. */
  validator?: Address | undefined
}

export type ClaimStakeRewardsReturnType = TxOutcome & {
  chain: ChainInfo
  validator: Address
  /** Rewards claimed (from the receipt once sent; the accrued amount otherwise), wei. */
  rewards: string
}

/**
 * @example const r = await claimStakeRewards(ctx, { signer }); r.rewards
 */
export async function claimStakeRewards(
  ctx: RegistryContext,
  { signer, validator: validatorParam, report, confirm }: ClaimStakeRewardsParameters,
): Promise<ClaimStakeRewardsReturnType> {
  const { client, target } = ctx
  const validator = validatorParam ?? signer.address
  const registry = { address: target.registry, abi: registryAbi } as const
  const [chainId, rewards, delegated, version, pool, account] = await withRpcErrors(target, () =>
    Promise.all([
      client.getChainId(),
      client.readContract({ ...registry, functionName: 'getRewards', args: [validator] }),
      client.readContract({ ...registry, functionName: 'isDelegated', args: [validator] }),
      client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
      client.getBalance({ address: target.issuance }),
      readAccountState(client, signer.address),
    ]),
  )
  const chain = checkChainId(target, chainId)
  const base = { chain, validator, rewards: rewards.toString() }
  if (rewards === 0n)
    return { ...base, outcome: 'already-done', message: `${validator} has no rewards to claim; nothing was sent.` }
  if (signer.address !== validator && !delegated) throw new NotRecipientError({ caller: signer.address, validator })
  const config = await withRpcErrors(target, () =>
    client.readContract({ ...registry, functionName: 'stakeConfig', args: [version] }),
  )
  if (rewards < config.minWithdrawAmount)
    throw new RewardsBelowMinimumError({ rewards, minimum: config.minWithdrawAmount })
  if (rewards > pool) throw new RewardPoolShortError({ rewards, pool })
  report?.({ type: 'step', message: `${validator} has ${formatTelAndWei(rewards)} of rewards to claim` })
  const { outcome, receipt } = await submit({
    ctx,
    chain,
    signer,
    account,
    data: encodeFunctionData({ abi: registryAbi, functionName: 'claimStakeRewards', args: [validator] }),
    action: 'claimStakeRewards',
    title: `Claim ${formatTelAndWei(rewards)} of rewards of validator ${validator}`,
    rows: [
      ['validator', validator],
      ['rewards', formatTelAndWei(rewards)],
    ],
    revert: { validator, shortfall: { rewards, pool } },
    report,
    confirm,
  })
  let claimed = rewards
  if (receipt) {
    const events = parseEventLogs({
      abi: registryAbi,
      logs: receipt.logs.filter((l) => l.address.toLowerCase() === target.registry.toLowerCase()),
      eventName: 'RewardsClaimed',
    })
    if (events.length > 0) claimed = events.reduce((sum, e) => sum + e.args.rewards, 0n)
  }
  return { ...base, rewards: claimed.toString(), ...outcome }
}
