/**
 * Validator status codes and epoch sentinels, the same in both registry generations
 * (registry.md §2, registry-next.md §6, measured on the real code).
 */

/** The registry's status enum, in order. */
export const VALIDATOR_STATUSES = [
  'Undefined',
  'Staked',
  'PendingActivation',
  'Active',
  'PendingExit',
  'Exited',
  'Any',
] as const
export type ValidatorStatusName = (typeof VALIDATOR_STATUSES)[number]

/**
 * Status 6 (`Any`) is a query wildcard for `getValidators`, and is also what the registry
 * stores for a retired validator (with `isRetired` true).
 */
export const RETIRED_STATUS_CODE = 6

/** `activationEpoch` while Staked, and `exitEpoch` while PendingExit: uint32 max means "not set". */
export const UNSET_EPOCH = 4294967295

export function statusName(code: number): ValidatorStatusName {
  const name = VALIDATOR_STATUSES[code]
  if (name === undefined) throw new RangeError(`unknown validator status code ${code}`)
  return name
}
