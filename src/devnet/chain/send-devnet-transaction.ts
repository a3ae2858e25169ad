/**
 * Sends one of the devnet's own transactions (bootstrap, concludeEpoch, stake config) from a
 * local devnet key with a fixed gas limit (no estimate round trips: these run on every start
 * and every epoch) and waits for its receipt. A revert becomes a DevnetTransactionError naming
 * the registry's custom error, found by replaying the call on the state before the block.
 */
import {
  type Abi,
  type Address,
  BaseError,
  type ContractFunctionArgs,
  type ContractFunctionName,
  decodeErrorResult,
  type EncodeFunctionDataParameters,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type WalletClient,
} from 'viem'
import { consensusRegistryAbi } from './abi.js'
import { DevnetTransactionError } from './errors.js'

export type SendDevnetTransactionParameters<
  abi extends Abi,
  functionName extends ContractFunctionName<abi, 'nonpayable' | 'payable'>,
> = {
  /** What the transaction does, for the error message ("conclude epoch 3"). */
  what: string
  address: Address
  abi: abi
  functionName: functionName
  args: ContractFunctionArgs<abi, 'nonpayable' | 'payable', functionName>
  value?: bigint
  /** Gas limit; the sender pays only the gas used. */
  gas: bigint
}

/**
 * @example await sendDevnetTransaction(publicClient, systemWallet, { what: 'conclude epoch 0', address, abi, functionName: 'concludeEpoch', args: [0], gas: 15_000_000n })
 */
export async function sendDevnetTransaction<
  const abi extends Abi,
  functionName extends ContractFunctionName<abi, 'nonpayable' | 'payable'>,
>(
  publicClient: PublicClient,
  wallet: WalletClient,
  params: SendDevnetTransactionParameters<abi, functionName>,
): Promise<TransactionReceipt> {
  const { what, address, value, gas } = params
  const data = encodeFunctionData({
    abi: params.abi,
    functionName: params.functionName,
    args: params.args,
  } as EncodeFunctionDataParameters)
  const account = wallet.account
  if (!account) throw new DevnetTransactionError(`${what}: the wallet has no account`)
  let receipt: TransactionReceipt
  try {
    const hash = await wallet.sendTransaction({ account, chain: wallet.chain, to: address, data, value, gas })
    receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  } catch (cause) {
    throw new DevnetTransactionError(what, { cause, details: [describeRevert(cause)] })
  }
  if (receipt.status === 'success') return receipt
  let reason = `transaction ${receipt.transactionHash} reverted`
  try {
    await publicClient.call({ account, to: address, data, value, gas, blockNumber: receipt.blockNumber - 1n })
  } catch (err) {
    reason = `${reason}: ${describeRevert(err)}`
  }
  throw new DevnetTransactionError(what, { details: [reason] })
}

/** The registry's custom error in a viem error chain, else viem's short message. */
function describeRevert(err: unknown): string {
  if (!(err instanceof BaseError)) return String(err)
  const withData = err.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: Hex } | null
  if (withData?.data) {
    try {
      const decoded = decodeErrorResult({ abi: consensusRegistryAbi, data: withData.data })
      return `reverted with ${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`
    } catch {
      return `reverted with data ${withData.data}`
    }
  }
  return err.shortMessage
}
