/**
 * The one step runner every transaction goes through (stake, activate, beginExit, unstake,
 * claims, mint, delegateStake, increaseNonce, and every flow step):
 *
 *   lock the journal → settle what earlier runs left open → local checks and reads (the
 *   operation) → simulation → confirmation → sign → journal the SIGNED transaction (raw bytes,
 *   hash, nonce, chain id, from, to, step; file and directory fsynced) → eth_sendRawTransaction
 *   → receipt → outcome recorded → unlock.
 *
 * The operation (a registry function) does its checks and builds the call; `submit`
 * (../registry/submit.ts) simulates, confirms and calls `sendJournaled` here.
 *
 * Settling an entry whose outcome is unknown (the process died, or timed out, after journaling
 * it): its receipt if mined; else it is waited for when the node still has it; else its very
 * bytes are sent again (same hash) and waited for. It counts as DROPPED, and only then may a
 * different transaction be sent, when that is proven: its nonce was used by another
 * transaction (the account's mined nonce is past it and it has no receipt), or the node refuses
 * the same bytes again while the nonce is still free (it is then in no pool this node knows and
 * can only be mined if it reappears, in which case it shares its nonce with whatever replaces
 * it, so at most one of the two can be mined). A step never sends while an earlier transaction
 * of its sender on that chain is open.
 *
 * `--unsigned` and `--check` send nothing and write nothing: no lock, no journal. A check reads the
 * journals only to say that a real run would first settle an earlier transaction left open.
 */
