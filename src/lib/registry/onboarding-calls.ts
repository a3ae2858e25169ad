/**
 * The onboarding as a Safe executes it (`tnv stake --unsigned --format safe`): the stake that
 * `stake` left unsigned and, through active, the activate after it, each built by the adapter of
 * the generation detected at the registry. No read: the stake's result carries what is needed.
 */
import type { Address, Hex } from 'viem'
import { registryAdapters } from './generations/adapters.js'
import type { StakeReturnType } from './stake.js'

export type OnboardingCall = { to: Address; value: string; data: Hex }

export type OnboardingCallsParameters = {
  /** The result of `stake` for the Safe (unsigned, or already done). */
  stake: StakeReturnType
  /** `active`: the activate follows the stake in the same batch. */
  through: 'staked' | 'active' | undefined
}

export type OnboardingCallsReturnType = {
  /** In execution order; empty when there is nothing left to batch. */
  calls: OnboardingCall[]
  /** The batch's name for the Safe app. */
  name: string
}

/**
 * @example
 * const r = await stake(ctx, { signer: { type: 'unsigned', address: safe }, ... })
 * const { calls, name } = onboardingCalls({ stake: r, through: 'active' }) // stake, then activate
 */
export function onboardingCalls({ stake, through }: OnboardingCallsParameters): OnboardingCallsReturnType {
  const calls: OnboardingCall[] =
    stake.outcome === 'unsigned'
      ? [{ to: stake.unsigned.to, value: stake.unsigned.value, data: stake.unsigned.data }]
      : []
  if (through === 'active') {
    const generation = stake.registry.generation
    // a write is never prepared for unrecognised code (./registry-guard.ts): a generation is known
    if (generation === null) throw new Error('onboardingCalls: the stake result names no registry generation')
    calls.push({ to: stake.registry.address, value: '0', data: registryAdapters[generation].activateData() })
  }
  const name =
    calls.length > 1
      ? 'tnv onboarding: stake, then activate'
      : stake.outcome === 'unsigned'
        ? 'tnv stake'
        : 'tnv activate'
  return { calls, name }
}
