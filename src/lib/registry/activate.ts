/**
 * `activate()` from the validator address: Staked → PendingActivation, Active from the next
 * epoch boundary (eligible for committees after that; inclusion is not guaranteed).
 * Idempotent: PendingActivation or Active reports success and sends nothing.
 */
import type { Address } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import type { Signer } from '../chain/signer.js'
import type { StepRun } from '../tx/run-step.js'
import { AddressRetiredError, NotWhitelistedError, WrongStatusError } from './errors.js'
import { readOwnValidator } from './read-own-validator.js'
import type { RegistryInfo } from './registry-guard.js'
import { registryStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type ActivateParameters = OperationOptions & { signer: Signer }

export type ActivateReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
  validator: Address
  /** The epoch whose start makes the validator Active. */
  activeFromEpoch: number
}

/**
 * @example const r = await activate(ctx, { signer }); r.activeFromEpoch
 */
export async function activate(ctx: RegistryContext, params: ActivateParameters): Promise<ActivateReturnType> {
  return registryStep(ctx, 'activate', params, (run) => activateStep(ctx, params, run))
}

async function activateStep(
  ctx: RegistryContext,
  { signer, report, confirm }: ActivateParameters,
  run: StepRun,
): Promise<ActivateReturnType> {
  const validator = signer.address
  const { chain, registry, adapter, nft, record, status, epoch, account } = await readOwnValidator(
    ctx,
    validator,
    'activate',
    report,
  )
  const base = { chain, registry, validator, activeFromEpoch: epoch + 1 }
  // the registry records the epoch activation takes effect in (the one after the epoch activate()
  // was mined in): once it is set, that is the answer, whatever the epoch is now
  if (status === 'PendingActivation' || status === 'Active')
    return {
      ...base,
      activeFromEpoch: recordedActivationEpoch(status, record, epoch),
      outcome: 'already-done',
      message: `${validator} is already ${status}; nothing was sent.`,
    }
  checkStaked(validator, status, nft)
  report?.({
    type: 'step',
    message: `${validator} is Staked; activation takes effect at the next epoch boundary after the transaction is mined (epoch ${epoch + 1} if it is mined in epoch ${epoch})`,
  })
  const { outcome } = await submit({
    ctx,
    chain,
    adapter,
    signer,
    account,
    data: adapter.activateData(),
    action: 'activate',
    title: `Activate validator ${validator} (Active from the epoch after the one it is mined in: epoch ${epoch + 1} if mined in the current epoch ${epoch})`,
    rows: [
      ['validator', validator],
      ['current epoch', String(epoch)],
    ],
    revert: { validator },
    report,
    confirm,
    run,
  })
  if (outcome.outcome !== 'sent') return { ...base, ...outcome }
  // the epoch may have turned between the preview and the block: the registry's record says
  const after = await readOwnValidator(ctx, validator, 'activate', undefined)
  const recorded = after.record?.activationEpoch ? Number(after.record.activationEpoch) : null
  return { ...base, activeFromEpoch: recorded ?? base.activeFromEpoch, ...outcome }
}

type OwnValidator = Awaited<ReturnType<typeof readOwnValidator>>

/** PendingActivation or Active: the epoch the registry records activation in (0 for a genesis validator). */
function recordedActivationEpoch(
  status: 'PendingActivation' | 'Active',
  record: OwnValidator['record'],
  epoch: number,
): number {
  if (status === 'Active') return Number(record?.activationEpoch ?? epoch) // 0 for a genesis validator
  return record?.activationEpoch ? Number(record.activationEpoch) : epoch + 1
}

/** activate applies only to a Staked validator: each other status is refused with what to do. */
function checkStaked(validator: Address, status: OwnValidator['status'], nft: bigint): void {
  if (status === 'Retired') throw new AddressRetiredError(validator)
  if (status === 'Undefined') {
    if (nft === 0n) throw new NotWhitelistedError(validator)
    throw new WrongStatusError(
      `${validator} has not staked yet (status Undefined): there is nothing to activate.`,
      'Stake first with `tnv stake`, then activate once the node is synced.',
    )
  }
  if (status !== 'Staked')
    throw new WrongStatusError(
      `${validator} is ${status}: activate applies only to a Staked validator.`,
      'Check the state with `tnv validator status`; an exiting or exited validator cannot be activated again.',
    )
}
