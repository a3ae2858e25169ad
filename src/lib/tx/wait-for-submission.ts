/**
 * Settles a transaction known only by its hash (a journal entry of an older tnv, written after
 * the send and without its bytes): its receipt (success or reverted), or `dropped` when the node
 * no longer knows it (neither mined nor in the pool) on several polls in a row. A transaction
 * still pending is waited for until the timeout.
 */
import { type Hex, TransactionNotFoundError, TransactionReceiptNotFoundError } from 'viem'
import type { ChainClient } from '../chain/client.js'
import { explainRpcError } from '../chain/rpc-errors.js'
import { RpcTimeoutError } from '../node/errors.js'

export type WaitForSubmissionParameters = {
  hash: Hex
  rpcUrl: string
  timeoutMs?: number
  pollMs?: number
  /** Consecutive polls that find the transaction nowhere before it counts as dropped. */
  missingPolls?: number
}

export type WaitForSubmissionReturnType = {
  outcome: 'success' | 'reverted' | 'dropped'
  blockNumber: bigint | null
}

export async function waitForSubmission(
  client: ChainClient,
  { hash, rpcUrl, timeoutMs = 600_000, pollMs = 1000, missingPolls = 5 }: WaitForSubmissionParameters,
): Promise<WaitForSubmissionReturnType> {
  const deadline = Date.now() + timeoutMs
  const rpc = <T>(p: Promise<T>) =>
    p.catch((err: unknown) => {
      throw explainRpcError(err, rpcUrl) ?? err
    })
  let missing = 0
  for (;;) {
    const receipt = await rpc(
      client.getTransactionReceipt({ hash }).catch((err: unknown) => {
        if (err instanceof TransactionReceiptNotFoundError) return null
        throw err
      }),
    )
    if (receipt)
      return { outcome: receipt.status === 'success' ? 'success' : 'reverted', blockNumber: receipt.blockNumber }
    const pending = await rpc(
      client.getTransaction({ hash }).catch((err: unknown) => {
        if (err instanceof TransactionNotFoundError) return null
        throw err
      }),
    )
    missing = pending ? 0 : missing + 1
    if (missing >= missingPolls) return { outcome: 'dropped', blockNumber: null }
    if (Date.now() > deadline)
      throw new RpcTimeoutError(
        `The receipt of ${hash}`,
        Math.round(timeoutMs / 1000),
        'The transaction is still pending: run the same command again later; it waits for this transaction and never sends a second one.',
      )
    await new Promise((r) => setTimeout(r, pollMs))
  }
}
