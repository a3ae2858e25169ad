/**
 * `increaseNonce()` from the validator (next generation): every delegation signature it gave
 * so far stops working (the digest binds the nonce). `tnv delegation revoke`. The nonce has no
 * view: before, it is read through the registry's digest (./read-delegation-nonce.ts); after,
 * from the DelegationNonceIncreased event. The adiri registry has no increaseNonce and no
 * deadline: the error says what can and cannot invalidate a signature there.
 */
import { type Address, parseEventLogs, type TransactionReceipt } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import type { StepRun } from '../tx/run-step.js'
import { NotInThisGenerationError, NotWhitelistedError } from './errors.js'
import { readFirstBatch } from './first-batch.js'
import { nextRegistryAbi } from './generations/abi-next.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { readDelegationNonce } from './read-delegation-nonce.js'
import type { RegistryInfo } from './registry-guard.js'
import { registryStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, Reporter, TxOutcome } from './types.js'

export type IncreaseNonceParameters = OperationOptions & { signer: Signer }

export type IncreaseNonceReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
  validator: Address
  /** Nonce before; signatures made with it (or earlier) are revoked once sent. */
  previousNonce: string
  /** From the DelegationNonceIncreased event once sent; previous + 1 otherwise. */
  newNonce: string
}

/** What invalidates a delegation signature on the adiri registry, which has no increaseNonce. */
export const ADIRI_REVOKE_EXPLANATION =
  'The adiri registry has no increaseNonce() and its delegation signatures carry no deadline, so a signature you gave stays valid until one of these happens: a delegator stakes for you with one of your signatures (that moves your nonce on, and you are then staked), governance raises the stake version (from the next epoch the digest no longer matches), or your address stops being stakeable (you stake yourself with `tnv stake`, or governance burns your ConsensusNFT). Nothing else invalidates it.'

/**
 * @example await increaseNonce(ctx, { signer })
 */
export async function increaseNonce(
  ctx: RegistryContext,
  params: IncreaseNonceParameters,
): Promise<IncreaseNonceReturnType> {
  return registryStep(ctx, 'increaseNonce', params, (run) => increaseNonceStep(ctx, params, run))
}

async function increaseNonceStep(
  ctx: RegistryContext,
  { signer, report, confirm }: IncreaseNonceParameters,
  run: StepRun,
): Promise<IncreaseNonceReturnType> {
  const validator = signer.address
  const { chain, adapter, info, account, nonce } = await readRevocableNonce(ctx, validator, report)
  // each call revokes once more: a revoke an earlier run sent (killed before it saw the
  // receipt) that has now succeeded IS this command's revoke; never send a second one for it
  const earlier = run.resumed.find((r) => r.step === 'increaseNonce' && r.outcome === 'success')
  if (earlier)
    return {
      chain,
      registry: info,
      validator,
      previousNonce: (nonce - 1n).toString(),
      newNonce: nonce.toString(),
      outcome: 'already-done',
      message: `The revoke an earlier run sent (${earlier.hash}) succeeded: the delegation nonce of ${validator} is now ${nonce}; nothing more was sent.`,
    }
  report?.({
    type: 'step',
    message: `delegation nonce of ${validator} is ${nonce} (read through the registry's digest)`,
  })
  const { outcome, receipt } = await submit({
    ctx,
    chain,
    adapter,
    signer,
    account,
    data: adapter.increaseNonceData(),
    action: 'increaseNonce',
    title: `Revoke every delegation signature of ${validator} (nonce ${nonce} → ${nonce + 1n})`,
    rows: [['validator', validator]],
    revert: { validator },
    report,
    confirm,
    run,
  })
  return {
    chain,
    registry: info,
    validator,
    previousNonce: nonce.toString(),
    newNonce: (receipt ? nonceInReceipt(ctx, receipt, nonce) : nonce + 1n).toString(),
    ...outcome,
  }
}

/**
 * The first batch, then the validator's delegation nonce (read through the registry's digest).
 * Refused on a generation that cannot revoke, and for an address that is not whitelisted.
 */
async function readRevocableNonce(ctx: RegistryContext, validator: Address, report: Reporter | undefined) {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [version, account],
  } = await readFirstBatch(ctx, { purpose: 'write', action: 'increaseNonce', report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
      readAccountState(client, validator),
    ]),
  )
  if (!adapter.features.increaseNonce)
    throw new NotInThisGenerationError(
      `Revoking delegation signatures is not possible on the ${adapter.generation} registry. ${ADIRI_REVOKE_EXPLANATION}`,
      'To make sure no signature of yours can be used, stake yourself (`tnv stake`) before any delegator does; otherwise give signatures only to delegators you trust. Nothing was sent.',
    )
  const nonce = await readDelegationNonce(ctx, { adapter, chain, validator, stakeVersion: version })
  if (nonce === null) throw new NotWhitelistedError(validator)
  return { chain, adapter, info, account, nonce }
}

/** The nonce the receipt's last DelegationNonceIncreased event names; else one more than before. */
function nonceInReceipt({ target }: RegistryContext, receipt: TransactionReceipt, nonce: bigint): bigint {
  const events = parseEventLogs({
    abi: nextRegistryAbi,
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === target.registry.toLowerCase()),
    eventName: 'DelegationNonceIncreased',
  })
  return events.at(-1)?.args.nonce ?? nonce + 1n
}
