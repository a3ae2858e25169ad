/**
 * `claimRefund()` (spec rule 5; next generation): withdraws what the registry credited to the
 * signer after a payout it rejected, read with `claimableRefunds(address)`. Nothing credited:
 * success, nothing sent. The adiri registry keeps no refunds (a rejected payout reverts the
 * whole call), so there is never anything to claim there: said so, nothing sent.
 */
import type { Address } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import type { StepRun } from '../tx/run-step.js'
import { readFirstBatch } from './first-batch.js'
import { nextRegistryAbi } from './generations/abi-next.js'
import { withRpcErrors } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import { registryStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type ClaimRefundParameters = OperationOptions & { signer: Signer }

export type ClaimRefundReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
  recipient: Address
  /** wei; null where the registry keeps no refunds (adiri). */
  amount: string | null
}

/**
 * @example const r = await claimRefund(ctx, { signer }); r.amount
 */
export async function claimRefund(ctx: RegistryContext, params: ClaimRefundParameters): Promise<ClaimRefundReturnType> {
  return registryStep(ctx, 'claimRefund', params, (run) => claimRefundStep(ctx, params, run))
}

async function claimRefundStep(
  ctx: RegistryContext,
  { signer, report, confirm }: ClaimRefundParameters,
  run: StepRun,
): Promise<ClaimRefundReturnType> {
  const { client, target } = ctx
  const recipient = signer.address
  const {
    chain,
    adapter,
    registry,
    values: [account],
  } = await readFirstBatch(ctx, { purpose: 'write', action: 'claimRefund', report }, () =>
    Promise.all([readAccountState(client, recipient)]),
  )
  const base = { chain, registry, recipient }
  if (!adapter.features.refunds)
    return {
      ...base,
      amount: null,
      outcome: 'nothing-to-do',
      message: `The ${adapter.generation} registry keeps no refunds: it pays out directly, and a payout the recipient rejects reverts the whole call. There is nothing to claim; nothing was sent.`,
    }
  const amount = await withRpcErrors(
    target,
    () =>
      client.readContract({
        address: target.registry,
        abi: nextRegistryAbi,
        functionName: 'claimableRefunds',
        args: [recipient],
      }),
    adapter.errorAbi,
  )
  if (amount === 0n)
    return {
      ...base,
      amount: '0',
      outcome: 'nothing-to-do',
      message: `No refund is credited to ${recipient}; nothing was sent.`,
    }
  report?.({ type: 'step', message: `${formatTelAndWei(amount)} is credited to ${recipient}` })
  const { outcome } = await submit({
    ctx,
    chain,
    adapter,
    signer,
    account,
    data: adapter.claimRefundData(),
    action: 'claimRefund',
    title: `Withdraw the refund of ${formatTelAndWei(amount)} credited to ${recipient}`,
    rows: [['refund', formatTelAndWei(amount)]],
    revert: { validator: recipient },
    report,
    confirm,
    run,
  })
  return { ...base, amount: amount.toString(), ...outcome }
}
