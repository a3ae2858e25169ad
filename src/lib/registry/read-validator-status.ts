/**
 * Everything an operator asks about a validator, in two batched round trips: the first holds
 * the chain id, the block number and every view that depends only on the address; the
 * second, the stake config of the version that applies. This object is the JSON of
 * `tnv validator status --json`.
 */
import type { Address, Hex } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { DEVNET_CHAIN_ID } from '../chain/presets.js'
import { registryAbi, statusName, type ValidatorStatusName } from './abi.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import type { RegistryContext } from './types.js'

export type ValidatorStatus = {
  chain: ChainInfo
  address: Address
  /** Holds a ConsensusNFT (balanceOf = 1). */
  whitelisted: boolean
  status: Exclude<ValidatorStatusName, 'Any'>
  activationEpoch: number
  /** 0 until exit begins. */
  exitEpoch: number
  currentEpoch: number
  /** First epoch in which unstake is accepted: now when Staked, exit epoch + 1 once exiting; null otherwise. */
  unstakeEpoch: number | null
  /** Unstake would be accepted now (status and epoch; the reward pool is checked by `tnv unstake`). */
  canUnstake: boolean
  retired: boolean
  delegated: boolean
  /** Accrued rewards, wei. */
  rewards: string
  /** The validator's stake version once staked, else the current epoch's. */
  stakeVersion: number
  /** stakeAmount of that version, wei. */
  stakeAmount: string
  currentStakeVersion: number
  /** The registered BLS key, null before staking. */
  blsPubkey: Hex | null
  /** Nonce that delegation signatures must carry (increaseNonce revokes older ones). */
  delegationNonce: string
  /** Refund credited to this address after a rejected transfer, wei. */
  refund: string
  /** In the current epoch's committee. */
  inCommittee: boolean
  blockNumber: string
  /** Block at which the current epoch started. */
  epochStartBlock: string
  /** Length of an epoch as the registry states it (blocks on the devnet, seconds on the real network). */
  epochDuration: number
  /** First block of the next epoch, when epochs are counted in blocks (the devnet); else null. */
  nextEpochBlock: string | null
  blocksToNextEpoch: number | null
}

export type ReadValidatorStatusParameters = { address: Address }

/**
 * @example const s = await readValidatorStatus(ctx, { address: '0x…' }); s.status // 'Active'
 */
export async function readValidatorStatus(
  ctx: RegistryContext,
  { address }: ReadValidatorStatusParameters,
): Promise<ValidatorStatus> {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: registryAbi } as const
  return withRpcErrors(target, async () => {
    const [chainId, blockNumber, nft, validator, retired, delegated, rewards, epoch, bls, nonce, refund] =
      await Promise.all([
        client.getChainId(),
        client.getBlockNumber({ cacheTime: 0 }),
        client.readContract({ ...registry, functionName: 'balanceOf', args: [address] }),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [address] })),
        client.readContract({ ...registry, functionName: 'isRetired', args: [address] }),
        client.readContract({ ...registry, functionName: 'isDelegated', args: [address] }),
        client.readContract({ ...registry, functionName: 'getRewards', args: [address] }),
        client.readContract({ ...registry, functionName: 'getCurrentEpochInfo' }),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getBlsPubkey', args: [address] })),
        client.readContract({ ...registry, functionName: 'delegationNonce', args: [address] }),
        client.readContract({ ...registry, functionName: 'refunds', args: [address] }),
      ])
    const chain = checkChainId(target, chainId)
    const code = validator?.currentStatus ?? 0
    const name = statusName(code)
    const status = name === 'Any' ? 'Undefined' : name
    const staked = status !== 'Undefined'
    const stakeVersion = staked && validator ? validator.stakeVersion : epoch.stakeVersion
    const config = await client.readContract({ ...registry, functionName: 'stakeConfig', args: [stakeVersion] })

    const currentEpoch = epoch.epochId
    const exitEpoch = validator?.exitEpoch ?? 0
    const exiting = status === 'PendingExit' || status === 'Exited'
    const unstakeEpoch = retired
      ? null
      : status === 'Staked'
        ? currentEpoch
        : exiting && exitEpoch > 0
          ? exitEpoch + 1
          : null
    const canUnstake = !retired && (status === 'Staked' || (status === 'Exited' && currentEpoch >= exitEpoch + 1))
    const inBlocks = chainId === DEVNET_CHAIN_ID
    const nextEpochBlock = inBlocks ? epoch.blockHeight + BigInt(epoch.epochDuration) : null
    return {
      chain,
      address,
      whitelisted: nft > 0n,
      status,
      activationEpoch: validator?.activationEpoch ?? 0,
      exitEpoch,
      currentEpoch,
      unstakeEpoch,
      canUnstake,
      retired,
      delegated,
      rewards: rewards.toString(),
      stakeVersion,
      stakeAmount: config.stakeAmount.toString(),
      currentStakeVersion: epoch.stakeVersion,
      blsPubkey: bls && bls !== '0x' ? bls : null,
      delegationNonce: nonce.toString(),
      refund: refund.toString(),
      inCommittee: epoch.committee.some((a) => a.toLowerCase() === address.toLowerCase()),
      blockNumber: blockNumber.toString(),
      epochStartBlock: epoch.blockHeight.toString(),
      epochDuration: epoch.epochDuration,
      nextEpochBlock: nextEpochBlock === null ? null : nextEpochBlock.toString(),
      blocksToNextEpoch: nextEpochBlock === null ? null : Math.max(0, Number(nextEpochBlock - blockNumber)),
    }
  })
}
