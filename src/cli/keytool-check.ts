/**
 * `--check` for the keytool writers (docs/automation.md): the files a command would write, each
 * with its path, mode and whether it exists now, and the one outcome (`would-change`, or
 * `already-done` with no file). Nothing here writes; every refusal of the command has run before.
 */
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import { type DatadirPaths, KEY_DIR_MODE, KEY_FILE_MODE } from '../lib/keys/datadir.js'
import { KEY_BINDING_FILE } from '../lib/keys/key-binding.js'

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

/** What a key generation (generate, recover) writes: node-keys/ and its files, node-info.yaml, the key record. */
export async function nodeKeyFiles(
  paths: DatadirPaths,
  { encrypted, workers }: { encrypted: boolean; workers: number },
): Promise<{ path: string; mode: number }[]> {
  const dirExists = await lstat(paths.datadir).then(
    () => true,
    () => false,
  )
  return [
    ...(dirExists ? [] : [{ path: paths.datadir, mode: 0o700 }]),
    { path: paths.nodeKeys, mode: KEY_DIR_MODE },
    { path: encrypted ? paths.blsKw : paths.blsKey, mode: KEY_FILE_MODE },
    { path: paths.primarySeed, mode: KEY_FILE_MODE },
    ...Array.from({ length: workers }, (_, i) => ({ path: paths.workerSeed(i), mode: KEY_FILE_MODE })),
    { path: paths.nodeInfo, mode: 0o644 },
    { path: join(paths.datadir, KEY_BINDING_FILE), mode: KEY_FILE_MODE },
  ]
}
