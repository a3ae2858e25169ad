/**
 * `tnv offline broadcast`: sends a signed bundle only when the chain is still the one it was
 * prepared against. Every precondition is read again (chain id, registry code hash, the
 * sender's nonce, the validator's status, the stake version, the epoch constraint, the base fee
 * against the signed max fee, the balance, the expiry) and a fresh simulation of the exact call
 * runs; any difference refuses the send and names each change. Otherwise the signed bytes go
 * through the one step runner (../tx/run-step.ts): journaled and fsynced before
 * eth_sendRawTransaction, and a later run settles a journaled entry (its receipt, or the same
 * bytes again) before anything else, so a kill at any point never sends twice.
 */
import {
  type Hex,
  keccak256,
  type LocalAccount,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem'
import { toAccount } from 'viem/accounts'
import { explainRpcError } from '../chain/rpc-errors.js'
import type { Signer } from '../chain/signer.js'
import { maxCost, type PreparedTransaction } from '../chain/transaction.js'
import { formatGasPrice, formatTelAndWei } from '../chain/units.js'
import { isRevert, registryErrorFromRevert } from '../registry/decode-revert.js'
import { registryAdapters } from '../registry/generations/adapters.js'
import type { RegistryContext, Reporter } from '../registry/types.js'
import { type CheckedTransaction, checkedTransaction } from '../tx/checked-transaction.js'
import type { StepJournal } from '../tx/journal.js'
import { runStep, sendJournaled } from '../tx/run-step.js'
import { type Bundle, preparedOf, type SignedFile } from './bundle.js'
import { type ChangedPrecondition, SignedTransactionMismatchError, StaleBundleError } from './errors.js'
import { type ReadAnchorReturnType, readAnchor } from './read-anchor.js'
import { checkBundleCall } from './sign-bundle.js'

export type BroadcastBundleParameters = {
  bundle: Bundle
  bundlePath: string
  signed: SignedFile
  signedPath: string
  /** The sender's journal (written before the send); without it nothing is journaled (library use). */
  journal?: StepJournal | undefined
  report?: Reporter | undefined
  now?: Date | undefined
}

export type BroadcastBundleReturnType = {
  /** sent: by this run; already-sent: an earlier run (or another host) got it mined. */
  outcome: 'sent' | 'already-sent'
  step: Bundle['step']
  txHash: Hex
  blockNumber: string
  gasUsed: string
  from: Hex
}

/** `--check` (docs/automation.md): what a broadcast would do now; nothing journaled, nothing sent. */
export type BroadcastCheckReturnType =
  | { outcome: 'would-change'; check: true; step: Bundle['step']; transaction: CheckedTransaction }
  | { outcome: 'already-done'; check: true; step: Bundle['step']; txHash: Hex; blockNumber: string; message: string }

/**
 * The broadcast's `--check`: the same checks of the signed file and the bundle's call, then the
 * signed transaction's receipt (mined: already-done; mined but reverted: the revert, as the
 * broadcast fails), then every precondition and the simulation (a change: StaleBundleError, exit
 * 24, as the broadcast). Reads only: no journal is opened, nothing is sent.
 * @example const r = await checkBroadcastBundle(ctx, { bundle, bundlePath, signed, signedPath })
 */
export async function checkBroadcastBundle(
  ctx: RegistryContext,
  { bundle, bundlePath, signed, signedPath, now }: Omit<BroadcastBundleParameters, 'journal' | 'report'>,
): Promise<BroadcastCheckReturnType> {
  const tx = preparedOf(bundle)
  await checkSignedMatches({ bundle, signed, signedPath, tx })
  checkBundleCall({ bundle, path: bundlePath })
  const mined = await receiptOf(ctx, signed.hash)
  if (mined) {
    const r = minedResult(bundle, signed, mined, 'already-sent')
    return {
      outcome: 'already-done',
      check: true,
      step: bundle.step,
      txHash: r.txHash,
      blockNumber: r.blockNumber,
      message: `already done by transaction ${r.txHash} in block ${r.blockNumber}`,
    }
  }
  const { changed, gasEstimate } = await changedPreconditions(ctx, { bundle, tx, now: now ?? new Date() })
  if (changed.length > 0 || gasEstimate === null) throw new StaleBundleError(changed, bundle.prepareCommand)
  const abi = registryAdapters[bundle.registry.generation].abi
  return {
    outcome: 'would-change',
    check: true,
    step: bundle.step,
    transaction: checkedTransaction(tx, gasEstimate, abi),
  }
}

/**
 * @example const r = await broadcastBundle(ctx, { bundle, bundlePath, signed, signedPath, journal, report })
 */
export async function broadcastBundle(
  ctx: RegistryContext,
  { bundle, bundlePath, signed, signedPath, journal, report, now }: BroadcastBundleParameters,
): Promise<BroadcastBundleReturnType> {
  const tx = preparedOf(bundle)
  await checkSignedMatches({ bundle, signed, signedPath, tx })
  // the calldata is the call recorded; the expiry is judged below with the other preconditions
  checkBundleCall({ bundle, path: bundlePath })
  const account = presignedAccount(signed, tx)
  const signer: Signer = { type: 'local', address: tx.from, account, source: signedPath }
  const { client, target } = ctx
  return runStep({ client, rpcUrl: target.rpcUrl, step: bundle.step, signer, journal, report }, async (run) => {
    const mined = await receiptOf(ctx, signed.hash)
    if (mined) return minedResult(bundle, signed, mined, 'already-sent')

    const { changed, epoch } = await changedPreconditions(ctx, { bundle, tx, now: now ?? new Date() })
    if (changed.length > 0) throw new StaleBundleError(changed, bundle.prepareCommand)
    // the epoch moving is no refusal (only a step's epoch constraint is), but what depends on it is said
    if (bundle.step === 'activate' && epoch !== bundle.preconditions.epoch)
      report?.({
        type: 'warning',
        message: `the bundle was prepared in epoch ${bundle.preconditions.epoch}; it is epoch ${epoch} now, so the validator becomes Active from epoch ${epoch + 1}, not ${bundle.preconditions.epoch + 1}`,
      })
    report?.({ type: 'step', message: 'every precondition of the bundle holds; the simulation passes' })

    const sent = await sendJournaled(client, run, { account, tx, rpcUrl: target.rpcUrl, report })
    if (sent.status === 'nonce-used')
      throw new StaleBundleError(
        [{ name: 'nonce', prepared: `nonce ${tx.nonce}`, now: 'used by another transaction just before the send' }],
        bundle.prepareCommand,
      )
    return minedResult(bundle, signed, sent.receipt, 'sent')
  })
}

function minedResult(
  bundle: Bundle,
  signed: SignedFile,
  receipt: TransactionReceipt,
  outcome: BroadcastBundleReturnType['outcome'],
): BroadcastBundleReturnType {
  if (receipt.status !== 'success')
    throw registryErrorFromRevert(new Error(`transaction ${signed.hash} reverted on chain`), {
      action: bundle.step,
      validator: bundle.preconditions.validator,
      signer: bundle.transaction.from,
      value: BigInt(bundle.transaction.value),
      txHash: signed.hash,
      errorAbi: registryAdapters[bundle.registry.generation].errorAbi,
      generation: bundle.registry.generation,
    })
  return {
    outcome,
    step: bundle.step,
    txHash: signed.hash,
    blockNumber: receipt.blockNumber.toString(),
    gasUsed: receipt.gasUsed.toString(),
    from: bundle.transaction.from,
  }
}

async function receiptOf({ client, target }: RegistryContext, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash })
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return null
    throw explainRpcError(err, target.rpcUrl) ?? err
  }
}

