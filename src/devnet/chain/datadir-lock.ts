/**
 * `<datadir>/chain.lock` (holding the pid) keeps two processes from running anvil on the same
 * state file. A lock left by a process that is gone is taken over.
 */
import { promises as fs, readFileSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { DevnetAlreadyRunningError } from './errors.js'
import { onProcessExit } from './exit-hooks.js'

export const LOCK_FILE = 'chain.lock'

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes the lock; resolves to its release function (also run on process exit).
 * @example const release = await acquireDatadirLock(dir); try { … } finally { await release() }
 */
export async function acquireDatadirLock(datadir: string): Promise<() => Promise<void>> {
  const path = join(datadir, LOCK_FILE)
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.writeFile(path, `${process.pid}\n`, { flag: 'wx' })
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err
      const holder = Number.parseInt(await fs.readFile(path, 'utf8').catch(() => ''), 10)
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder))
        throw new DevnetAlreadyRunningError(datadir, holder)
      await fs.rm(path, { force: true }) // stale: its process is gone
    }
  }
  const releaseSync = () => {
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path)
    } catch {
      // already gone
    }
  }
  const forgetExitHook = onProcessExit(releaseSync)
  let released = false
  return async () => {
    if (released) return
    released = true
    forgetExitHook()
    releaseSync()
  }
}
