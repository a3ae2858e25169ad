/**
 * What a sender needs before signing: balance, next nonce (pending, so a transaction still
 * in the pool is counted) and fees. Issued in the same tick as the caller's contract reads,
 * so all of it travels in the caller's first JSON-RPC batch.
 */
import type { Address } from 'viem'
import type { ChainClient } from './client.js'
import { type FeeParameters, feesFrom } from './transaction.js'

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
  let fees = feesFrom({ baseFeePerGas: block.baseFeePerGas, maxPriorityFeePerGas: tip, gasPrice: null })
  if (fees === null) {
    const gasPrice = await client.getGasPrice()
    fees =
      block.baseFeePerGas !== null && block.baseFeePerGas !== undefined
        ? feesFrom({
            baseFeePerGas: block.baseFeePerGas,
            maxPriorityFeePerGas: gasPrice > block.baseFeePerGas ? gasPrice - block.baseFeePerGas : 0n,
            gasPrice,
          })
        : feesFrom({ baseFeePerGas: null, maxPriorityFeePerGas: null, gasPrice })
  }
  return {
    balance,
    nonce,
    fees: fees as FeeParameters,
    latestBlock: { number: block.number, timestamp: block.timestamp },
  }
}