/** The signed file is the bundle's: its digest, its hash, its signer, and every field of its transaction. */
async function checkSignedMatches({
  bundle,
  signed,
  signedPath,
  tx,
}: {
  bundle: Bundle
  signed: SignedFile
  signedPath: string
  tx: PreparedTransaction
}): Promise<void> {
  const bad = (problem: string) => new SignedTransactionMismatchError(signedPath, problem)
  if (signed.bundleDigest !== bundle.digest)
    throw bad(`it was signed for bundle ${signed.bundleDigest}, not ${bundle.digest}`)
  if (keccak256(signed.raw) !== signed.hash) throw bad('its hash is not the hash of its bytes')
  let parsed: ReturnType<typeof parseTransaction>
  let from: Hex
  try {
    parsed = parseTransaction(signed.raw)
    from = await recoverTransactionAddress({ serializedTransaction: signed.raw as `0x02${string}` })
  } catch {
    throw bad('its bytes are not a signed transaction')
  }
  if (from.toLowerCase() !== tx.from.toLowerCase()) throw bad(`it is signed by ${from}, not ${tx.from}`)
  const fees =
    tx.fees.type === 'eip1559'
      ? parsed.type === 'eip1559' &&
        parsed.maxFeePerGas === tx.fees.maxFeePerGas &&
        parsed.maxPriorityFeePerGas === tx.fees.maxPriorityFeePerGas
      : parsed.type === 'legacy' && parsed.gasPrice === tx.fees.gasPrice
  const same =
    parsed.chainId === tx.chainId &&
    parsed.nonce === tx.nonce &&
    parsed.to?.toLowerCase() === tx.to.toLowerCase() &&
    (parsed.value ?? 0n) === tx.value &&
    (parsed.data ?? '0x') === tx.data &&
    parsed.gas === tx.gas &&
    fees
  if (!same) throw bad('its chain id, nonce, recipient, value, calldata, gas or fees differ from the bundle')
}

/** An account that "signs" only the one transaction the bundle holds, with the bytes signed offline. */
function presignedAccount(signed: SignedFile, tx: PreparedTransaction): LocalAccount {
  const refuse = async (): Promise<Hex> => {
    throw new Error('an offline bundle signs only its own transaction') // a bug
  }
  return toAccount({
    address: tx.from,
    signMessage: refuse,
    signTypedData: refuse,
    async signTransaction(request) {
      if (
        request.nonce !== tx.nonce ||
        request.to?.toLowerCase() !== tx.to.toLowerCase() ||
        request.value !== tx.value ||
        request.data !== tx.data ||
        request.gas !== tx.gas ||
        request.chainId !== tx.chainId
      )
        throw new Error('the step runner asked to sign a transaction other than the bundle’s') // a bug
      return signed.raw
    },
  })
}

