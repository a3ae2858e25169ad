/**
 * The onboarding journal: `<datadir>/tnv-journal.json` records every transaction tnv
 * submitted for this validator (step, chain, sender, hash) the moment it is sent, so a
 * crash, a kill or a timeout never leads to a second submission: a rerun finds the hash and
 * waits for that transaction instead of sending another (./journaled-step.ts).
 *
 * A submission is written synchronously (temp file, fsync, rename) from inside the library's
 * `sent` report, before control returns to anything that could be interrupted by a signal
 * handler; outcomes are written the same way.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { fileTimestamp } from '../fs/atomic.js'

export const JOURNAL_FILE = 'tnv-journal.json'

export type JournalStep =
  | 'stake'
  | 'activate'
  | 'beginExit'
  | 'unstake'
  | 'mint'
  | 'claimStakeRewards'
  | 'claimRefund'
  | 'delegateStake'
  | 'increaseNonce'

export type JournalEntry = {
  step: JournalStep
  chainId: number
  from: `0x${string}`
  to: `0x${string}`
  hash: `0x${string}`
  nonce: number | null
  submittedAt: string
  /** Filled in once the receipt is seen (or the transaction is known to be gone). */
  outcome?: 'success' | 'reverted' | 'dropped'
  blockNumber?: string
}

export type Journal = { version: 1; entries: JournalEntry[] }

export function journalPath(datadir: string): string {
  return join(datadir, JOURNAL_FILE)
}

export async function readJournal(datadir: string): Promise<Journal> {
  return readJournalSync(datadir)
}

function readJournalSync(datadir: string): Journal {
  return readJournalFile(journalPath(datadir)).journal
}

/** An absent file is an empty journal; a file that cannot be parsed is reported as unreadable. */
function readJournalFile(path: string): { journal: Journal; unreadable: boolean } {
  const empty: Journal = { version: 1, entries: [] }
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    // absent: an empty journal (the chain state is read first anyway)
    return { journal: empty, unreadable: (err as NodeJS.ErrnoException).code !== 'ENOENT' }
  }
  try {
    const parsed = JSON.parse(text) as Journal
    if (parsed.version === 1 && Array.isArray(parsed.entries)) return { journal: parsed, unreadable: false }
  } catch {
    // not JSON: kept aside before the next write (readJournalForUpdate)
  }
  return { journal: empty, unreadable: true }
}

/** The journal to update; a file that cannot be read is first kept as `<file>.unreadable-<time>`, never overwritten. */
function readJournalForUpdate(datadir: string): Journal {
  const path = journalPath(datadir)
  const { journal, unreadable } = readJournalFile(path)
  if (unreadable) renameSync(path, `${path}.unreadable-${fileTimestamp()}`)
  return journal
}

/** Atomic and synchronous: temp file, fsync, rename. */
function writeJournalSync(datadir: string, journal: Journal): void {
  mkdirSync(datadir, { recursive: true })
  const path = journalPath(datadir)
  const tmp = `${path}.tmp-${process.pid}`
  const fd = openSync(tmp, 'w', 0o644)
  try {
    writeSync(fd, `${JSON.stringify(journal, null, 2)}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    renameSync(tmp, path)
  } catch (err) {
    rmSync(tmp, { force: true })
    throw err
  }
}

/** Records a submission at once (synchronously: it must survive a kill right after the send). */
export function recordSubmission(datadir: string, entry: JournalEntry): void {
  const journal = readJournalForUpdate(datadir)
  if (journal.entries.some((e) => e.hash === entry.hash)) return
  journal.entries.push(entry)
  writeJournalSync(datadir, journal)
}

export function recordOutcome(
  datadir: string,
  hash: `0x${string}`,
  outcome: NonNullable<JournalEntry['outcome']>,
  blockNumber?: bigint,
): void {
  const journal = readJournalForUpdate(datadir)
  const e = journal.entries.find((x) => x.hash === hash)
  if (!e) return
  e.outcome = outcome
  if (blockNumber !== undefined) e.blockNumber = blockNumber.toString()
  writeJournalSync(datadir, journal)
}

/** The latest submission for a step by a sender on a chain whose outcome is still unknown. */
export async function findOpenSubmission(
  datadir: string,
  { step, chainId, from }: { step: JournalStep; chainId: number; from: string },
): Promise<JournalEntry | undefined> {
  return readJournalSync(datadir)
    .entries.filter((e) => e.step === step && e.chainId === chainId && e.from.toLowerCase() === from.toLowerCase())
    .filter((e) => e.outcome === undefined)
    .at(-1)
}
