/**
 * Removing one file that may already be gone: one unlink, and ENOENT is success. A directory is
 * refused, as `fs.rm` without `recursive` refuses it.
 */
import { promises as fs, unlinkSync } from 'node:fs'

/** Removes the file at `path`; nothing there is not an error. */
export async function removeFile(path: string): Promise<void> {
  try {
    await fs.unlink(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
}

/** `removeFile`, synchronously. */
export function removeFileSync(path: string): void {
  try {
    unlinkSync(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
}
