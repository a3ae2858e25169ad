/**
 * Opening a data directory: its lock `<datadir>/tnv.lock` (proper-lockfile, ../fs/lock.ts) is
 * taken, waiting briefly for another tnv command and then naming it (pid, command), and a key
 * commit that a killed command left half-finished is rolled forward or back (./commit-files.ts
 * `recoverCommit`). Every command that writes the data directory, or reads its keys to act on
 * them (stake, delegation sign, export-staking-args), holds the lock while it does.
 */
import { join, resolve } from 'node:path'
import { ensureDir } from '../fs/atomic.js'
import { assertDatadirPlace, statOrUndefined } from '../fs/fs-errors.js'
import { acquireLock } from '../fs/lock.js'
import { type RecoverCommitReturnType, recoverCommit } from './commit-files.js'

export const DATADIR_LOCK = 'tnv.lock'

export type DatadirHandle = {
  datadir: string
  /** What the opening repaired (a half-finished commit of a killed command). */
  recovered: RecoverCommitReturnType
  /** Whether the lock is held (false when the directory does not exist and was not created). */
  locked: boolean
  release(): Promise<void>
}

export type OpenDatadirParameters = {
  /** The command, recorded as the lock's holder. */
  command: string
  /** Create the directory (mode 0700) when it does not exist (keytool generate). */
  create?: boolean
  /** How long to wait for another command. Default 10 s. */
  waitMs?: number
}

/**
 * @example const dir = await openDatadir(datadir, { command: 'tnv keytool set-rpc' }); try { … } finally { await dir.release() }
 */
export async function openDatadir(
  datadir: string,
  { command, create = false, waitMs = 10_000 }: OpenDatadirParameters,
): Promise<DatadirHandle> {
  const dir = resolve(datadir)
  await assertDatadirPlace(dir)
  const stat = statOrUndefined(dir)
  if (!stat?.isDirectory()) {
    if (!create || stat) return { datadir: dir, recovered: { action: 'none' }, locked: false, release: async () => {} }
    await ensureDir(dir, 0o700)
  }
  const release = await acquireLock({
    lockPath: join(dir, DATADIR_LOCK),
    what: `The data directory ${dir}`,
    command,
    waitMs,
  })
  try {
    const recovered = await recoverCommit(dir)
    return { datadir: dir, recovered, locked: true, release }
  } catch (err) {
    await release()
    throw err
  }
}
