/**
 * Replaces a set of files and directories of a data directory as one step: each new file or
 * directory is first written in full next to its target (staged), everything that will be
 * replaced or removed is kept in a timestamped `backup-<time>/` directory inside the data
 * directory, and only then are the staged entries renamed into place. Any failure undoes the
 * renames already done, removes the staged entries and the backup, and re-throws: every file
 * is left as it was. `faultPoint` names each step so tests can prove that.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { TnvError } from '../errors.js'
import { ensureDir, faultPoint, fileTimestamp, fsyncDir, pathExists, writeFileAtomic } from '../fs/atomic.js'

export type FileReplacement =
  /** Create or replace a file with a staged one (see stageFile). */
  | { kind: 'file'; target: string; staged: string }
  /** Remove a file (a copy stays in the backup). */
  | { kind: 'remove'; target: string }
  /** Create or replace a directory with a staged one (see stageDir). */
  | { kind: 'dir'; target: string; staged: string }

export type CommitFilesParameters = {
  /** The data directory: the backup directory is made here. */
  datadir: string
  /** Applied in order. Every target and staged path must be on the data directory's file system. */
  replacements: FileReplacement[]
}

export type CommitFilesReturnType = {
  /** The backup of what was replaced or removed; undefined when nothing existed before. */
  backupDir?: string
}

/**
 * @example
 * const staged = await stageFile(infoPath, yamlText)
 * const { backupDir } = await commitFiles({ datadir, replacements: [{ kind: 'file', target: infoPath, staged }] })
 */
export async function commitFiles({ datadir, replacements }: CommitFilesParameters): Promise<CommitFilesReturnType> {
  const undo: (() => Promise<void>)[] = []
  let backupDir: string | undefined
  const backup = async (): Promise<string> => {
    backupDir ??= await createBackupDir(datadir)
    return backupDir
  }
  try {
    // 1. Copy every file that will be replaced or removed into the backup first.
    for (const r of replacements) {
      if (r.kind === 'dir' || !(await pathExists(r.target))) continue
      await copyFileDurable(r.target, join(await backup(), basename(r.target)))
    }
    faultPoint('commit:backup')
    // 2. Swap in the staged entries.
    for (const r of replacements) {
      if (r.kind === 'dir') {
        if (await pathExists(r.target)) {
          if ((await fs.readdir(r.target)).length === 0) {
            const { mode } = await fs.stat(r.target)
            await fs.rmdir(r.target)
            undo.push(() => ensureDir(r.target, mode & 0o777))
          } else {
            const kept = join(await backup(), basename(r.target))
            await fs.rename(r.target, kept)
            undo.push(() => fs.rename(kept, r.target))
          }
        }
        await fs.rename(r.staged, r.target)
        undo.push(() => fs.rename(r.target, r.staged))
      } else if (r.kind === 'remove') {
        if (await pathExists(r.target)) {
          const copy = join(await backup(), basename(r.target))
          await fs.rm(r.target)
          undo.push(() => copyFileDurable(copy, r.target))
        }
      } else {
        const existed = await pathExists(r.target)
        const copy = existed ? join(await backup(), basename(r.target)) : undefined
        await fs.rename(r.staged, r.target)
        undo.push(copy ? () => copyFileDurable(copy, r.target) : () => fs.rm(r.target, { force: true }))
      }
      faultPoint(`commit:${basename(r.target)}`)
    }
    for (const dir of new Set(replacements.map((r) => dirname(r.target)))) await fsyncDir(dir)
    return backupDir ? { backupDir } : {}
  } catch (err) {
    let undone = true
    for (const step of undo.reverse()) {
      try {
        await step()
      } catch {
        undone = false
      }
    }
    for (const r of replacements) if (r.kind !== 'remove') await fs.rm(r.staged, { recursive: true, force: true })
    if (backupDir && undone) await fs.rm(backupDir, { recursive: true, force: true })
    if (!undone && backupDir)
      throw new TnvError(`Writing the new files failed and could not be fully undone: ${errText(err)}.`, {
        fix: `Your previous files are kept in ${backupDir}; copy them back into ${datadir} before doing anything else.`,
        cause: err,
      })
    throw err
  }
}

/**
 * Writes the new content of `target` beside it (hidden, same directory) and returns its path.
 * @example const staged = await stageFile('/d/node-info.yaml', text)
 */
export async function stageFile(target: string, data: string | Uint8Array, mode = 0o644): Promise<string> {
  const staged = join(dirname(target), `.${basename(target)}.tnv-stage-${randomBytes(4).toString('hex')}`)
  await writeFileAtomic(staged, data, { mode })
  return staged
}

/**
 * Writes a whole new directory beside `target` (hidden, same parent) and returns its path.
 * @example const staged = await stageDir('/d/node-keys', [{ name: 'bls.kw', data, mode: 0o600 }], 0o700)
 */
export async function stageDir(
  target: string,
  files: { name: string; data: string | Uint8Array; mode: number }[],
  mode: number,
): Promise<string> {
  const staged = join(dirname(target), `.${basename(target)}.tnv-stage-${randomBytes(4).toString('hex')}`)
  try {
    await fs.mkdir(staged, { mode })
    await fs.chmod(staged, mode)
    await Promise.all(files.map((f) => writeFileAtomic(join(staged, f.name), f.data, { mode: f.mode })))
    await fsyncDir(staged)
  } catch (err) {
    await fs.rm(staged, { recursive: true, force: true })
    throw err
  }
  return staged
}

/** Creates `<datadir>/backup-<timestamp>` (mode 0700; `-2`, `-3`, … when the name is taken). */
async function createBackupDir(datadir: string): Promise<string> {
  const base = join(datadir, `backup-${fileTimestamp()}`)
  for (let i = 1; ; i++) {
    const dir = i === 1 ? base : `${base}-${i}`
    try {
      await fs.mkdir(dir, { mode: 0o700 })
      await fs.chmod(dir, 0o700)
      return dir
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
}

/** Copies a small file durably (atomic write, same mode). */
async function copyFileDurable(from: string, to: string): Promise<void> {
  const [data, stat] = await Promise.all([fs.readFile(from), fs.stat(from)])
  await writeFileAtomic(to, data, { mode: stat.mode & 0o777 })
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
