/**
 * What a sender needs before signing: balance, next nonce (pending, so a transaction still
 * in the pool is counted) and fees. Issued in the same tick as the caller's contract reads,
 * so all of it travels in the caller's first JSON-RPC batch.
 */
import type { Address } from 'viem'
import type { ChainClient } from './client.js'
import { eip1559Fees, type FeeParameters, feesFromGasPrice } from './transaction.js'

export type AccountState = {
  balance: bigint
  nonce: number
  fees: FeeParameters
  /** The latest block, read for its base fee: its number and timestamp (Unix seconds). */
  latestBlock: { number: bigint; timestamp: bigint }
}

/**
 * @example const [state, version] = await Promise.all([readAccountState(client, from), readVersion()])
 */
export async function readAccountState(client: ChainClient, address: Address): Promise<AccountState> {
  const [balance, nonce, block, tip] = await Promise.all([
    client.getBalance({ address }),
    client.getTransactionCount({ address, blockTag: 'pending' }),
    client.getBlock({ blockTag: 'latest' }),
    // some endpoints do not serve eth_maxPriorityFeePerGas; fall back to eth_gasPrice below
    client.request({ method: 'eth_maxPriorityFeePerGas' }).then(
      (hex) => BigInt(hex),
      () => null,
    ),
  ])
  const baseFee = block.baseFeePerGas ?? null
  const fees = eip1559Fees(baseFee, tip) ?? feesFromGasPrice(baseFee, await client.getGasPrice())
  return {
    balance,
    nonce,
    fees,
    latestBlock: { number: block.number, timestamp: block.timestamp },
  }
}