import { type Hex, keccak256, type LocalAccount, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'
import type { ChainClient } from '../chain/client.js'
import { PendingTransactionConflictError, TransactionDroppedError } from '../chain/errors.js'
import { classifyRpcError, explainRpcError, isTransientRpcFault } from '../chain/rpc-errors.js'
import { signTransaction } from '../chain/sign-transaction.js'
import type { Signer } from '../chain/signer.js'
import type { PreparedTransaction } from '../chain/transaction.js'
import { waitForReceipt } from '../chain/wait-for-receipt.js'
import { killPoint } from '../fs/atomic.js'
import type { ReleaseLock } from '../fs/lock.js'
import type { Reporter } from '../registry/types.js'
import type { JournalEntry, JournalOutcome, JournalStep, StepJournal, TxJournal } from './journal.js'

export type Resumed = { step: JournalStep; hash: Hex; outcome: JournalOutcome; blockNumber: string | null }

/** The running step, handed to the operation and to `sendJournaled`. */
export type StepRun = {
  step: JournalStep
  /** The journal new transactions are written to (locked), or null: not journaled. */
  journal: TxJournal | null
  timeoutMs: number
  /** Earlier runs' transactions this step settled before it ran. */
  resumed: Resumed[]
}

export type RunStepParameters = {
  client: ChainClient
  rpcUrl: string
  step: JournalStep
  signer: Signer
  journal?: StepJournal | undefined
  report?: Reporter | undefined
}

/**
 * @example return runStep({ client, rpcUrl, step: 'activate', signer, journal, report }, async (run) => { …checks…; return submit({ …, run }) })
 */
export async function runStep<R>(
  { client, rpcUrl, step, signer, journal, report }: RunStepParameters,
  operation: (run: StepRun) => Promise<R>,
): Promise<R> {
  const timeoutMs = journal?.timeoutMs ?? 180_000
  if (signer.type === 'check')
    for (const entry of journal?.journals.flatMap((j) => j.open(signer.address)) ?? [])
      report?.({
        type: 'warning',
        message: `an earlier ${entry.step} transaction ${entry.hash} (submitted ${entry.submittedAt}) has no known outcome: a real run settles it first, and what it finds may change this check's answer.`,
      })
  if (!journal || journal.journals.length === 0 || signer.type !== 'local')
    return operation({ step, journal: null, timeoutMs, resumed: [] })
  const journals = journal.journals
  return withJournalsLocked(journal, async () => {
    const resumed = await settleOpen({ client, rpcUrl, journals, from: signer.address, report, timeoutMs })
    return operation({ step, journal: journals[0] ?? null, timeoutMs, resumed })
  })
}

/**
 * Runs `fn` holding the lock of every journal of the step, taken in one order (by path), so two
 * commands never wait on each other; the locks are released however `fn` ends.
 */
async function withJournalsLocked<R>({ journals, command }: StepJournal, fn: () => Promise<R>): Promise<R> {
  const releases: ReleaseLock[] = []
  try {
    for (const j of [...journals].sort((a, b) => a.path.localeCompare(b.path))) releases.push(await j.lock(command))
    return await fn()
  } finally {
    for (const release of releases.reverse()) await release().catch(() => {})
  }
}

/** Settles every open entry of the sender on the endpoint's chain, oldest first. */
async function settleOpen({
  client,
  rpcUrl,
  journals,
  from,
  report,
  timeoutMs,
}: {
  client: ChainClient
  rpcUrl: string
  journals: TxJournal[]
  from: Signer['address']
  report?: Reporter | undefined
  timeoutMs: number
}): Promise<Resumed[]> {
  const open = journals.flatMap((j) => j.open(from).map((entry) => ({ j, entry })))
  if (open.length === 0) return []
  const chainId = await client.getChainId().catch((err: unknown) => {
    throw explainRpcError(err, rpcUrl) ?? err
  })
  const resumed: Resumed[] = []
  for (const { j, entry } of open.sort((a, b) => (a.entry.nonce ?? 0) - (b.entry.nonce ?? 0))) {
    if (entry.chainId !== chainId) continue
    report?.({ type: 'resume', step: entry.step, hash: entry.hash, submittedAt: entry.submittedAt })
    const settled = await settleEntry(client, { entry, rpcUrl, timeoutMs })
    j.recordOutcome(entry.hash, settled.outcome, { blockNumber: settled.blockNumber, reason: settled.reason })
    const r: Resumed = {
      step: entry.step,
      hash: entry.hash,
      outcome: settled.outcome,
      blockNumber: settled.blockNumber?.toString() ?? null,
    }
    report?.({ type: 'resumed', ...r, reason: settled.reason ?? null })
    resumed.push(r)
  }
  return resumed
}

type Settled = { outcome: JournalOutcome; blockNumber: bigint | null; reason?: string }

async function receiptOf(client: ChainClient, hash: Hex): Promise<TransactionReceipt | null> {
  return client.getTransactionReceipt({ hash }).catch((err: unknown) => {
    if (err instanceof TransactionReceiptNotFoundError) return null
    throw err
  })
}

function fromReceipt(r: TransactionReceipt): Settled {
  return { outcome: r.status === 'success' ? 'success' : 'reverted', blockNumber: r.blockNumber }
}

/** One open entry: its receipt, or wait for it, or rebroadcast it, or prove it dropped. */
async function settleEntry(
  client: ChainClient,
  { entry, rpcUrl, timeoutMs }: { entry: JournalEntry; rpcUrl: string; timeoutMs: number },
): Promise<Settled> {
  const mined = await receiptOf(client, entry.hash)
  if (mined) return fromReceipt(mined)
  const wait = async () =>
    fromReceipt(
      await waitForReceipt(client, {
        hash: entry.hash,
        raw: entry.raw ?? null,
        from: entry.from,
        nonce: entry.nonce ?? -1,
        rpcUrl,
        timeoutMs,
      }),
    )
  const inPool = await client.getTransaction({ hash: entry.hash }).then(
    () => true,
    () => false,
  )
  if (inPool) return wait()
  if (entry.raw === undefined || entry.nonce === null) {
    // a version-1 entry (no bytes to send again): dropped once neither the chain nor the pool
    // knows it on 5 polls in a row, as before
    const { waitForSubmission } = await import('./wait-for-submission.js')
    const s = await waitForSubmission(client, { hash: entry.hash, timeoutMs, rpcUrl })
    return s.outcome === 'dropped'
      ? { ...s, reason: 'written by an older tnv without its bytes; unknown to the chain and the pool on 5 polls' }
      : s
  }
  try {
    await client.sendRawTransaction({ serializedTransaction: entry.raw })
    return await wait()
  } catch (err) {
    if (err instanceof TransactionDroppedError)
      return dropped(client, entry, 'its nonce was used by another transaction')
    const kind = classifyRpcError(err)
    if (kind === 'already-known') return wait()
    if (isTransientRpcFault(kind)) throw explainRpcError(err, rpcUrl) ?? err
    const again = await receiptOf(client, entry.hash)
    if (again) return fromReceipt(again)
    if (kind === 'nonce-too-low') return dropped(client, entry, 'its nonce was used by another transaction')
    return dropped(
      client,
      entry,
      `the node refuses the same signed bytes again (${(err as Error).message.split('\n')[0]})`,
    )
  }
}

/** Proof of a drop, stated with the account's mined nonce. */
async function dropped(client: ChainClient, entry: JournalEntry, why: string): Promise<Settled> {
  const latest = await client.getTransactionCount({ address: entry.from, blockTag: 'latest' })
  const nonce = entry.nonce ?? -1
  return {
    outcome: 'dropped',
    blockNumber: null,
    reason:
      latest > nonce
        ? `not mined, and nonce ${nonce} of ${entry.from} is used (the account's next nonce is ${latest}): ${why}`
        : `not mined, in no pool, and nonce ${nonce} is still free (the account's next nonce is ${latest}): ${why}; a replacement takes the same nonce, so at most one of them can be mined`,
  }
}

export type SendJournaledResult =
  | { status: 'mined'; hash: Hex; raw: Hex; receipt: TransactionReceipt }
  /** The nonce was used by another transaction meanwhile; ours is recorded dropped. Nothing of ours is pending. */
  | { status: 'nonce-used' }

/**
 * Signs, journals (before anything leaves the process), sends and waits for the receipt.
 * @example const sent = await sendJournaled(client, run, { account, tx, rpcUrl, report })
 */
export async function sendJournaled(
  client: ChainClient,
  run: StepRun,
  {
    account,
    tx,
    rpcUrl,
    report,
  }: { account: LocalAccount; tx: PreparedTransaction; rpcUrl: string; report?: Reporter },
): Promise<SendJournaledResult> {
  const raw = await signTransaction(account, tx)
  const hash = keccak256(raw)
  killPoint('tx:signed')
  run.journal?.recordSigned({
    step: run.step,
    chainId: tx.chainId,
    from: tx.from,
    to: tx.to,
    hash,
    nonce: tx.nonce,
    raw,
    value: tx.value.toString(),
    submittedAt: new Date().toISOString(),
  })
  killPoint('tx:journaled')
  if ((await sendSigned(client, run, { raw, hash, tx, rpcUrl })) === 'nonce-used') return { status: 'nonce-used' }
  killPoint('tx:sent')
  report?.({ type: 'sent', hash })
  const receipt = await waitForReceipt(client, {
    hash,
    raw,
    from: tx.from,
    nonce: tx.nonce,
    rpcUrl,
    timeoutMs: run.timeoutMs,
  }).catch((err: unknown) => {
    if (err instanceof TransactionDroppedError)
      run.journal?.recordOutcome(hash, 'dropped', { reason: 'its nonce was used by another transaction' })
    throw err
  })
  killPoint('tx:mined')
  run.journal?.recordOutcome(hash, receipt.status === 'success' ? 'success' : 'reverted', {
    blockNumber: receipt.blockNumber,
  })
  killPoint('tx:recorded')
  return { status: 'mined', hash, raw, receipt }
}

/**
 * eth_sendRawTransaction of the journaled transaction: `sent` when the node took it, said it
 * already knew it, or knows its hash after an error (the answer may have been lost after the node
 * accepted it; a retried send then says "nonce too low"). Otherwise a transient fault throws with
 * the entry left open (it may have arrived); "nonce too low" is recorded dropped (`nonce-used`);
 * any other refusal is recorded dropped and thrown.
 */
async function sendSigned(
  client: ChainClient,
  run: StepRun,
  { raw, hash, tx, rpcUrl }: { raw: Hex; hash: Hex; tx: PreparedTransaction; rpcUrl: string },
): Promise<'sent' | 'nonce-used'> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw })
    return 'sent'
  } catch (err) {
    const kind = classifyRpcError(err)
    if (kind === 'already-known') return 'sent'
    const known = await client.getTransaction({ hash }).then(
      () => true,
      () => false,
    )
    if (known) return 'sent'
    if (isTransientRpcFault(kind)) throw explainRpcError(err, rpcUrl) ?? err // may have arrived: stays open
    if (kind === 'nonce-too-low') {
      run.journal?.recordOutcome(hash, 'dropped', {
        reason: `the node answered "nonce too low": nonce ${tx.nonce} was used by another transaction before this one was sent`,
      })
      return 'nonce-used'
    }
    run.journal?.recordOutcome(hash, 'dropped', {
      reason: `the node refused it when it was sent (${(err as Error).message.split('\n')[0]})`,
    })
    if (kind === 'underpriced')
      throw new PendingTransactionConflictError({
        from: tx.from,
        nonce: tx.nonce,
        reason: 'replacement underpriced',
      })
    throw explainRpcError(err, rpcUrl) ?? err
  }
}

/**
 * Settles what earlier runs of this sender left open, under the journal's lock, without running
 * a step: the onboarding flows do this before they read the chain to choose the next step.
 * @example await settleJournal({ client, rpcUrl, from, journal, report })
 */
export async function settleJournal({
  client,
  rpcUrl,
  from,
  journal,
  report,
}: {
  client: ChainClient
  rpcUrl: string
  from: Signer['address']
  journal: StepJournal | undefined
  report?: Reporter | undefined
}): Promise<Resumed[]> {
  if (!journal?.journals.some((j) => j.open(from).length > 0)) return []
  return withJournalsLocked(journal, () =>
    settleOpen({ client, rpcUrl, journals: journal.journals, from, report, timeoutMs: journal.timeoutMs ?? 180_000 }),
  )
}
