/**
 * Signs a prepared transaction with a local key. The raw bytes are what the journal keeps
 * (../tx/journal.ts), so a retry or a rebroadcast sends the very same transaction (same hash).
 */
import type { Hex, LocalAccount } from 'viem'
import type { PreparedTransaction } from './transaction.js'

/** @example const raw = await signTransaction(account, tx); const hash = keccak256(raw) */
export async function signTransaction(account: LocalAccount, tx: PreparedTransaction): Promise<Hex> {
  const common = { chainId: tx.chainId, nonce: tx.nonce, to: tx.to, value: tx.value, data: tx.data, gas: tx.gas }
  return tx.fees.type === 'eip1559'
    ? account.signTransaction({
        ...common,
        type: 'eip1559',
        maxFeePerGas: tx.fees.maxFeePerGas,
        maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas,
      })
    : account.signTransaction({ ...common, type: 'legacy', gasPrice: tx.fees.gasPrice })
}
