/**
 * Removing one file that may already be gone. `fs.rm(path, { force: true })` does the same for a
 * file, but the first call in a process loads Node's recursive-removal module and each call makes
 * two system calls (lstat, then unlink): about 1 ms more, and up to 5 ms on a loaded machine,
 * on the path of every command that commits keys or holds a lock (docs/decisions.md, "Start-up,
 * stop 30"). A directory is refused, as `fs.rm` without `recursive` refuses it.
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