/** Every precondition the chain no longer meets, read in one batch, then the simulation; and the current epoch. */
async function changedPreconditions(
  ctx: RegistryContext,
  { bundle, tx, now }: { bundle: Bundle; tx: PreparedTransaction; now: Date },
): Promise<{ changed: ChangedPrecondition[]; epoch: number; gasEstimate: bigint | null }> {
  const { client, target } = ctx
  const a = await readAnchor(client, {
    rpcUrl: target.rpcUrl,
    registry: bundle.registry.address,
    validator: bundle.preconditions.validator,
    from: tx.from,
  })
  const changed = preconditionsNotMet({ bundle, tx, now, anchor: a, rpcUrl: target.rpcUrl })
  if (changed.length > 0) return { changed, epoch: a.epoch, gasEstimate: null }
  const simulation = await simulate(ctx, bundle, tx)
  return 'gas' in simulation
    ? { changed: [], epoch: a.epoch, gasEstimate: simulation.gas }
    : { changed: [simulation.change], epoch: a.epoch, gasEstimate: null }
}

/** The bundle's expiry, chain, registry code, nonce, validator state, fees and balance, against the chain now. */
function preconditionsNotMet({
  bundle,
  tx,
  now,
  anchor: a,
  rpcUrl,
}: {
  bundle: Bundle
  tx: PreparedTransaction
  now: Date
  anchor: ReadAnchorReturnType
  rpcUrl: string
}): ChangedPrecondition[] {
  const pre = bundle.preconditions
  const changed: ChangedPrecondition[] = []
  const add = (name: string, prepared: string, nowText: string) => changed.push({ name, prepared, now: nowText })
  if (now.getTime() > Date.parse(bundle.expiresAt))
    add('expiry', `valid until ${bundle.expiresAt}`, `it is ${now.toISOString()}`)
  if (a.chainId !== bundle.chain.chainId)
    add('chain id', `chain id ${bundle.chain.chainId}`, `the endpoint ${rpcUrl} serves chain id ${a.chainId}`)
  if (a.codeHash !== bundle.registry.codeHash)
    add(
      'registry code',
      `code hash ${bundle.registry.codeHash} (${bundle.registry.generation})`,
      a.codeHash === null
        ? 'no code at the registry address'
        : `code hash ${a.codeHash} (${a.generation ?? 'not a generation tnv knows'})`,
    )
  if (a.minedNonce > tx.nonce)
    add(
      'nonce',
      `nonce ${tx.nonce} of ${tx.from}`,
      `used by another transaction (the account's next nonce is ${a.minedNonce})`,
    )
  if (a.status !== pre.status) add('validator status', `${pre.validator} ${pre.status}`, `${a.status}`)
  if (a.stakeVersion !== pre.stakeVersion)
    add('stake version', `stake version ${pre.stakeVersion}`, `stake version ${a.stakeVersion}`)
  if (pre.minEpoch !== null && a.epoch < pre.minEpoch)
    add('epoch', `accepted from epoch ${pre.minEpoch}`, `the current epoch is ${a.epoch}`)
  const maxBase = BigInt(pre.maxBaseFeePerGas)
  if (a.baseFeePerGas !== null && a.baseFeePerGas > maxBase)
    add(
      'fees',
      `a base fee up to ${formatGasPrice(maxBase)} (it was ${pre.baseFeePerGas === null ? 'none' : formatGasPrice(BigInt(pre.baseFeePerGas))})`,
      `the base fee is ${formatGasPrice(a.baseFeePerGas)}, above the signed max fee: it would not be mined`,
    )
  const cost = maxCost(tx)
  if (a.balance < cost)
    add('balance', `${tx.from} pays up to ${formatTelAndWei(cost)}`, `it holds ${formatTelAndWei(a.balance)}`)
  return changed
}

/** The exact call from the exact sender, against the chain as it is now: its gas, or the change (a revert or more gas than signed). */
async function simulate(
  { client, target }: RegistryContext,
  bundle: Bundle,
  tx: PreparedTransaction,
): Promise<{ gas: bigint } | { change: ChangedPrecondition }> {
  try {
    const gas = await client.estimateGas({ account: tx.from, to: tx.to, data: tx.data, value: tx.value })
    if (gas > tx.gas)
      return { change: { name: 'gas', prepared: `a gas limit of ${tx.gas}`, now: `the simulation needs ${gas}` } }
    return { gas }
  } catch (err) {
    if (!isRevert(err)) throw explainRpcError(err, target.rpcUrl) ?? err
    const why = registryErrorFromRevert(err, {
      action: bundle.step,
      validator: bundle.preconditions.validator,
      signer: tx.from,
      value: tx.value,
      errorAbi: registryAdapters[bundle.registry.generation].errorAbi,
      generation: bundle.registry.generation,
    })
    return { change: { name: 'simulation', prepared: 'the call succeeds', now: `it reverts: ${why.message}` } }
  }
}
