/**
 * The onboarding journal: `<datadir>/tnv-journal.json` records every transaction tnv
 * submitted for this validator (step, chain, sender, nonce, hash) the moment it is sent, so
 * a crash, a kill or a timeout never leads to a second submission: a rerun finds the hash and
 * waits for that transaction instead of sending another. Rewritten atomically on each entry.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'

export const JOURNAL_FILE = 'tnv-journal.json'

export type JournalStep = 'stake' | 'activate' | 'beginExit' | 'unstake' | 'mint' | 'claimStakeRewards' | 'claimRefund' | 'delegateStake' | 'increaseNonce'

export type JournalEntry = {
  step: JournalStep
  chainId: number
  from: `0x${string}`
  to: `0x${string}`
  hash: `0x${string}`
  nonce: number | null
  submittedAt: string
  /** Filled in once the receipt is seen. */
  outcome?: 'success' | 'reverted' | 'dropped'
  blockNumber?: string
}

export type Journal = { version: 1; entries: JournalEntry[] }

export async function readJournal(datadir: string): Promise<Journal> {
  try {
    const parsed = JSON.parse(await fs.readFile(join(datadir, JOURNAL_FILE), 'utf8')) as Journal
    if (parsed.version === 1 && Array.isArray(parsed.entries)) return parsed
  } catch {
    // absent or unreadable: an empty journal (the chain state is read first anyway)
  }
  return { version: 1, entries: [] }
}

async function writeJournal(datadir: string, journal: Journal): Promise<void> {
  await fs.mkdir(datadir, { recursive: true })
  await writeFileAtomic(join(datadir, JOURNAL_FILE), `${JSON.stringify(journal, null, 2)}\n`, { mode: 0o644 })
}

export async function recordSubmission(datadir: string, entry: JournalEntry): Promise<void> {
  const journal = await readJournal(datadir)
  journal.entries.push(entry)
  await writeJournal(datadir, journal)
}

export async function recordOutcome(
  datadir: string,
  hash: `0x${string}`,
  outcome: NonNullable<JournalEntry['outcome']>,
  blockNumber?: bigint,
): Promise<void> {
  const journal = await readJournal(datadir)
  const e = journal.entries.find((x) => x.hash === hash)
  if (!e) return
  e.outcome = outcome
  if (blockNumber !== undefined) e.blockNumber = blockNumber.toString()
  await writeJournal(datadir, journal)
}

/** The latest submission for a step by a sender on a chain whose outcome is unknown or success. */
export async function findOpenSubmission(
  datadir: string,
  { step, chainId, from }: { step: JournalStep; chainId: number; from: string },
): Promise<JournalEntry | undefined> {
  const journal = await readJournal(datadir)
  return journal.entries
    .filter((e) => e.step === step && e.chainId === chainId && e.from.toLowerCase() === from.toLowerCase())
    .filter((e) => e.outcome === undefined || e.outcome === 'success')
    .at(-1)
}
