/**
 * Polls for the receipt. Transient endpoint faults do not abort the wait; a transaction that
 * fell out of the pool is rebroadcast (same raw bytes, same hash); if its nonce was taken by
 * another transaction meanwhile, that is reported, and a timeout names the hash to check.
 */
import { type Hex, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'
import type { ChainClient } from './client.js'
import { TransactionDroppedError, TransactionTimeoutError } from './errors.js'
import { classifyRpcError, isTransientRpcFault } from './rpc-errors.js'

export type WaitForReceiptParameters = {
  hash: Hex
  /** The signed bytes, for a rebroadcast if the pool drops the transaction (null: not known, no rebroadcast). */
  raw: Hex | null
  from: string
  nonce: number
  rpcUrl: string
  /** Default 180 s. */
  timeoutMs?: number
  /** Longest pause between polls, default 1000 ms (pauses grow from 25 ms, doubling). */
  pollMs?: number
}

export async function waitForReceipt(
  client: ChainClient,
  { hash, raw, from, nonce, rpcUrl, timeoutMs = 180_000, pollMs = 1000 }: WaitForReceiptParameters,
): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs
  for (let poll = 0; ; poll++) {
    // pauses of 25, 50, 100 ms …, up to pollMs: a devnet block lands within a few ms of the
    // send, a network block within seconds
    await new Promise((r) => setTimeout(r, Math.min(pollMs, 25 * 2 ** poll)))
    const receipt = await client.getTransactionReceipt({ hash }).catch((err: unknown) => {
      if (err instanceof TransactionReceiptNotFoundError || isTransientRpcFault(classifyRpcError(err))) return null
      throw err
    })
    if (receipt) return receipt
    if (poll > 0 && poll % 10 === 0 && raw !== null) await rebroadcastIfDropped(client, { hash, raw, from, nonce })
    if (Date.now() >= deadline)
      throw new TransactionTimeoutError({ hash, seconds: Math.round(timeoutMs / 1000), rpcUrl })
  }
}

async function rebroadcastIfDropped(
  client: ChainClient,
  { hash, raw, from, nonce }: { hash: Hex; raw: Hex; from: string; nonce: number },
): Promise<void> {
  const inPool = await client.getTransaction({ hash }).then(
    () => true,
    () => false,
  )
  if (inPool) return
  try {
    await client.sendRawTransaction({ serializedTransaction: raw })
  } catch (err) {
    const kind = classifyRpcError(err)
    if (kind === 'already-known' || isTransientRpcFault(kind)) return
    if (kind === 'nonce-too-low') {
      // mined between our two calls, or replaced: only the receipt tells
      const mined = await client.getTransactionReceipt({ hash }).then(
        () => true,
        () => false,
      )
      if (!mined) throw new TransactionDroppedError({ hash, from, nonce })
      return
    }
    throw err
  }
}
