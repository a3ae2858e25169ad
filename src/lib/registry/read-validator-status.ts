/**
 * Everything an operator asks about a validator, in two batched round trips: the first holds
 * the chain id, the registry code (its generation detected), the block number and every view
 * both generations share; the second, what depends on the first: the stake config of the
 * version that applies and, per generation, the refunds and claimable rewards (next) and the
 * delegation nonce (read through the registry's digest: no view exposes it). Values the
 * registry does not have are null, never invented. This object is the JSON of
 * `tnv validator status --json`.
 */
import type { Address, Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { readFirstBatch } from './first-batch.js'
import { nextRegistryAbi } from './generations/abi-next.js'
import { type SharedFunctionName, sharedRegistryAbi } from './generations/shared-abi.js'
import { UNSET_EPOCH } from './generations/status.js'
import { nonceFromDigest } from './read-delegation-nonce.js'
import { statusOf } from './read-own-validator.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import type { RegistryContext } from './types.js'

export type ValidatorStatus = {
  chain: ChainInfo
  /** The registry found at the address: generation, code hash, notes. */
  registry: RegistryInfo
  address: Address
  /** Holds a ConsensusNFT (balanceOf = 1). */
  whitelisted: boolean
  /** Retired = status 6 (Any) with isRetired: the address unstaked (or was burned) for good. */
  status: ReturnType<typeof statusOf>
  /** Epoch from which it is (or was) Active; null while not set (before activate: the registry holds uint32 max). */
  activationEpoch: number | null
  /** Epoch in which it exited; null while not set (0 before the exit, uint32 max while PendingExit). */
  exitEpoch: number | null
  currentEpoch: number
  /** First epoch in which unstake is accepted: now when Staked, exit epoch + 1 once Exited; null otherwise. */
  unstakeEpoch: number | null
  /** Unstake would be accepted now (status and epoch; the reward pool is checked by `tnv unstake`). */
  canUnstake: boolean
  retired: boolean
  delegated: boolean
  /** Accrued rewards (getRewards), wei. */
  rewards: string
  /**
   * The next registry's own claimableRewards(address) view, wei; null on adiri, which has none. Its
   * meaning is not documented (measured: 0 while getRewards is owed, pool funded or not), so tnv
   * shows it as the registry's view and bases nothing on it.
   */
  claimableRewards: string | null
  /** The validator's balance in the registry (getBalanceBreakdown: stake plus rewards), wei. */
  balance: string
  /** TEL in the Issuance pool that pays rewards, wei (0 at genesis: claims revert until governance funds it). */
  rewardPool: string
  /** The validator's stake version once staked, else the current epoch's. */
  stakeVersion: number
  /** stakeAmount of that version, wei. */
  stakeAmount: string
  currentStakeVersion: number
  /** The registered BLS key, null before staking. */
  blsPubkey: Hex | null
  /** The nonce delegation signatures must carry (read through the registry's digest); null when not whitelisted or unreadable. */
  delegationNonce: string | null
  /** Refund credited to this address after a rejected payout (claimableRefunds), wei; null where the registry keeps none (adiri). */
  refund: string | null
  /** In the current epoch's committee. */
  inCommittee: boolean
  blockNumber: string
  /** Timestamp of the latest block, Unix seconds. */
  blockTime: number
  /** Block at which the current epoch started. */
  epochStartBlock: string
  /** Length of an epoch as the registry states it (seconds: the node closes an epoch at its start time + epochDuration). */
  epochDuration: number
  /**
   * The epoch length in force: the registry's, or on the devnet a rehearsal setting
   * (`tnv devnet start --epoch-seconds`) that overrides it.
   */
  epochSeconds: number
  epochSecondsSource: 'registry' | 'rehearsal'
  /** When the next epoch is due (start block's time + epochSeconds), Unix seconds; null when the start block is not out yet. */
  nextEpochTime: number | null
  secondsToNextEpoch: number | null
}

export type ReadValidatorStatusParameters = { address: Address }

/** The shared views a status needs (for code tnv does not recognise). */
const STATUS_VIEWS: readonly SharedFunctionName[] = [
  'balanceOf',
  'getValidator',
  'isRetired',
  'isDelegated',
  'getRewards',
  'getBalanceBreakdown',
  'getCurrentEpochInfo',
  'getBlsPubkey',
  'stakeConfig',
]

/**
 * @example const s = await readValidatorStatus(ctx, { address: '0x…' }); s.status // 'Active'
 */
export async function readValidatorStatus(
  ctx: RegistryContext,
  { address }: ReadValidatorStatusParameters,
): Promise<ValidatorStatus> {
  const first = await readFirstStatusBatch(ctx, address)
  const { chain, adapter, latest, nft, validator, retired, delegated, rewards, breakdown, epoch, bls, pool } = first
  const status = retired ? 'Retired' : statusOf(validator)
  const staked = status !== 'Undefined'
  const stakeVersion = staked && validator ? validator.stakeVersion : epoch.stakeVersion
  const whitelisted = nft > 0n
  const { config, refund, claimable, digest, epochStart } = await readSecondStatusBatch(ctx, address, first, {
    stakeVersion,
    whitelisted,
  })
  const delegationNonce =
    adapter && digest
      ? nonceFromDigest({
          adapter,
          chain,
          registry: ctx.target.registry,
          validator: address,
          stakeVersion: epoch.stakeVersion,
          onChain: digest,
        })
      : null
  const { currentEpoch, activationEpoch, exitEpoch, unstakeEpoch, canUnstake } = epochsOf(status, validator, epoch)
  const rehearsal = ctx.target.devnet?.epochSeconds ?? null
  const epochSeconds = rehearsal ?? epoch.epochDuration
  const nextEpochTime = epochStart ? Number(epochStart.timestamp) + epochSeconds : null
  return {
    chain,
    registry: first.info,
    address,
    whitelisted,
    status,
    activationEpoch: staked && status !== 'Staked' ? activationEpoch : null,
    exitEpoch,
    currentEpoch,
    unstakeEpoch,
    canUnstake,
    retired: status === 'Retired',
    delegated,
    rewards: rewards.toString(),
    claimableRewards: claimable === null ? null : claimable.toString(),
    balance: breakdown[0].toString(),
    rewardPool: pool.toString(),
    stakeVersion,
    stakeAmount: config.stakeAmount.toString(),
    currentStakeVersion: epoch.stakeVersion,
    blsPubkey: bls && bls !== '0x' ? bls : null,
    delegationNonce: delegationNonce === null ? null : delegationNonce.toString(),
    refund: refund === null ? null : refund.toString(),
    inCommittee: epoch.committee.some((a) => a.toLowerCase() === address.toLowerCase()),
    blockNumber: latest.number.toString(),
    blockTime: Number(latest.timestamp),
    epochStartBlock: epoch.blockHeight.toString(),
    epochDuration: epoch.epochDuration,
    epochSeconds,
    epochSecondsSource: rehearsal === null ? 'registry' : 'rehearsal',
    nextEpochTime,
    secondsToNextEpoch: nextEpochTime === null ? null : Math.max(0, nextEpochTime - Number(latest.timestamp)),
  }
}

type FirstStatusBatch = Awaited<ReturnType<typeof readFirstStatusBatch>>

/** The first round trip: chain id, registry code, the latest block and every view both generations share. */
async function readFirstStatusBatch(ctx: RegistryContext, address: Address) {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [latest, nft, validator, retired, delegated, rewards, breakdown, epoch, bls, pool],
  } = await readFirstBatch(ctx, { purpose: 'read', action: 'a status read', needs: STATUS_VIEWS }, () =>
    Promise.all([
      client.getBlock({ blockTag: 'latest' }),
      client.readContract({ ...registry, functionName: 'balanceOf', args: [address] }),
      // reverts InvalidTokenId for an address that never held the NFT: "not whitelisted"
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [address] })),
      client.readContract({ ...registry, functionName: 'isRetired', args: [address] }),
      client.readContract({ ...registry, functionName: 'isDelegated', args: [address] }),
      client.readContract({ ...registry, functionName: 'getRewards', args: [address] }),
      client.readContract({ ...registry, functionName: 'getBalanceBreakdown', args: [address] }),
      client.readContract({ ...registry, functionName: 'getCurrentEpochInfo' }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getBlsPubkey', args: [address] })),
      client.getBalance({ address: target.issuance }),
    ]),
  )
  return { chain, adapter, info, latest, nft, validator, retired, delegated, rewards, breakdown, epoch, bls, pool }
}

