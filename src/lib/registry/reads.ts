/**
 * Helpers for batched reads. Reads issued in the same tick travel in one JSON-RPC batch
 * (the client's http transport batches); each call settles on its own, so one view that
 * reverts (e.g. getBlsPubkey of an address that never staked) does not sink the batch.
 */
import { type Abi, BaseError, ContractFunctionExecutionError, ContractFunctionRevertedError } from 'viem'
import type { ChainTarget } from '../chain/resolve-target.js'
import { explainRpcError } from '../chain/rpc-errors.js'
import type { TnvError } from '../errors.js'
import { isRevert, registryErrorFromRevert } from './decode-revert.js'
import { RegistryAnswerError } from './errors.js'

/** The value, or null when the view reverts (transport faults and garbage answers still throw). */
export function orNullOnRevert<T>(read: Promise<T>): Promise<T | null> {
  return read.catch((err: unknown) => {
    if (isViewRevert(err)) return null
    throw err
  })
}

/** A view's revert, as opposed to a transport fault or an answer that does not decode. */
export function isViewRevert(err: unknown): boolean {
  if (err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError)) return true
  if (err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionExecutionError)) return false
  return isRevert(err)
}

/**
 * The operator-facing error for a failed read, or undefined when tnv has nothing better to
 * say: a transport fault (RpcUnreachable), an answer that is not the view's type (garbage from
 * the endpoint), or a view that reverted where it must not (decoded with the error table).
 */
export function explainReadError(err: unknown, target: ChainTarget, errorAbi?: Abi): TnvError | undefined {
  const rpc = explainRpcError(err, target.rpcUrl)
  if (rpc) return rpc
  if (!(err instanceof BaseError)) return undefined
  const call = err.walk((e) => e instanceof ContractFunctionExecutionError) as ContractFunctionExecutionError | null
  // any other viem error of a read is an answer viem could not take (a missing block, bad hex, ...)
  if (!call)
    return new RegistryAnswerError(
      { rpcUrl: target.rpcUrl, what: 'a read', reason: err.shortMessage.split('\n')[0] ?? err.shortMessage },
      { cause: err },
    )
  const what = `${call.functionName} of ${target.registry}`
  if (err.walk((e) => e instanceof ContractFunctionRevertedError))
    return registryErrorFromRevert(err, {
      action: `reading ${what}`,
      validator: target.registry,
      signer: target.registry,
      errorAbi,
    })
  const inner = (call.cause as BaseError | undefined)?.shortMessage ?? call.shortMessage
  return new RegistryAnswerError({ rpcUrl: target.rpcUrl, what, reason: inner }, { cause: err })
}

/** Runs a group of reads; a transport fault or a garbage answer becomes the operator-facing error. */
export async function withRpcErrors<T>(target: ChainTarget, reads: () => Promise<T>, errorAbi?: Abi): Promise<T> {
  try {
    return await reads()
  } catch (err) {
    throw explainReadError(err, target, errorAbi) ?? err
  }
}
