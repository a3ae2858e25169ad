/**
 * What a bundle's transaction does, decoded from its calldata (never taken on trust from the
 * bundle's text): the function and arguments, the change on chain, and what can never be
 * undone. `prepareBundle` writes it; `signBundle` decodes the calldata again and refuses a
 * bundle whose recorded call is not what the calldata says.
 */
import { type Address, decodeFunctionData, type Hex, toFunctionSignature } from 'viem'
import { formatTelAndWei } from '../chain/units.js'
import { deadlineIso } from '../registry/deadline.js'
import { type RegistryGeneration, registryAbis } from '../registry/generations/detect.js'
import type { OfflineStep } from './bundle.js'

/** The journal step of each function a bundle may call. */
const STEP_OF_FUNCTION: Record<string, OfflineStep> = {
  stake: 'stake',
  activate: 'activate',
  beginExit: 'beginExit',
  unstake: 'unstake',
  claimStakeRewards: 'claimStakeRewards',
  delegateStake: 'delegateStake',
}

export type DecodedCall = { step: OfflineStep; function: string; args: unknown[] }

/** Arguments as JSON: bigints as decimal strings, tuples as objects. */
function jsonArgs(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(jsonArgs)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonArgs(v)]))
  return value
}

/**
 * @example const call = decodeRegistryCall('next', tx.data) // { step: 'activate', function: 'activate()', args: [] }
 * @returns null when the calldata is not a registry step of that generation
 */
export function decodeRegistryCall(generation: RegistryGeneration, data: Hex): DecodedCall | null {
  const abi = registryAbis[generation]
  let decoded: { functionName: string; args?: readonly unknown[] | undefined }
  try {
    decoded = decodeFunctionData({ abi, data }) as typeof decoded
  } catch {
    return null
  }
  const step = STEP_OF_FUNCTION[decoded.functionName]
  if (!step) return null
  const item = abi.find(
    (x) => x.type === 'function' && x.name === decoded.functionName && x.inputs.length === (decoded.args?.length ?? 0),
  )
  if (item?.type !== 'function') return null
  return { step, function: toFunctionSignature(item), args: jsonArgs(decoded.args ?? []) as unknown[] }
}

export type IntentParameters = {
  step: OfflineStep
  validator: Address
  from: Address
  value: bigint
  status: string
  epoch: number
  blsPubkey?: Hex | undefined
}

/** The title, the change on chain and the irreversible consequences of a step. */
export function describeIntent({ step, validator, from, value, status, epoch, blsPubkey }: IntentParameters): {
  title: string
  changes: string[]
  irreversible: string[]
} {
  const amount = formatTelAndWei(value)
  switch (step) {
    case 'stake':
      return {
        title: `Stake ${amount} for validator ${validator}`,
        changes: [
          `${validator}: status ${status} → Staked`,
          `${amount} moves from ${from} into the registry; only unstake returns it`,
          `BLS key ${blsPubkey ?? '(unknown)'} is registered for ${validator}`,
        ],
        irreversible: [
          `The BLS key ${blsPubkey ?? ''} is bound to ${validator} for good: no address can ever register it again.`,
          `${validator} stakes once: after an unstake it is retired and can never be whitelisted again.`,
        ],
      }
    case 'activate':
      return {
        title: `Activate validator ${validator} (Active from epoch ${epoch + 1})`,
        changes: [`${validator}: status ${status} → PendingActivation, Active from the start of epoch ${epoch + 1}`],
        irreversible: [],
      }
    case 'beginExit':
      return {
        title: `Begin the exit of validator ${validator}`,
        changes: [
          `${validator}: status ${status} → PendingExit, then Exited once it is in no committee of the current and the 2 next epochs`,
        ],
        irreversible: [
          `An exit cannot be cancelled: ${validator} never becomes Active again; unstake (from the exit epoch + 1) is the only next step.`,
        ],
      }
    case 'unstake':
      return {
        title: `Unstake validator ${validator}`,
        changes: [
          `${validator}: status ${status} → Retired`,
          `its stake and accrued rewards are paid out (to ${validator}, or its delegator when delegated)`,
        ],
        irreversible: [
          `${validator} is retired for good: governance can never whitelist it again, and its BLS key can never be registered again.`,
        ],
      }
    case 'delegateStake':
      return {
        title: `Stake ${amount} for validator ${validator}, paid by delegator ${from}`,
        changes: [
          `${validator}: status ${status} → Staked, delegated to ${from}`,
          `${amount} moves from ${from} into the registry; only unstake returns it, to ${from}`,
          `BLS key ${blsPubkey ?? '(unknown)'} is registered for ${validator}`,
        ],
        irreversible: [
          `The BLS key ${blsPubkey ?? ''} is bound to ${validator} for good: no address can ever register it again.`,
          `${validator} stakes once: after an unstake it is retired and can never be whitelisted again.`,
        ],
      }
    case 'claimStakeRewards':
      return {
        title: `Claim the accrued rewards of validator ${validator}`,
        changes: [`the accrued rewards of ${validator} are paid out (to it, or its delegator when delegated)`],
        irreversible: [],
      }
  }
}

/** What a delegation signature allows, and what cannot be undone once it is used. */
export function describeDelegationIntent({
  validator,
  delegator,
  blsPubkey,
  deadline,
  revocable,
}: {
  validator: Address
  delegator: Address
  blsPubkey: Hex
  deadline: bigint | null
  /** The registry offers increaseNonce (the next generation). */
  revocable: boolean
}): { title: string; changes: string[]; irreversible: string[] } {
  return {
    title: `Authorise ${delegator} to stake for validator ${validator}`,
    changes: [
      `nothing on chain yet: ${delegator} may then stake the stake amount for ${validator} with BLS key ${blsPubkey}${deadline === null ? '' : ` until ${deadlineIso(deadline)}`}`,
      `${validator} becomes delegated: its stake and rewards are paid to ${delegator} at unstake`,
    ],
    irreversible: [
      `Once ${delegator} stakes with it, the BLS key ${blsPubkey} is bound to ${validator} for good.`,
      `Until then it can be revoked only by raising the delegation nonce (\`tnv delegation revoke\`${revocable ? '' : ', which this registry does not offer'}).`,
    ],
  }
}
