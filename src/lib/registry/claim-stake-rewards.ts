/**
 * `claimStakeRewards(validatorAddress)` (spec rule 6): an active validator claims accrued
 * rewards without exiting; the validator or its delegator may call it. Checked first, so a
 * claim that would revert is explained instead of sent: rewards above zero, at least the stake
 * config's minimum withdrawal (else InsufficientRewards), and an Issuance pool that can pay
 * them (an empty pool reverts with Issuance's InsufficientBalance; at genesis it is empty).
 * No rewards: success, nothing sent.
 */
import { type Address, encodeFunctionData, parseEventLogs, type TransactionReceipt } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import type { StepRun } from '../tx/run-step.js'
import { NotRecipientError, RewardPoolShortError, RewardsBelowMinimumError } from './errors.js'
import { readFirstBatch } from './first-batch.js'
import { nextRegistryAbi } from './generations/abi-next.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { withRpcErrors } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import { registryStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, Reporter, TxOutcome } from './types.js'

export type ClaimStakeRewardsParameters = OperationOptions & {
  signer: Signer
  /** Default: the signer. */
  validator?: Address | undefined
}

export type ClaimStakeRewardsReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
  validator: Address
  /** Rewards claimed (from the receipt once sent; the accrued amount otherwise), wei. */
  rewards: string
  /** The Issuance pool's balance before the claim, wei. */
  pool: string
  /**
   * Who the registry pays: the validator when self-staked, the delegator when delegated (the
   * signer, when the signer is not the validator); null: delegated and claimed by the validator,
   * whose delegator no view of the registry names.
   */
  recipient: Address | null
}

/**
 * @example const r = await claimStakeRewards(ctx, { signer }); r.rewards
 */
export async function claimStakeRewards(
  ctx: RegistryContext,
  params: ClaimStakeRewardsParameters,
): Promise<ClaimStakeRewardsReturnType> {
  return registryStep(ctx, 'claimStakeRewards', params, (run) => claimStakeRewardsStep(ctx, params, run))
}

async function claimStakeRewardsStep(
  ctx: RegistryContext,
  { signer, validator: validatorParam, report, confirm }: ClaimStakeRewardsParameters,
  run: StepRun,
): Promise<ClaimStakeRewardsReturnType> {
  const validator = validatorParam ?? signer.address
  const state = await readClaimState(ctx, { validator, signer: signer.address, report })
  const { chain, adapter, rewards, delegated, pool, account } = state
  const isSigner = (a: Address) => a.toLowerCase() === signer.address.toLowerCase()
  const recipient = !delegated ? validator : isSigner(validator) ? null : signer.address
  const base = { chain, registry: state.info, validator, rewards: rewards.toString(), pool: pool.toString(), recipient }
  if (rewards === 0n)
    return { ...base, outcome: 'nothing-to-do', message: `${validator} has no rewards to claim; nothing was sent.` }
  if (signer.address.toLowerCase() !== validator.toLowerCase() && !delegated)
    throw new NotRecipientError({ caller: signer.address, validator })
  await checkClaimable(ctx, state)
  report?.({
    type: 'step',
    message: `${validator} has ${formatTelAndWei(rewards)} of rewards to claim; the Issuance pool holds ${formatTelAndWei(pool)}`,
  })
  const { outcome, receipt } = await submit({
    ctx,
    chain,
    adapter,
    signer,
    account,
    data: encodeFunctionData({ abi: sharedRegistryAbi, functionName: 'claimStakeRewards', args: [validator] }),
    action: 'claimStakeRewards',
    title: `Claim ${formatTelAndWei(rewards)} of rewards of validator ${validator}`,
    rows: [
      ['validator', validator],
      ['rewards', formatTelAndWei(rewards)],
      ['paid to', recipient ?? "the validator's delegator (the registry has no view naming it)"],
    ],
    revert: { validator, shortfall: { rewards, pool } },
    report,
    confirm,
    run,
  })
  const claimed = receipt ? claimedInReceipt(ctx, receipt, rewards) : rewards
  return { ...base, rewards: claimed.toString(), ...outcome }
}

type ClaimState = Awaited<ReturnType<typeof readClaimState>>

/** The first batch: chain, generation, the validator's rewards and delegation, the stake version, the pool, the signer. */
async function readClaimState(
  ctx: RegistryContext,
  { validator, signer, report }: { validator: Address; signer: Address; report: Reporter | undefined },
) {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [rewards, delegated, version, pool, account],
  } = await readFirstBatch(ctx, { purpose: 'write', action: 'claimStakeRewards', report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'getRewards', args: [validator] }),
      client.readContract({ ...registry, functionName: 'isDelegated', args: [validator] }),
      client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
      client.getBalance({ address: target.issuance }),
      readAccountState(client, signer),
    ]),
  )
  return { chain, adapter, info, rewards, delegated, version, pool, account }
}

/** The rewards reach the stake version's minimum withdrawal, and the Issuance pool covers them. */
async function checkClaimable(
  { client, target }: RegistryContext,
  { adapter, chain, version, rewards, pool }: ClaimState,
): Promise<void> {
  const config = await withRpcErrors(
    target,
    () =>
      client.readContract({
        address: target.registry,
        abi: sharedRegistryAbi,
        functionName: 'stakeConfig',
        args: [version],
      }),
    adapter.errorAbi,
  )
  if (rewards < config.minWithdrawAmount)
    throw new RewardsBelowMinimumError({ rewards, minimum: config.minWithdrawAmount })
  if (rewards > pool) throw new RewardPoolShortError({ rewards, pool }, {}, { devnet: chain.name === 'devnet' })
}

/** The sum of the receipt's RewardsClaimed events; the rewards read before when there is none. */
function claimedInReceipt({ target }: RegistryContext, receipt: TransactionReceipt, rewards: bigint): bigint {
  const events = parseEventLogs({
    // RewardsClaimed(address indexed, uint256) is the same event in both generations (shared-abi.ts)
    abi: nextRegistryAbi,
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === target.registry.toLowerCase()),
    eventName: 'RewardsClaimed',
  })
  return events.length > 0 ? events.reduce((sum, e) => sum + e.args.rewards, 0n) : rewards
}
