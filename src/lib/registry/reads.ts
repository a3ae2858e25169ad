/**
 * Helpers for batched reads. Reads issued in the same tick travel in one JSON-RPC batch
 * (the client's http transport batches); each call settles on its own, so one view that
 * reverts (e.g. getBlsPubkey of an address that never staked) does not sink the batch.
 */

import type { ChainTarget } from '../chain/resolve-target.js'
import { explainRpcError } from '../chain/rpc-errors.js'
import { isRevert } from './decode-revert.js'

/** The value, or null when the view reverts (transport faults still throw). */
export function orNullOnRevert<T>(read: Promise<T>): Promise<T | null> {
  return read.catch((err: unknown) => {
    if (isRevert(err)) return null
    throw err
  })
}

/** Runs a group of reads; a transport fault becomes the operator-facing RPC error. */
export async function withRpcErrors<T>(target: ChainTarget, reads: () => Promise<T>): Promise<T> {
  try {
    return await reads()
  } catch (err) {
    throw explainRpcError(err, target.rpcUrl) ?? err
  }
}
