/**
 * The receipt of a transaction the devnet's engine mines (automine, or an `evm_mine` already
 * sent): asked for with `eth_getTransactionReceipt` every few milliseconds until it is there.
 *
 * Not viem's `waitForTransactionReceipt`, which acts on NEW block numbers: a block that appears
 * while it is still looking the transaction up (its replacement check) is passed over, and on an
 * automining engine that nothing else sends to, no further block ever comes, so it waits for
 * good. That hung the fork test's governance call about once in thirty runs under load, with no
 * request outstanding at the engine. On a live chain blocks keep coming; here they do not.
 */
import { type Hex, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'
import { DevnetTransactionError } from './errors.js'

export type EngineReceiptOptions = {
  /** Give up after this long. Default 60 s. */
  timeoutMs?: number
  /** Between two asks. Default 20 ms. */
  intervalMs?: number
}

/** @example const receipt = await engineReceipt(client, hash) */
export async function engineReceipt(
  client: { getTransactionReceipt(args: { hash: Hex }): Promise<TransactionReceipt> },
  hash: Hex,
  { timeoutMs = 60_000, intervalMs = 20 }: EngineReceiptOptions = {},
): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await client.getTransactionReceipt({ hash })
    } catch (err) {
      if (!(err instanceof TransactionReceiptNotFoundError)) throw err
    }
    if (Date.now() >= deadline)
      throw new DevnetTransactionError(`transaction ${hash} was not mined`, {
        details: [`no receipt after ${Math.round(timeoutMs / 1000)} s; the engine may have stopped mining`],
      })
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
