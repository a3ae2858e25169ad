/**
 * `beginExit()` from the validator address: Active → PendingExit. The protocol moves it to
 * Exited once it has no committee assignment in the current and the 2 next epochs; unstake
 * is accepted from exit epoch + 1. Irreversible. Idempotent: PendingExit or Exited reports
 * success and sends nothing.
 */
import { type Address, encodeFunctionData } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import type { Signer } from '../chain/signer.js'
import type { StepRun } from '../tx/run-step.js'
import { NotWhitelistedError, WrongStatusError } from './errors.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { readOwnValidator } from './read-own-validator.js'
import type { RegistryInfo } from './registry-guard.js'
import { registryStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type BeginExitParameters = OperationOptions & { signer: Signer }

export type BeginExitReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
  validator: Address
  currentEpoch: number
}

/**
 * @example await beginExit(ctx, { signer, confirm: async (plan) => askNo(plan) })
 */
export async function beginExit(ctx: RegistryContext, params: BeginExitParameters): Promise<BeginExitReturnType> {
  return registryStep(ctx, 'beginExit', params, (run) => beginExitStep(ctx, params, run))
}

async function beginExitStep(
  ctx: RegistryContext,
  { signer, report, confirm }: BeginExitParameters,
  run: StepRun,
): Promise<BeginExitReturnType> {
  const validator = signer.address
  const { chain, registry, adapter, nft, record, status, epoch, account } = await readOwnValidator(
    ctx,
    validator,
    'beginExit',
    report,
  )
  const base = { chain, registry, validator, currentEpoch: epoch }
  if (status === 'PendingExit' || status === 'Exited' || status === 'Retired')
    return {
      ...base,
      outcome: 'already-done',
      message: `${validator} is already ${status === 'Retired' ? 'retired' : status}; nothing was sent.`,
    }
  if (status === 'Undefined' && nft === 0n) throw new NotWhitelistedError(validator)
  if (status === 'Active' && record !== null && epoch < record.activationEpoch)
    throw new WrongStatusError(
      `${validator} became Active for epoch ${record.activationEpoch}, and the current epoch is ${epoch}: the registry accepts beginExit from the activation epoch on.`,
      'Wait for the next epoch boundary, then run `tnv exit` again.',
    )
  if (status !== 'Active')
    throw new WrongStatusError(
      `${validator} is ${status}: only an Active validator can begin its exit.`,
      status === 'Staked'
        ? 'A Staked validator that never activated can unstake directly: `tnv unstake`.'
        : status === 'PendingActivation'
          ? 'Wait until it is Active (the next epoch boundary), then run `tnv exit` again.'
          : 'Nothing is staked: there is nothing to exit.',
    )
  const { outcome } = await submit({
    ctx,
    chain,
    adapter,
    signer,
    account,
    data: encodeFunctionData({ abi: sharedRegistryAbi, functionName: 'beginExit' }),
    action: 'beginExit',
    title: `Begin the exit of validator ${validator} (irreversible)`,
    rows: [
      ['validator', validator],
      ['current epoch', String(epoch)],
      [
        'then',
        'PendingExit until no committee duty is left (current + 2 epochs), then Exited; unstake from exit epoch + 1',
      ],
    ],
    irreversible: true,
    revert: { validator },
    report,
    confirm,
    run,
  })
  return { ...base, ...outcome }
}
