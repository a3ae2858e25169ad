/**
 * The transaction journal: every transaction tnv signs is written here, with its SIGNED raw
 * bytes, hash, nonce, chain id, sender, recipient and step, and the file and its directory are
 * fsynced, BEFORE it is handed to the node (`eth_sendRawTransaction`). Its outcome (success,
 * reverted, dropped) is added once known. A later run finds an entry whose outcome is unknown and
 * rebroadcasts those very bytes or waits for them (./run-step.ts), so a kill at any point (even
 * between the send and its answer) never leads to a second, different transaction.
 *
 * Where: `<datadir>/tnv-journal.json` for the commands of a data directory (stake, exit), and one
 * file per sender under tnv's state directory for every other command
 * (`$TNV_STATE_DIR`, else `$XDG_STATE_HOME/tnv`, else `~/.local/state/tnv`: `journal/<address>.json`).
 * Each command reads both for its sender, so a kill in `tnv activate` is settled by a later
 * `tnv stake --through active` too.
 *
 * The journal is locked (proper-lockfile, ../fs/lock.ts) by the step that uses it, from settling
 * old entries to recording the outcome: reads and writes happen under that lock. Writes are
 * synchronous (temp file, fsync, rename, fsync of the directory), so no await separates the
 * record from the send.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Address, Hex } from 'viem'
import { fileTimestamp } from '../fs/atomic.js'
import { acquireLock, type ReleaseLock } from '../fs/lock.js'

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

export type JournalOutcome = 'success' | 'reverted' | 'dropped'

export type JournalEntry = {
  step: JournalStep
  chainId: number
  from: Address
  to: Address
  hash: Hex
  /** Always a number in entries tnv writes now; null only in version-1 files (written after the send). */
  nonce: number | null
  /** The signed transaction (version 2): what a later run rebroadcasts. */
  raw?: Hex
  /** wei, decimal (version 2). */
  value?: string
  /** When it was signed and journaled (just before the send). */
  submittedAt: string
  /** Filled in once known: the receipt, or proof that it can never be mined. */
  outcome?: JournalOutcome
  blockNumber?: string
  /** Why it is dropped (the proof), or how a revert was decoded. */
  reason?: string
}

export type JournalFile = { version: 1 | 2; entries: JournalEntry[] }

/** What a command hands an operation so that its transaction is journaled (./run-step.ts). */
export type StepJournal = {
  /** Written to the first; all are read and settled (`journalsFor`). */
  journals: TxJournal[]
  /** The command, recorded as the lock's holder ("tnv stake"). */
  command: string
  /** Longest wait for a receipt (and for an earlier run's transaction), ms. Default 180 s. */
  timeoutMs?: number
}

/** tnv's own state directory: $TNV_STATE_DIR, else $XDG_STATE_HOME/tnv, else ~/.local/state/tnv. */
export function tnvStateDir(env: NodeJS.ProcessEnv): string {
  if (env.TNV_STATE_DIR) return env.TNV_STATE_DIR
  const base =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME.length > 0 ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state')
  return join(base, 'tnv')
}

/** The journal of a data directory. */
export function datadirJournalPath(datadir: string): string {
  return join(datadir, JOURNAL_FILE)
}

/** The journal of a sender, for commands without a data directory. */
export function senderJournalPath(from: Address, env: NodeJS.ProcessEnv): string {
  return join(tnvStateDir(env), 'journal', `${from.toLowerCase()}.json`)
}

/** fsync a directory so a rename in it survives a crash (best effort where unsupported). */
function fsyncDirSync(dir: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // some platforms cannot open or fsync a directory
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

export class TxJournal {
  readonly lockPath: string
  private held = false

  constructor(readonly path: string) {
    this.lockPath = `${path}.lock`
  }

  /** Takes the journal's lock (waits briefly for another tnv command, then names it). */
  async lock(command: string): Promise<ReleaseLock> {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 })
    const release = await acquireLock({
      lockPath: this.lockPath,
      what: `The transaction journal ${this.path}`,
      command,
      // a step holds it while it waits for a receipt: wait long enough for a quick step to end
      waitMs: 15_000,
    })
    this.held = true
    return async () => {
      this.held = false
      await release()
    }
  }

  /** An absent file is an empty journal; a file that cannot be parsed is reported as unreadable. */
  private readFile(): { journal: JournalFile; unreadable: boolean } {
    const empty: JournalFile = { version: 2, entries: [] }
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (err) {
      return { journal: empty, unreadable: (err as NodeJS.ErrnoException).code !== 'ENOENT' }
    }
    try {
      const parsed = JSON.parse(text) as JournalFile
      if ((parsed.version === 1 || parsed.version === 2) && Array.isArray(parsed.entries))
        return { journal: parsed, unreadable: false }
    } catch {
      // not JSON: kept aside before the next write
    }
    return { journal: empty, unreadable: true }
  }

  read(): JournalFile {
    return this.readFile().journal
  }

  /** Entries of a sender (on a chain, when given) whose outcome is unknown, oldest first. */
  open(from: Address, chainId?: number): JournalEntry[] {
    return this.read().entries.filter(
      (e) =>
        e.outcome === undefined &&
        e.from.toLowerCase() === from.toLowerCase() &&
        (chainId === undefined || e.chainId === chainId),
    )
  }

  /** Records a signed transaction before it is sent: synchronous, file and directory fsynced. */
  recordSigned(entry: JournalEntry & { nonce: number; raw: Hex }): void {
    this.update((j) => {
      if (!j.entries.some((e) => e.hash === entry.hash)) j.entries.push(entry)
    })
  }

  recordOutcome(
    hash: Hex,
    outcome: JournalOutcome,
    { blockNumber, reason }: { blockNumber?: bigint | null | undefined; reason?: string | undefined } = {},
  ): void {
    this.update((j) => {
      const e = j.entries.find((x) => x.hash === hash)
      if (!e) return
      e.outcome = outcome
      if (blockNumber !== undefined && blockNumber !== null) e.blockNumber = blockNumber.toString()
      if (reason !== undefined) e.reason = reason
    })
  }

  /** Read-modify-write under the lock the step holds; a file that cannot be read is kept aside, never overwritten. */
  private update(change: (journal: JournalFile) => void): void {
    if (!this.held) throw new Error(`the transaction journal ${this.path} is written without its lock`) // a bug
    const { journal, unreadable } = this.readFile()
    if (unreadable) renameSync(this.path, `${this.path}.unreadable-${fileTimestamp()}`)
    change(journal)
    this.write({ version: 2, entries: journal.entries })
  }

  private write(journal: JournalFile): void {
    const dir = dirname(this.path)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const tmp = `${this.path}.tmp-${process.pid}`
    const fd = openSync(tmp, 'w', 0o600)
    try {
      writeSync(fd, `${JSON.stringify(journal, null, 2)}\n`)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    try {
      renameSync(tmp, this.path)
    } catch (err) {
      rmSync(tmp, { force: true })
      throw err
    }
    fsyncDirSync(dir)
  }
}

/**
 * The journals a command uses for a sender: its data directory's (written; when it has one) and
 * the sender's own under the state directory (written when there is no data directory). Both are
 * read and settled.
 */
export function journalsFor({
  datadir,
  from,
  env,
}: {
  datadir: string | null
  from: Address
  env: NodeJS.ProcessEnv
}): TxJournal[] {
  const sender = new TxJournal(senderJournalPath(from, env))
  return datadir === null ? [sender] : [new TxJournal(datadirJournalPath(datadir)), sender]
}
