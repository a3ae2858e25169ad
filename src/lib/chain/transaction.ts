/**
 * A transaction fully prepared before anything is signed: the same object is shown to the
 * operator (amounts in TEL and wei), printed by --unsigned, and signed by a local key.
 */
import type { Address, Hex } from 'viem'

export type FeeParameters =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'legacy'; gasPrice: bigint }

export type PreparedTransaction = {
  chainId: number
  from: Address
  to: Address
  value: bigint
  data: Hex
  /** Gas limit: the simulation's estimate plus a margin. */
  gas: bigint
  nonce: number
  fees: FeeParameters
}

/** The most the transaction can cost: value plus gas limit times the highest fee per gas. */
export function maxCost(tx: PreparedTransaction): bigint {
  return tx.value + tx.gas * maxFeePerGas(tx.fees)
}

export function maxFeePerGas(fees: FeeParameters): bigint {
  return fees.type === 'eip1559' ? fees.maxFeePerGas : fees.gasPrice
}

/**
 * Fees from the latest block's base fee and the node's suggested tip: a max fee of twice the
 * base fee plus the tip survives several full blocks of base-fee growth; only base fee plus
 * tip is paid. Null when the block has no base fee or the node suggests no tip.
 */
export function eip1559Fees(baseFeePerGas: bigint | null, maxPriorityFeePerGas: bigint | null): FeeParameters | null {
  if (baseFeePerGas === null || maxPriorityFeePerGas === null) return null
  return { type: 'eip1559', maxFeePerGas: baseFeePerGas * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas }
}

/** From eth_gasPrice alone: legacy pricing without a base fee, else the tip is what it asks above it. */
export function feesFromGasPrice(baseFeePerGas: bigint | null, gasPrice: bigint): FeeParameters {
  if (baseFeePerGas === null) return { type: 'legacy', gasPrice }
  const tip = gasPrice > baseFeePerGas ? gasPrice - baseFeePerGas : 0n
  return { type: 'eip1559', maxFeePerGas: baseFeePerGas * 2n + tip, maxPriorityFeePerGas: tip }
}

/** Gas limit from an estimate: +20 %, because state may move between simulation and inclusion. */
export function gasWithMargin(estimate: bigint): bigint {
  return (estimate * 120n) / 100n
}

/** `--unsigned` output: JSON numbers as decimal strings (wei), plus a ready `cast send` line. */
export type UnsignedTransaction = {
  from: Address
  to: Address
  value: string
  data: Hex
  chainId: number
  gas: string
  nonce: number
  type: 'eip1559' | 'legacy'
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  gasPrice?: string
  /** `cast send` with the same calldata, value, gas and nonce; add your signer (--ledger, --keystore, ...). */
  cast: string
}

export function toUnsignedTransaction(tx: PreparedTransaction, rpcUrl: string): UnsignedTransaction {
  const cast = [
    'cast send',
    tx.to,
    tx.data,
    `--value ${tx.value}`,
    `--gas-limit ${tx.gas}`,
    `--nonce ${tx.nonce}`,
    `--chain ${tx.chainId}`,
    `--rpc-url ${rpcUrl}`,
    `--from ${tx.from}`,
    ...(tx.fees.type === 'legacy' ? ['--legacy'] : []),
  ].join(' ')
  return {
    from: tx.from,
    to: tx.to,
    value: tx.value.toString(),
    data: tx.data,
    chainId: tx.chainId,
    gas: tx.gas.toString(),
    nonce: tx.nonce,
    type: tx.fees.type,
    ...(tx.fees.type === 'eip1559'
      ? {
          maxFeePerGas: tx.fees.maxFeePerGas.toString(),
          maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas.toString(),
        }
      : { gasPrice: tx.fees.gasPrice.toString() }),
    cast,
  }
}
