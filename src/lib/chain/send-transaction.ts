/**
 * Signs a prepared transaction with a local key and hands it to the node. The raw bytes are
 * kept, so a retry or a rebroadcast sends the very same transaction (same hash): that makes
 * resending after a lost answer safe. A nonce taken by another transaction is reported to
 * the caller, which re-simulates before it signs anything new.
 */
import { type Hex, keccak256, type LocalAccount } from 'viem'
import type { ChainClient } from './client.js'
import { PendingTransactionConflictError } from './errors.js'
import { classifyRpcError, explainRpcError } from './rpc-errors.js'
import type { PreparedTransaction } from './transaction.js'

export type SendTransactionResult =
  | { status: 'sent'; hash: Hex; raw: Hex }
  /** The nonce was used by another transaction meanwhile; nothing of ours is in the pool. */
  | { status: 'nonce-used' }

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

/**
 * @example const sent = await sendTransaction(client, { account, tx, rpcUrl })
 */
export async function sendTransaction(
  client: ChainClient,
  { account, tx, rpcUrl }: { account: LocalAccount; tx: PreparedTransaction; rpcUrl: string },
): Promise<SendTransactionResult> {
  const raw = await signTransaction(account, tx)
  const hash = keccak256(raw)
  try {
    await client.sendRawTransaction({ serializedTransaction: raw })
    return { status: 'sent', hash, raw }
  } catch (err) {
    const kind = classifyRpcError(err)
    if (kind === 'already-known') return { status: 'sent', hash, raw }
    if (kind === 'underpriced')
      throw new PendingTransactionConflictError({ from: tx.from, nonce: tx.nonce, reason: 'replacement underpriced' })
    // The answer may have been lost after the node accepted it (a retried send then says
    // "nonce too low"): the pool or the chain knows our hash in that case.
    const known = await client.getTransaction({ hash }).then(
      () => true,
      () => false,
    )
    if (known) return { status: 'sent', hash, raw }
    if (kind === 'nonce-too-low') return { status: 'nonce-used' }
    throw explainRpcError(err, rpcUrl) ?? err
  }
}
