/**
 * `keytool backup --check`'s look at --out: a backup never overwrites a file, so a file already
 * there is fine only when it is a backup of these very files (the run is then already done).
 * Reads only.
 */
import { readFile } from 'node:fs/promises'
import { type KeyBackup, parseBackup } from './backup-file.js'
import { OutputFileExistsError } from './recovery-errors.js'

export type CheckBackupOutputParameters = {
  /** The backup file's path (--out). */
  out: string
  /** The backup the run would write. */
  backup: KeyBackup
}

export type CheckBackupOutputReturnType =
  /** Nothing at --out: the run would write it. */
  | { outcome: 'would-change' }
  /** --out holds a backup of these files already, written at `createdAt`. */
  | { outcome: 'already-done'; createdAt: string }

/**
 * @example const r = await checkBackupOutput({ out: '/media/usb/v1.tnv-backup.json', backup })
 * @throws OutputFileExistsError when --out holds anything else
 */
export async function checkBackupOutput({
  out,
  backup,
}: CheckBackupOutputParameters): Promise<CheckBackupOutputReturnType> {
  const existing = await readFile(out, 'utf8').then(
    (text) => {
      try {
        return parseBackup(text, out)
      } catch {
        return 'other' as const
      }
    },
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null
      throw err
    },
  )
  if (existing === 'other') throw new OutputFileExistsError(out, '--out')
  if (existing === null) return { outcome: 'would-change' }
  if (existing.blsPublicKey === backup.blsPublicKey && JSON.stringify(existing.files) === JSON.stringify(backup.files))
    return { outcome: 'already-done', createdAt: existing.createdAt }
  throw new OutputFileExistsError(out, '--out')
}
