/**
 * The tail every state-changing registry step shares, after its own checks, inside the one
 * step runner (../tx/run-step.ts, entered with `registryStep`):
 * simulate (eth_estimateGas, `simulateStep`: a revert is decoded with the generation's error
 * table and nothing is sent; an operation may have made it already, in the request of its last
 * read, and hands its estimate in as `simulated`) → prepare (nonce and fees read in the step's
 * first batch) → show and confirm → print (--unsigned) or sign, journal, send and wait for the
 * receipt (a revert on chain is decoded by replaying the call). A nonce taken meanwhile
 * (recorded dropped) is retried once, after a fresh simulation.
 * --unsigned sends nothing, so a sender short of funds is a warning there, not an error: the
 * simulation then gives the sender the value in a state override, so it still checks the call.
 * --check (a `check` signer) stops right after the confirmation (which asks nothing then, but runs
 * the checks a command put in it): every check, read and the simulation ran as for a send, with
 * the sender's real balance; the outcome is `would-change` with the decoded transaction.
 */
import type { Address, Hex, TransactionReceipt } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { InsufficientFundsError, NonceConflictError } from '../chain/errors.js'
import type { AccountState } from '../chain/read-account-state.js'
import { explainRpcError } from '../chain/rpc-errors.js'
import type { Signer } from '../chain/signer.js'
import {
  gasWithMargin,
  maxCost,
  maxFeePerGas,
  type PreparedTransaction,
  toUnsignedTransaction,
} from '../chain/transaction.js'
import { formatGasPrice, formatTelAndWei } from '../chain/units.js'
import { AbortedError } from '../errors.js'
import { killPoint } from '../fs/atomic.js'
import { checkedTransaction } from '../tx/checked-transaction.js'
import type { JournalStep } from '../tx/journal.js'
import { runStep, type StepRun, sendJournaled } from '../tx/run-step.js'
import { isRevert, type RevertContext, registryErrorFromRevert } from './decode-revert.js'
import type { RegistryAdapter } from './generations/adapter.js'
import type { OperationOptions, RegistryContext, TransactionPlan, TxOutcome } from './types.js'

export type SubmitParameters = OperationOptions & {
  ctx: RegistryContext
  /** The running step (journal and its lock), from `registryStep`. */
  run: StepRun
  chain: ChainInfo
  /** The detected generation (its error table decodes reverts). */
  adapter: RegistryAdapter
  signer: Signer
  /** Balance, nonce and fees of the signer, read in the step's first batch. */
  account: AccountState
  data: Hex
  value?: bigint | undefined
  action: string
  title: string
  /** Rows describing the step (validator, key, amounts); chain, from, value and gas are added. */
  rows?: [string, string][] | undefined
  irreversible?: boolean | undefined
  /** Facts for decoding a revert into the right remedy. */
  revert: Omit<RevertContext, 'action' | 'signer' | 'value' | 'errorAbi' | 'generation'>
  /**
   * The gas estimate of a simulation of this very call (same data, value and sender) that the
   * operation already made, in the request of its last read (./stake.ts); it is not simulated again.
   */
  simulated?: bigint | undefined
}

export type SimulateStepParameters = Pick<
  SubmitParameters,
  'ctx' | 'adapter' | 'signer' | 'account' | 'data' | 'value' | 'action' | 'revert'
>

function revertContext({ adapter, signer, value = 0n, action, revert }: SimulateStepParameters): RevertContext {
  return {
    ...revert,
    action,
    signer: signer.address,
    value,
    errorAbi: adapter.errorAbi,
    generation: adapter.generation,
  }
}

/**
 * eth_estimateGas of a registry call: the gas it needs, or its revert decoded with the
 * generation's error table (nothing is sent). `--unsigned` short of the value simulates as if
 * funded (a state override), so the call itself is still checked.
 * @example const gas = await simulateStep({ ctx, adapter, signer, account, data, value, action: 'stake', revert: { validator } })
 */
export async function simulateStep(params: SimulateStepParameters): Promise<bigint> {
  const { ctx, signer, account, data, value = 0n } = params
  const from = signer.address
  const funded =
    signer.type === 'unsigned' && value > account.balance ? [{ address: from, balance: value + 10n ** 24n }] : undefined
  try {
    return await ctx.client.estimateGas({
      account: from,
      to: ctx.target.registry,
      data,
      value,
      ...(funded ? { stateOverride: funded } : {}),
    })
  } catch (err) {
    if (isRevert(err)) throw registryErrorFromRevert(err, revertContext(params))
    throw explainRpcError(err, ctx.target.rpcUrl) ?? err
  }
}

export type SubmitReturnType = {
  outcome: TxOutcome
  /** The successful receipt (for events), null for --unsigned. */
  receipt: TransactionReceipt | null
}

/**
 * @example const { outcome } = await submit({ ctx, chain, signer, account, data, action: 'activate', title: 'Activate 0x…', revert: { validator } })
 */
