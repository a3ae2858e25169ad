/**
 * Runs one state-changing registry step under the journal (./journal.ts):
 * 1. a submission of this step whose outcome is unknown (the process died or timed out after
 *    sending it) is waited for, not sent again: its receipt settles it; a transaction the
 *    node no longer knows is marked dropped;
 * 2. then the operation runs: it reads the chain first, so a step the earlier transaction
 *    completed reports `already-done` and sends nothing;
 * 3. the operation's `sent` report is written to the journal at once, its outcome when known.
 */
import type { Hex } from 'viem'
import { ExitCode, TnvError } from '../errors.js'
import { withRpcErrors } from '../registry/reads.js'
import type { RegistryContext, RegistryEvent, Reporter } from '../registry/types.js'
import type { WizardIo } from './io.js'
import {
  findOpenSubmission,
  type JournalEntry,
  type JournalStep,
  readJournal,
  recordOutcome,
  recordSubmission,
} from './journal.js'
import { waitForSubmission } from './wait-for-submission.js'

export type JournaledStepParameters<T> = {
  ctx: RegistryContext
  /** Where the journal lives; null: no journal (nothing to record in). */
  datadir: string | null
  step: JournalStep
  /** The sender of the step's transaction. */
  from: Hex
  io: WizardIo
  /** Longest wait for an earlier submission's receipt, ms. */
  timeoutMs?: number
  /** How the operation's own progress is shown; default: wizard events (wizardReporter). */
  show?: Reporter | undefined
  run: (report: Reporter) => Promise<T>
}

export type JournaledStepReturnType<T> = {
  result: T
  /** The earlier submission this run waited for, if any. */
  resumed: { hash: Hex; outcome: 'success' | 'reverted' | 'dropped' } | null
}

/** Progress lines of a registry operation for the wizard (human lines or JSON events). */
export function wizardReporter(io: WizardIo, step: string): (event: RegistryEvent) => void {
  return (event) => {
    switch (event.type) {
      case 'step':
        io.emit({ event: 'check', step, message: event.message }, `  - ${event.message}`)
        break
      case 'warning':
        io.emit({ event: 'warning', step, message: event.message }, `  Warning: ${event.message}`)
        break
      case 'sent':
        io.emit({ event: 'sent', step, hash: event.hash }, `  - sent ${event.hash}; waiting for the receipt…`)
        break
      case 'confirmed':
        io.emit(
          { event: 'confirmed', step, hash: event.hash, blockNumber: event.blockNumber.toString() },
          `  - confirmed in block ${event.blockNumber}`,
        )
        break
    }
  }
}

export async function journaledStep<T>({
  ctx,
  datadir,
  step,
  from,
  io,
  timeoutMs = 600_000,
  show = wizardReporter(io, step),
  run,
}: JournaledStepParameters<T>): Promise<JournaledStepReturnType<T>> {
  if (datadir === null) return { result: await run(show), resumed: null }

  const chainId = await withRpcErrors(ctx.target, () => ctx.client.getChainId())
  const open = await findOpenSubmission(datadir, { step, chainId, from })
  const resumed = open ? await settle(ctx, { datadir, entry: open, io, timeoutMs }) : null

  let sent: Hex | null = null
  const report: Reporter = (event) => {
    if (event.type === 'sent') {
      sent = event.hash
      recordSubmission(datadir, {
        step,
        chainId,
        from,
        to: ctx.target.registry,
        hash: event.hash,
        nonce: null,
        submittedAt: new Date().toISOString(),
      })
    } else if (event.type === 'confirmed') recordOutcome(datadir, event.hash, 'success', event.blockNumber)
    show(event)
  }
  try {
    return { result: await run(report), resumed }
  } catch (err) {
    // a mined revert is settled; a timeout or a lost connection is not: the next run waits for it
    if (sent !== null && err instanceof TnvError && err.exitCode === ExitCode.Reverted)
      recordOutcome(datadir, sent, 'reverted')
    throw err
  }
}

/** Waits for one journaled submission whose outcome is unknown, and records the outcome. */
async function settle(
  ctx: RegistryContext,
  { datadir, entry, io, timeoutMs }: { datadir: string; entry: JournalEntry; io: WizardIo; timeoutMs: number },
): Promise<{ hash: Hex; outcome: 'success' | 'reverted' | 'dropped' }> {
  const { step, hash } = entry
  io.emit(
    { event: 'resume', step, hash, submittedAt: entry.submittedAt },
    `The ${step} transaction ${hash} sent at ${entry.submittedAt} has no known outcome: waiting for it instead of sending another.`,
  )
  const settled = await io.wait(
    `Waiting for ${step} transaction ${hash}`,
    () => waitForSubmission(ctx, { hash, timeoutMs }),
    (s) => `${step} transaction ${hash}: ${s.outcome}${s.blockNumber !== null ? ` in block ${s.blockNumber}` : ''}`,
  )
  recordOutcome(datadir, hash, settled.outcome, settled.blockNumber ?? undefined)
  io.emit({
    event: 'resumed',
    step,
    hash,
    outcome: settled.outcome,
    blockNumber: settled.blockNumber?.toString() ?? null,
  })
  return { hash, outcome: settled.outcome }
}

/**
 * Settles every journaled submission on this chain whose outcome is unknown, before a flow
 * reads the chain to choose its next step: the state it reads then already includes them.
 */
export async function settleJournal(
  ctx: RegistryContext,
  { datadir, io, timeoutMs = 600_000 }: { datadir: string | null; io: WizardIo; timeoutMs?: number },
): Promise<{ hash: Hex; outcome: 'success' | 'reverted' | 'dropped' }[]> {
  if (datadir === null) return []
  const journal = await readJournal(datadir)
  if (!journal.entries.some((e) => e.outcome === undefined)) return []
  const chainId = await withRpcErrors(ctx.target, () => ctx.client.getChainId())
  const settled = []
  for (const entry of journal.entries)
    if (entry.outcome === undefined && entry.chainId === chainId)
      settled.push(await settle(ctx, { datadir, entry, io, timeoutMs }))
  return settled
}
