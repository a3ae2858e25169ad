/**
 * Inter-process locks, with proper-lockfile (an atomic `mkdir` lock whose mtime the holder keeps
 * fresh; a lock not refreshed for `staleMs` is stale and taken over). Beside the lock a small
 * owner record (pid, host, command, since) says who holds it, so a second command can wait
 * briefly and then name the holder. A holder that died on this host (its pid is gone) frees the
 * lock at once instead of after `staleMs`.
 *
 * Taking and releasing a lock are synchronous file-system calls (proper-lockfile's `lockSync`);
 * only the wait for another holder is asynchronous.
 */
import {
  lstatSync,
  mkdir,
  mkdirSync,
  readFileSync,
  realpath,
  realpathSync,
  rmdir,
  rmdirSync,
  rmSync,
  stat,
  statSync,
  utimes,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { dirname } from 'node:path'
import { ExitCode, TnvError } from '../errors.js'
import { isProcessAlive } from '../os/process-alive.js'
import { removeFileSync } from './remove-file.js'

export type LockOwner = { pid: number; host: string; command: string; since: string }

export type AcquireLockParameters = {
  /** The lock itself (a directory proper-lockfile creates), e.g. `<datadir>/tnv.lock`. */
  lockPath: string
  /** What is locked, for messages ("the data directory /x", "the transaction journal /y"). */
  what: string
  /** The command holding it, recorded for others to see ("tnv keytool change-passphrase"). */
  command: string
  /** How long to wait for a holder to finish before giving up. Default 10 s. */
  waitMs?: number
  /** A lock not refreshed for this long is stale. Default 20 s (refreshed every 5 s). */
  staleMs?: number
}

/** Release function; safe to call twice. */
export type ReleaseLock = () => Promise<void>

/** Another tnv process holds the lock and did not let go in time. */
export class LockedError extends TnvError {
  override readonly code: string = 'Locked'
  constructor(what: string, owner: LockOwner | null, waitedMs: number) {
    super(
      `${what} is in use by another tnv command${owner ? ` (pid ${owner.pid}${owner.host !== hostname() ? ` on ${owner.host}` : ''}: ${owner.command}, since ${owner.since})` : ''}; waited ${Math.round(waitedMs / 1000)} s.`,
      {
        fix: 'Let that command finish (or stop it), then run this one again. Nothing was changed.',
        exitCode: ExitCode.Locked,
      },
    )
  }
}

/**
 * The file-system calls proper-lockfile makes (its documented `fs` option). Without it, it copies
 * every property of its fs module (`{ ...fs }` for the synchronous API), and node:fs's getters
 * then load Node's file streams and fs.promises with the stream and readline modules behind them:
 * about 3 ms on every command that locks, for calls it never makes.
 */
const LOCKFILE_FS = { mkdir, mkdirSync, realpath, realpathSync, rmdir, rmdirSync, stat, statSync, utimes, utimesSync }

/** The owner record written beside the lock. */
export function lockOwnerPath(lockPath: string): string {
  return `${lockPath}.owner`
}

export function readLockOwner(lockPath: string): LockOwner | null {
  try {
    const o = JSON.parse(readFileSync(lockOwnerPath(lockPath), 'utf8')) as LockOwner
    return typeof o.pid === 'number' ? o : null
  } catch {
    return null
  }
}

function deadHereOwner(owner: LockOwner | null): boolean {
  if (!owner || owner.host !== hostname() || owner.pid === process.pid) return false
  return !isProcessAlive(owner.pid)
}

/**
 * @example const release = await acquireLock({ lockPath, what: 'the data directory', command: 'tnv keytool set-rpc' })
 */
export async function acquireLock({
  lockPath,
  what,
  command,
  waitMs = 10_000,
  staleMs = 20_000,
}: AcquireLockParameters): Promise<ReleaseLock> {
  const { default: lockfile } = await import('proper-lockfile')
  mkdirSync(dirname(lockPath), { recursive: true })
  removeLegacyPidFile(lockPath)
  const started = Date.now()
  let compromised: Error | null = null
  for (let attempt = 0; ; attempt++) {
    try {
      // keyed by the lock's own path, so two locks in one directory never share proper-lockfile's entry
      const release = lockfile.lockSync(lockPath, {
        fs: LOCKFILE_FS,
        lockfilePath: lockPath,
        realpath: false,
        stale: staleMs,
        update: Math.max(1000, Math.floor(staleMs / 4)),
        retries: 0,
        onCompromised: (err) => {
          // the lock was taken from under us (the event loop stalled past staleMs): say so at release
          compromised = err
        },
      })
      const owner: LockOwner = { pid: process.pid, host: hostname(), command, since: new Date().toISOString() }
      writeFileSync(lockOwnerPath(lockPath), `${JSON.stringify(owner)}\n`, { mode: 0o600 })
      let released = false
      return async () => {
        if (released) return
        released = true
        const current = readLockOwner(lockPath)
        if (current?.pid === process.pid) removeFileSync(lockOwnerPath(lockPath))
        try {
          release()
        } catch {
          // already gone (compromised, or removed by hand): nothing left to release
        }
        if (compromised) throw compromised
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err
      const owner = readLockOwner(lockPath)
      if (deadHereOwner(owner)) {
        // its holder is gone (killed): the lock is stale now, not in staleMs
        rmSync(lockPath, { recursive: true, force: true })
        removeFileSync(lockOwnerPath(lockPath))
        continue
      }
      const waited = Date.now() - started
      if (waited >= waitMs) throw new LockedError(what, owner, waited)
      await new Promise((r) => setTimeout(r, Math.min(250, 50 * 2 ** Math.min(attempt, 3))))
    }
  }
}

/**
 * tnv's former hand-written locks were plain files holding a pid at the same path. One left by a
 * process that died (on this host) is removed; one of a live process is left for the lock to
 * report as held.
 */
function removeLegacyPidFile(lockPath: string): void {
  let isFile = false
  try {
    isFile = lstatSync(lockPath).isFile()
  } catch {
    return
  }
  if (!isFile) return
  let text = ''
  try {
    text = readFileSync(lockPath, 'utf8')
  } catch {
    // unreadable: judged as holding no pid
  }
  const pid = Number.parseInt(text, 10)
  if (deadHereOwner({ pid, host: hostname(), command: '', since: '' }) || !Number.isInteger(pid))
    removeFileSync(lockPath)
}

/** Runs `fn` holding the lock. */
export async function withLock<T>(params: AcquireLockParameters, fn: () => Promise<T>): Promise<T> {
  const release = await acquireLock(params)
  try {
    return await fn()
  } finally {
    await release()
  }
}
