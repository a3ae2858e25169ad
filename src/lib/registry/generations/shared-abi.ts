/**
 * The registry functions both generations have with the same selector, inputs and outputs
 * (registry-next.md §1 "Unchanged"). A command's first read batch is issued before the code
 * at the address is known, so it may use only these; test/registry/generations.test.ts checks
 * every one against both generations' ABIs.
 */
import { nextRegistryAbi } from './abi-next.js'

export const SHARED_FUNCTIONS = [
  'activate',
  'balanceOf',
  'beginExit',
  'claimStakeRewards',
  'getBalanceBreakdown',
  'getBlsPubkey',
  'getCurrentEpoch',
  'getCurrentEpochInfo',
  'getCurrentStakeConfig',
  'getCurrentStakeVersion',
  'getEpochInfo',
  'getRewards',
  'getValidator',
  'isDelegated',
  'isRetired',
  'isValidator',
  'issuance',
  'mint',
  'owner',
  'paused',
  'stakeConfig',
] as const
export type SharedFunctionName = (typeof SHARED_FUNCTIONS)[number]

type SharedEntry = Extract<(typeof nextRegistryAbi)[number], { type: 'function'; name: SharedFunctionName }>

function isShared(entry: (typeof nextRegistryAbi)[number]): entry is SharedEntry {
  return entry.type === 'function' && (SHARED_FUNCTIONS as readonly string[]).includes(entry.name)
}

/** The functions of SHARED_FUNCTIONS, typed for viem (taken from the next ABI; identical in adiri's). */
export const sharedRegistryAbi: readonly SharedEntry[] = nextRegistryAbi.filter(isShared)

/** Events both generations emit identically (parsed with the next ABI whatever the generation). */
export const SHARED_EVENTS = ['RewardsClaimed', 'ValidatorRetired', 'ValidatorStaked', 'Transfer'] as const
