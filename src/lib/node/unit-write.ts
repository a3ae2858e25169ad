/**
 * Writes generated files (the systemd units, an instance's settings) into their directories,
 * each atomically (../fs/atomic.ts: a reader sees the old file or the new one, never half), and
 * only when its content differs: a rerun with the same parameters writes nothing and says
 * `already-done`. With `check`, nothing is written and the result says what would change.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'

export type FileToWrite = { dir: string; name: string; content: string; mode: number }

/** create / update: the file is missing / differs; none: it already holds this content. */
export type FileAction = 'create' | 'update' | 'none'

export type WrittenFile = { path: string; action: FileAction; written: boolean }

export type WriteFilesReturnType = {
  /** `changed`: files were written; `would-change`: --check found some to write; `already-done`: none differs. */
  outcome: 'changed' | 'would-change' | 'already-done'
  check: boolean
  files: WrittenFile[]
}

async function currentContent(path: string): Promise<string | null> {
  try {
    return await fs.readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

/**
 * @example const r = await writeFilesIfChanged({ files: [{ dir: '/etc/systemd/system', name: 'tnv-node@.service', content, mode: 0o644 }], check: false })
 */
export async function writeFilesIfChanged({
  files,
  check,
}: {
  files: readonly FileToWrite[]
  check: boolean
}): Promise<WriteFilesReturnType> {
  const out: WrittenFile[] = []
  for (const f of files) {
    const path = join(f.dir, f.name)
    const now = await currentContent(path)
    const action: FileAction = now === null ? 'create' : now === f.content ? 'none' : 'update'
    let written = false
    if (action !== 'none' && !check) {
      await fs.mkdir(f.dir, { recursive: true })
      await writeFileAtomic(path, f.content, { mode: f.mode })
      written = true
    }
    out.push({ path, action, written })
  }
  const differs = out.some((f) => f.action !== 'none')
  return { outcome: !differs ? 'already-done' : check ? 'would-change' : 'changed', check, files: out }
}
