/**
 * `claimRefund()`: withdraws an amount credited to the signer after a payout it rejected
 * (spec rule 5). Nothing credited: success, nothing sent.
 */
import { type Address, encodeFunctionData } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import { registryAbi } from './abi.js'
import { withRpcErrors } from './reads.js'
import { submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type ClaimRefundParameters = OperationOptions & { signer: Signer }

export type ClaimRefundReturnType = TxOutcome & {
  chain: ChainInfo
  recipient: Address
  /** wei */
  amount: string
}

/**
 * @example const r = await claimRefund(ctx, { signer }); r.amount
 */
export async function claimRefund(
  ctx: RegistryContext,
  { signer, report, confirm }: ClaimRefundParameters,
): Promise<ClaimRefundReturnType> {
  const { client, target } = ctx
  const recipient = signer.address
  const [chainId, amount, account] = await withRpcErrors(target, () =>
    Promise.all([
      client.getChainId(),
      client.readContract({ address: target.registry, abi: registryAbi, functionName: 'refunds', args: [recipient] }),
      readAccountState(client, recipient),
    ]),
  )
  const chain = checkChainId(target, chainId)
  const base = { chain, recipient, amount: amount.toString() }
  if (amount === 0n)
    return { ...base, outcome: 'already-done', message: `No refund is credited to ${recipient}; nothing was sent.` }
  report?.({ type: 'step', message: `${formatTelAndWei(amount)} is credited to ${recipient}` })
  const { outcome } = await submit({
    ctx,
    chain,
    signer,
    account,
    data: encodeFunctionData({ abi: registryAbi, functionName: 'claimRefund' }),
    action: 'claimRefund',
    title: `Withdraw the refund of ${formatTelAndWei(amount)} credited to ${recipient}`,
    rows: [['refund', formatTelAndWei(amount)]],
    revert: { validator: recipient },
    report,
    confirm,
  })
  return { ...base, ...outcome }
}
