/**
 * `beginExit()` from the validator address: Active → PendingExit. The protocol moves it to
 * Exited once it has no committee assignment in the current and the 2 next epochs; unstake
 * is accepted from exit epoch + 1. Irreversible. Idempotent: PendingExit or Exited reports
 * success and sends nothing.
 */
import { type Address, encodeFunctionData } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { registryAbi, statusName } from './abi.js'
import { NotWhitelistedError, WrongStatusError } from './errors.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import { submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type BeginExitParameters = OperationOptions & { signer: Signer }

export type BeginExitReturnType = TxOutcome & {
  chain: ChainInfo
  validator: Address
  currentEpoch: number
}

/**
 * @example await beginExit(ctx, { signer, confirm: async (plan) => askNo(plan) })
 */
export async function beginExit(
  ctx: RegistryContext,
  { signer, report, confirm }: BeginExitParameters,
): Promise<BeginExitReturnType> {
  const { client, target } = ctx
  const validator = signer.address
  const registry = { address: target.registry, abi: registryAbi } as const
  const [chainId, nft, record, epoch, account] = await withRpcErrors(target, () =>
    Promise.all([
      client.getChainId(),
      client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
      client.readContract({ ...registry, functionName: 'getCurrentEpoch' }),
      readAccountState(client, validator),
    ]),
  )
  const chain = checkChainId(target, chainId)
  const status = statusName(record?.currentStatus ?? 0)
  const base = { chain, validator, currentEpoch: epoch }
  if (status === 'PendingExit' || status === 'Exited' || record?.isRetired)
    return {
      ...base,
      outcome: 'already-done',
      message: `${validator} is already ${record?.isRetired ? 'retired' : status}; nothing was sent.`,
    }
  if (status === 'Undefined' && nft === 0n) throw new NotWhitelistedError(validator)
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
    signer,
    account,
    data: encodeFunctionData({ abi: registryAbi, functionName: 'beginExit' }),
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
  })
  return { ...base, ...outcome }
}