/**
 * The second round trip, what depends on the first or exists in one generation only: the stake
 * config of the version that applies, refunds and claimable rewards (next), the delegation digest
 * (for the nonce) and the epoch's first block.
 */
async function readSecondStatusBatch(
  { client, target }: RegistryContext,
  address: Address,
  { adapter, retired, epoch }: FirstStatusBatch,
  { stakeVersion, whitelisted }: { stakeVersion: number; whitelisted: boolean },
) {
  const [config, refund, claimable, digest, epochStart] = await withRpcErrors(
    target,
    () =>
      Promise.all([
        client.readContract({
          address: target.registry,
          abi: sharedRegistryAbi,
          functionName: 'stakeConfig',
          args: [stakeVersion],
        }),
        adapter?.features.refunds
          ? client.readContract({
              address: target.registry,
              abi: nextRegistryAbi,
              functionName: 'claimableRefunds',
              args: [address],
            })
          : null,
        adapter?.features.claimableRewards
          ? client.readContract({
              address: target.registry,
              abi: nextRegistryAbi,
              functionName: 'claimableRewards',
              args: [address],
            })
          : null,
        adapter && whitelisted && !retired
          ? orNullOnRevert(
              adapter.readDelegationDigest(client, target.registry, {
                blsPubkey: `0x${'00'.repeat(96)}`,
                validator: address,
                delegator: '0x0000000000000000000000000000000000000000',
                deadline: adapter.features.deadline ? 0n : null,
              }),
            )
          : null,
        // the epoch's first block, for its time (it may not be out yet right after a boundary)
        client.getBlock({ blockNumber: epoch.blockHeight }).catch(() => null),
      ]),
    adapter?.errorAbi,
  )
  return { config, refund, claimable, digest, epochStart }
}

/** The current, activation and exit epochs, and from which epoch unstake is accepted (Staked: now; Exited: exit + 1). */
function epochsOf(
  status: ValidatorStatus['status'],
  validator: FirstStatusBatch['validator'],
  epoch: FirstStatusBatch['epoch'],
) {
  const currentEpoch = epoch.epochId
  const activationEpoch = epochOrNull(validator?.activationEpoch, { zeroIsSet: true })
  const exitEpoch = epochOrNull(validator?.exitEpoch, { zeroIsSet: false })
  const unstakeEpoch =
    status === 'Staked' ? currentEpoch : status === 'Exited' && exitEpoch !== null ? exitEpoch + 1 : null
  const canUnstake = unstakeEpoch !== null && currentEpoch >= unstakeEpoch
  return { currentEpoch, activationEpoch, exitEpoch, unstakeEpoch, canUnstake }
}

/** uint32 max is the registry's "not set"; 0 is "not set" for the exit epoch (it starts there). */
function epochOrNull(value: number | undefined, { zeroIsSet }: { zeroIsSet: boolean }): number | null {
  if (value === undefined || value === UNSET_EPOCH) return null
  if (value === 0 && !zeroIsSet) return null
  return value
}
