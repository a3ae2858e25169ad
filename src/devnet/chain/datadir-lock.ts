/**
 * `<datadir>/chain.lock` keeps two processes from running anvil on the same state file. The
 * lock is proper-lockfile's (src/lib/fs/lock.ts): a lock left by a process that is gone is
 * taken over.
 */
import { join } from 'node:path'
import { acquireLock, LockedError, readLockOwner } from '../../lib/fs/lock.js'
import { DevnetChainLockedError } from './errors.js'

export const LOCK_FILE = 'chain.lock'

/**
 * Takes the lock; resolves to its release function (proper-lockfile also removes it on process exit).
 * @example const release = await acquireDatadirLock(dir); try { … } finally { await release() }
 */
export async function acquireDatadirLock(datadir: string): Promise<() => Promise<void>> {
  const lockPath = join(datadir, LOCK_FILE)
  try {
    return await acquireLock({ lockPath, what: `The devnet chain in ${datadir}`, command: 'devnet chain', waitMs: 0 })
  } catch (err) {
    if (!(err instanceof LockedError)) throw err
    throw new DevnetChainLockedError(datadir, readLockOwner(lockPath)?.pid ?? Number.NaN)
  }
}
