/**
 * `--check` for the keytool writers (docs/automation.md): the files a command would write, each
 * with its path, mode and whether it exists now, and the one outcome (`would-change`, or
 * `already-done` with no file). Nothing here writes; every refusal of the command has run before.
 */
import { lstat } from 'node:fs/promises'

/** create: the path is free; update: something is there and would be replaced (or, for a directory, filled). */
export type PlannedFile = { path: string; mode: string; exists: boolean; action: 'create' | 'update' }

export type KeytoolCheckResult = {
  outcome: 'would-change' | 'already-done'
  check: true
  /** One sentence: what would be done, or why nothing is to do. */
  message: string
  files: PlannedFile[]
}

export async function planFiles(files: readonly { path: string; mode: number }[]): Promise<PlannedFile[]> {
  return Promise.all(
    files.map(async ({ path, mode }) => {
      const exists = await lstat(path).then(
        () => true,
        () => false,
      )
      return { path, mode: `0${mode.toString(8)}`, exists, action: exists ? ('update' as const) : ('create' as const) }
    }),
  )
}

/** @example return checkResult(await planFiles([{ path, mode: 0o600 }]), 'would write the key') */
export function checkResult(files: PlannedFile[], message: string): KeytoolCheckResult {
  return { outcome: files.length > 0 ? 'would-change' : 'already-done', check: true, message, files }
}

/** The human lines of a check (stdout): the message, then one line per file. */
export function checkLines(r: KeytoolCheckResult): string[] {
  return [
    `${r.outcome}: ${r.message} (check: nothing was written)`,
    ...r.files.map((f) => `  would ${f.action}  ${f.path}  (mode ${f.mode})`),
  ]
}
