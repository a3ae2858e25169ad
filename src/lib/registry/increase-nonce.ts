/**
 * `increaseNonce()` from the validator: every delegation signature it gave so far stops
 * working (the digest binds the nonce). `tnv delegation revoke`.
 */
import { type Address, encodeFunctionData } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { registryAbi } from './abi.js'
import { withRpcErrors } from './reads.js'
import { submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type IncreaseNonceParameters = OperationOptions & { signer: Signer }

export type IncreaseNonceReturnType = TxOutcome & {
  chain: ChainInfo
  validator: Address
  /** Nonce before; signatures made with it (or earlier) are revoked once sent. */
  previousNonce: string
  newNonce: string
}

/**
 * @example await increaseNonce(ctx, { signer })
 */
export async function increaseNonce(
  ctx: RegistryContext,
  { signer, report, confirm }: IncreaseNonceParameters,
): Promise<IncreaseNonceReturnType> {
  const { client, target } = ctx
  const validator = signer.address
  const [chainId, nonce, account] = await withRpcErrors(target, () =>
    Promise.all([
      client.getChainId(),
      client.readContract({
        address: target.registry,
        abi: registryAbi,
        functionName: 'delegationNonce',
        args: [validator],
      }),
      readAccountState(client, validator),
    ]),
  )
  const chain = checkChainId(target, chainId)
  report?.({ type: 'step', message: `delegation nonce of ${validator} is ${nonce}` })
  const { outcome } = await submit({
    ctx,
    chain,
    signer,
    account,
    data: encodeFunctionData({ abi: registryAbi, functionName: 'increaseNonce' }),
    action: 'increaseNonce',
    title: `Revoke every delegation signature of ${validator} (nonce ${nonce} → ${nonce + 1n})`,
    rows: [['validator', validator]],
    revert: { validator },
    report,
    confirm,
  })
  return { chain, validator, previousNonce: nonce.toString(), newNonce: (nonce + 1n).toString(), ...outcome }
}
