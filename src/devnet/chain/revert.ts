/**
 * Names a revert of the real registry code: the generation's ABI errors, plus the Issuance
 * pool's errors that bubble up through the registry (registry.md §4: `InsufficientBalance`
 * when the pool cannot pay a claim).
 */
import { type Abi, BaseError, decodeErrorResult, type Hex } from 'viem'
import { type RegistryGeneration, registryAbis } from '../../lib/registry/generations/detect.js'

/** Errors of the Issuance contract (0x07a0…07a0) that reach a registry caller (registry.md §4). */
export const issuanceErrorsAbi = [
  {
    type: 'error',
    name: 'InsufficientBalance',
    inputs: [
      { name: 'available', type: 'uint256' },
      { name: 'required', type: 'uint256' },
    ],
  },
  { type: 'error', name: 'RewardDistributionFailure', inputs: [{ name: 'recipient', type: 'address' }] },
  { type: 'error', name: 'OnlyStakeManager', inputs: [{ name: 'caller', type: 'address' }] },
] as const satisfies Abi

/** The revert data inside a viem error chain, if any. */
export function revertData(err: unknown): Hex | null {
  if (!(err instanceof BaseError)) return null
  const found = err.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: Hex } | null
  return found?.data?.startsWith('0x') ? (found.data as Hex) : null
}

/**
 * `ErrorName(arg, …)` for revert data of the registry of `generation` (or the Issuance pool).
 * @example describeRevertData('next', '0x…') // 'AlreadyDefined(0x12…)'
 */
export function describeRevertData(generation: RegistryGeneration, data: Hex | null): string {
  if (!data || data === '0x') return 'a revert without data'
  const abi = [...registryAbis[generation], ...issuanceErrorsAbi] as Abi
  try {
    const decoded = decodeErrorResult({ abi, data })
    return `${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`
  } catch {
    return `unrecognised revert data ${data.length > 74 ? `${data.slice(0, 74)}…` : data}`
  }
}

/** The decoded revert of a failed viem call, else its short message. */
export function describeRevert(generation: RegistryGeneration, err: unknown): string {
  const data = revertData(err)
  if (data) return describeRevertData(generation, data)
  if (err instanceof BaseError) return err.shortMessage
  return err instanceof Error ? err.message : String(err)
}
