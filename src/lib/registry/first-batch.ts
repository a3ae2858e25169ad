/**
 * The first read batch of every registry command: the chain id (checked), the code at the
 * registry address (detected once per command, ./registry-guard.ts) and the command's own
 * reads, all issued in the same tick so they travel in one JSON-RPC request. The reads may use
 * only the views both generations share (./generations/shared-abi.ts): the generation is known
 * only when the batch returns. The guard is applied before any read's value is used, so
 * unrecognised code is reported as such, not as a failed read.
 */
import type { ChainInfo } from '../chain/check-chain-id.js'
import { checkChainId } from '../chain/check-chain-id.js'
import type { RegistryAdapter } from './generations/adapter.js'
import { anyGenerationErrorAbi } from './generations/adapters.js'
import type { SharedFunctionName } from './generations/shared-abi.js'
import { explainReadError } from './reads.js'
import { bindRegistryCode, guardRegistry, type RegistryInfo } from './registry-guard.js'
import type { RegistryContext, Reporter } from './types.js'

export type FirstBatchPurpose = 'read' | 'write'

export type FirstBatchParameters<P extends FirstBatchPurpose> = {
  purpose: P
  /** What would be signed, for the guard's messages ("stake"). */
  action: string
  /** Read-only: the shared views the command needs, for unrecognised code. */
  needs?: readonly SharedFunctionName[]
  /** Receives the registry's notes (an accepted unknown build, an unexpected generation) as warnings. */
  report?: Reporter | undefined
}

export type FirstBatchReturnType<T, P extends FirstBatchPurpose> = {
  chain: ChainInfo
  registry: RegistryInfo
  /** The generation's adapter; always set for `write` (unrecognised code throws). */
  adapter: P extends 'write' ? RegistryAdapter : RegistryAdapter | null
  values: T
}

/**
 * @example
 * const { chain, adapter, values: [nft] } = await readFirstBatch(ctx, { purpose: 'write', action: 'stake' }, () =>
 *   Promise.all([client.readContract({ address, abi: sharedRegistryAbi, functionName: 'balanceOf', args: [v] })]))
 */
export async function readFirstBatch<T, P extends FirstBatchPurpose>(
  ctx: RegistryContext,
  params: FirstBatchParameters<P>,
  reads: () => Promise<T>,
): Promise<FirstBatchReturnType<T, P>> {
  const { client, target } = ctx
  const chainIdRead = client.getChainId()
  const codeRead = ctx.bound ? Promise.resolve(undefined) : client.getCode({ address: target.registry })
  const valuesRead = reads()
  // settled below, after the guard; never an unhandled rejection meanwhile
  valuesRead.catch(() => {})
  let chainId: number
  let code: Awaited<typeof codeRead>
  try {
    ;[chainId, code] = await Promise.all([chainIdRead, codeRead])
  } catch (err) {
    throw explainReadError(err, target) ?? err
  }
  const chain = checkChainId(target, chainId)
  ctx.bound ??= bindRegistryCode(code)
  const { adapter, info } = guardRegistry({
    bound: ctx.bound,
    target,
    chain,
    policy: ctx.policy ?? {},
    purpose: params.purpose,
    action: params.action,
    needs: params.needs,
  })
  for (const message of info.notes) params.report?.({ type: 'warning', message })
  let values: T
  try {
    values = await valuesRead
  } catch (err) {
    throw explainReadError(err, target, adapter?.errorAbi ?? anyGenerationErrorAbi) ?? err
  }
  return { chain, registry: info, adapter: adapter as FirstBatchReturnType<T, P>['adapter'], values }
}