export async function submit({
  ctx,
  chain,
  adapter,
  signer,
  account,
  data,
  value = 0n,
  action,
  title,
  rows = [],
  irreversible = false,
  revert,
  report,
  confirm,
  run,
  simulated,
}: SubmitParameters): Promise<SubmitReturnType> {
  killPoint('tx:checked')
  const { client, target } = ctx
  const from = signer.address
  const unsigned = signer.type === 'unsigned'
  if (value > account.balance) {
    const short = `${from} holds ${formatTelAndWei(account.balance)}, less than the ${formatTelAndWei(value)} that ${action} sends.`
    if (!unsigned)
      throw new InsufficientFundsError(short, {
        fix: `Fund ${from} with at least ${formatTelAndWei(value - account.balance)} more plus gas, then run the command again.`,
      })
    report?.({ type: 'warning', message: `${short} Fund it before the transaction is signed and sent.` })
  }
  const call = { ctx, adapter, signer, account, data, value, action, revert }
  const revertCtx = revertContext(call)
  const simulate = () => simulateStep(call)

  const estimate = simulated ?? (await simulate())
  let tx: PreparedTransaction = {
    chainId: chain.chainId,
    from,
    to: target.registry,
    value,
    data,
    gas: gasWithMargin(estimate),
    nonce: account.nonce,
    fees: account.fees,
  }
  report?.({ type: 'step', message: `simulation of ${action} passed (gas limit ${tx.gas})` })
  killPoint('tx:simulated')
  const cost = maxCost(tx)
  if (cost > account.balance) {
    const short = `${from} holds ${formatTelAndWei(account.balance)}, but ${action} may cost up to ${formatTelAndWei(cost)} (value plus gas).`
    if (!unsigned)
      throw new InsufficientFundsError(short, {
        fix: `Fund ${from} with at least ${formatTelAndWei(cost - account.balance)} more, then run the command again.`,
      })
    if (value <= account.balance)
      report?.({ type: 'warning', message: `${short} Fund it before the transaction is signed and sent.` })
  }

  const plan: TransactionPlan = {
    action,
    title,
    rows: [
      ...rows,
      ['chain', `${chain.name} (chain id ${chain.chainId}, ${chain.rpcUrl})`],
      ['registry', target.registry],
      ['from', from],
      ['value', formatTelAndWei(value)],
      [
        'max gas cost',
        `${formatTelAndWei(tx.gas * maxFeePerGas(tx.fees))}: gas ${tx.gas} at ${formatGasPrice(maxFeePerGas(tx.fees))}`,
      ],
    ],
    irreversible,
    chain,
    from,
    value,
    maxCost: cost,
  }
  if (signer.type === 'unsigned')
    return { outcome: { outcome: 'unsigned', unsigned: toUnsignedTransaction(tx, target.rpcUrl) }, receipt: null }
  if (confirm && !(await confirm(plan))) throw new AbortedError()
  if (signer.type === 'check')
    return {
      outcome: { outcome: 'would-change', transaction: checkedTransaction(tx, estimate, adapter.abi) },
      receipt: null,
    }
  killPoint('tx:confirmed')

  let sent = await sendJournaled(client, run, { account: signer.account, tx, rpcUrl: target.rpcUrl, report })
  if (sent.status === 'nonce-used') {
    // another transaction of this account took the nonce (ours is journaled as dropped): the
    // state may have moved, so simulate again before signing anything new
    const nonce = await client.getTransactionCount({ address: from, blockTag: 'pending' })
    tx = { ...tx, nonce, gas: gasWithMargin(await simulate()) }
    sent = await sendJournaled(client, run, { account: signer.account, tx, rpcUrl: target.rpcUrl, report })
    if (sent.status === 'nonce-used') throw new NonceConflictError({ from, nonce: tx.nonce })
  }
  const { receipt } = sent
  if (receipt.status !== 'success') {
    throw await explainMinedRevert(
      ctx,
      { from, data, value, blockNumber: receipt.blockNumber },
      { ...revertCtx, txHash: sent.hash },
    )
  }
  report?.({ type: 'confirmed', hash: sent.hash, blockNumber: receipt.blockNumber })
  return {
    outcome: {
      outcome: 'sent',
      txHash: sent.hash,
      blockNumber: receipt.blockNumber.toString(),
      gasUsed: receipt.gasUsed.toString(),
      from,
    },
    receipt,
  }
}

/** Replays a call that reverted on chain against the state before its block, to decode why. */
async function explainMinedRevert(
  { client, target }: RegistryContext,
  call: { from: Address; data: Hex; value: bigint; blockNumber: bigint },
  revertCtx: RevertContext,
) {
  try {
    await client.call({
      account: call.from,
      to: target.registry,
      data: call.data,
      value: call.value,
      blockNumber: call.blockNumber - 1n,
    })
  } catch (err) {
    return registryErrorFromRevert(err, revertCtx)
  }
  return registryErrorFromRevert(
    new Error(
      'reverted on chain; the replay against the previous block succeeds (out of gas, or the state changed within the block)',
    ),
    revertCtx,
  )
}

/**
 * Runs a registry operation as one step of the step runner: the journal (when the command gives
 * one) is locked and what earlier runs left open is settled before the operation reads the chain.
 * @example return registryStep(ctx, 'activate', params, async (run) => { …checks…; await submit({ …, run }) })
 */
export function registryStep<R>(
  ctx: RegistryContext,
  step: JournalStep,
  params: OperationOptions & { signer: Signer },
  operation: (run: StepRun) => Promise<R>,
): Promise<R> {
  return runStep(
    {
      client: ctx.client,
      rpcUrl: ctx.target.rpcUrl,
      step,
      signer: params.signer,
      journal: params.journal,
      report: params.report,
    },
    operation,
  )
}
