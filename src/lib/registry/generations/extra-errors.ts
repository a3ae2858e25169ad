/**
 * Errors that can reach a registry call without being declared by the registry's own ABI:
 * the Issuance contract's (it pays stake and rewards for the registry, and its reverts bubble
 * up; registry.md §4, measured: a claim with an empty pool reverts InsufficientBalance(0, r)),
 * and the selectors the next generation's code holds that no known name matches
 * (registry-next.md §0).
 */
import type { Hex } from 'viem'

/** Issuance (0x07a0…07a0) errors of the adiri deployment (registry.md §4). */
export const issuanceErrorsAbi = [
  {
    type: 'error',
    name: 'InsufficientBalance',
    inputs: [
      { name: 'available', type: 'uint256', internalType: 'uint256' },
      { name: 'required', type: 'uint256', internalType: 'uint256' },
    ],
  },
  {
    type: 'error',
    name: 'RewardDistributionFailure',
    inputs: [{ name: 'recipient', type: 'address', internalType: 'address' }],
  },
  {
    type: 'error',
    name: 'OnlyStakeManager',
    inputs: [{ name: 'caller', type: 'address', internalType: 'address' }],
  },
] as const

/**
 * Error selectors in the next generation's code that match no known error: printed as unknown,
 * with where they come from. Probably errors of tn-contracts #165/#169, whose source is not public.
 */
export const UNIDENTIFIED_NEXT_ERROR_SELECTORS: readonly Hex[] = ['0x00f714ce', '0x90ea90ae', '0xa65ebb25']
