/**
 * Creates a file that must not exist yet (a recovery phrase, a backup), atomically and durably:
 * the data is written and fsynced under a temporary name in the same directory, then hard-linked
 * to its name (which fails when the name exists: nothing is ever overwritten), then the temporary
 * name is removed and the directory fsynced. A reader never sees half a file.
 */

import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fsyncDir, writeFileAtomic } from '../fs/atomic.js'

/** @returns false when `path` already exists (nothing written) */
export async function writeNewFile(path: string, data: string | Uint8Array, mode: number): Promise<boolean> {
  const tmp = join(dirname(path), `.${basename(path)}.tnv-new-${randomBytes(4).toString('hex')}`)
  await writeFileAtomic(tmp, data, { mode })
  try {
    await fs.link(tmp, path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  } finally {
    await fs.rm(tmp, { force: true })
  }
  await fsyncDir(dirname(path))
  return true
}
