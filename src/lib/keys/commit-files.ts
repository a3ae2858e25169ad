/**
 * Replaces a set of files and directories of a data directory as one step: each new file or
 * directory is first written in full next to its target (staged), everything that will be
 * replaced or removed is kept in a timestamped `backup-<time>/` directory inside the data
 * directory, and only then are the staged entries renamed into place. Any failure undoes the
 * renames already done, removes the staged entries and the backup, and re-throws: every file
 * is left as it was. `faultPoint` names each step so tests can prove that.
 *
 * A KILL (no exception, no undo) at any point is repaired by the next command that opens the
 * data directory (`recoverCommit`, called by ./datadir-lock.ts under the directory's lock),
 * from the intent record `<datadir>/tnv-commit.json`, written (atomically, fsynced) once every
 * staged entry exists with a durable name, and replaced by its phase `swap` form once the backup
 * is complete and every staged file's content is durable:
 * - no record: killed while staging; the staged leftovers are removed (rolled back);
 * - phase `backup`: killed while copying the old files, or before the staged content was
 *   complete; the staged entries and the backup are removed (rolled back: nothing was replaced yet);
 * - phase `swap`: killed among the renames; the remaining renames are done (rolled forward:
 *   the new files are complete and belong together, the old ones are in the backup).
 * When nothing is replaced (a first `keytool generate`), there is nothing to back up and the
 * record is written once, in phase `swap`.
 * So the data directory never keeps new keys beside an old node-info.yaml, and never loses
 * node-keys/. `killPoint` names each step so tests can kill the process there.
 *
 * Staged entries are written under their final staged names (`.<name>.tnv-stage-<hex>`, or
 * inside a staged directory) with no temporary name of their own: until the record in phase
 * `swap` exists nothing reads them, and a kill leaves only leftovers that recovery removes by
 * name. The staged directories and their parents are fsynced once, then the backup is made and
 * the phase `swap` record written under a temporary name, fsynced, and renamed into place: the
 * commit point.
 * The record's removal at the end is not fsynced (unless it removes a file): if a crash brings
 * it back, nothing staged is left to rename and the next command's recovery removes it, reporting
 * nothing.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { BadInputError, TnvError } from '../errors.js'
import {
  ensureDir,
  faultPoint,
  fileTimestamp,
  fsyncDir,
  killPoint,
  pathExists,
  writeFileAtomic,
  writeFileDurable,
} from '../fs/atomic.js'
import { removeFile } from '../fs/remove-file.js'
import { isProcessAlive } from '../os/process-alive.js'

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
 * Inspects the targets, fsyncs the staged directories, copies what will be replaced into the
 * backup (under a record in phase `backup`: a kill rolls it back), writes the phase `swap` record
 * under a temporary name, fsynced, and renames it into place (the commit point: from there on a
 * kill is rolled forward), then swaps. Every staged entry must be complete and durable.
 * @example
 * const staged = await stageFile(infoPath, yamlText)
 * const { backupDir } = await commitFiles({ datadir, replacements: [{ kind: 'file', target: infoPath, staged }] })
 */
export async function commitFiles({ datadir, replacements }: CommitFilesParameters): Promise<CommitFilesReturnType> {
  // what is at each target now (the lock keeps it so until the swap): one lstat each
  let existing: ExistingTarget[]
  try {
    existing = await inspectTargets(replacements)
    // the staged entries' names must be durable before the record that makes them the new state
    await fsyncStaged(replacements)
  } catch (err) {
    await removeStaged(replacements)
    throw err
  }
  const { backupDir, swapRecord } = await prepareCommit(datadir, replacements, existing)
  killPoint('commit:prepared')
  let renamed = false
  try {
    // the commit point
    await fs.rename(swapRecord, join(datadir, COMMIT_INTENT_FILE))
    renamed = true
    await fsyncDir(datadir)
  } catch (err) {
    await rollBackCommit(datadir, replacements, { backupDir, swapRecord: renamed ? undefined : swapRecord })
    throw err
  }
  return swapIn(datadir, replacements, existing, backupDir)
}

/**
 * 1. The backup phase: what will be replaced or removed copied into the backup under a record in
 * phase `backup` (when anything is kept), then the record in phase swap, complete, staged under a
 * temporary name for the commit point (when nothing is replaced there is no backup phase: this is
 * the only record). Any failure removes everything this commit wrote.
 */
async function prepareCommit(
  datadir: string,
  replacements: FileReplacement[],
  existing: ExistingTarget[],
): Promise<{ backupDir: string | undefined; swapRecord: string }> {
  let backupDir: string | undefined
  try {
    if (existing.some((e) => e.keep)) backupDir = await createBackupDir(datadir)
    const intent: CommitIntent = {
      version: 1,
      startedAt: new Date().toISOString(),
      phase: 'backup',
      backupDir: backupDir ?? null,
      replacements: replacements.map((r) =>
        r.kind === 'dir' && backupDir !== undefined ? { ...r, kept: join(backupDir, basename(r.target)) } : r,
      ),
    }
    if (backupDir !== undefined) {
      await writeIntent(datadir, intent)
      killPoint('commit:intent')
      for (const [i, r] of replacements.entries()) {
        if (r.kind === 'dir' || !existing[i]?.exists) continue
        await copyFileDurable(r.target, join(backupDir, basename(r.target)))
      }
      faultPoint('commit:backup')
    }
    return { backupDir, swapRecord: await stageIntent(datadir, { ...intent, phase: 'swap' }) }
  } catch (err) {
    await rollBackCommit(datadir, replacements, { backupDir, swapRecord: undefined })
    throw err
  }
}

/** Everything this commit wrote is removed again (nothing was replaced yet). */
async function rollBackCommit(
  datadir: string,
  replacements: FileReplacement[],
  { backupDir, swapRecord }: { backupDir: string | undefined; swapRecord: string | undefined },
): Promise<void> {
  if (swapRecord) await removeFile(swapRecord)
  await removeStaged(replacements)
  // a record in place before the commit point is the backup phase's
  if (backupDir) {
    await fs.rm(backupDir, { recursive: true, force: true })
    await removeIntent(datadir).catch(() => {})
  }
}

/** 2. Swaps in the staged entries under a record in phase swap; any failure undoes what was done. */
async function swapIn(
  datadir: string,
  replacements: FileReplacement[],
  existing: ExistingTarget[],
  backupDir: string | undefined,
): Promise<CommitFilesReturnType> {
  const undo: Undo[] = []
  try {
    if (backupDir === undefined) {
      killPoint('commit:intent')
      faultPoint('commit:backup')
    }
    killPoint('commit:backup')
    for (const [i, r] of replacements.entries()) {
      await swapEntry(r, existing[i], backupDir, undo)
      faultPoint(`commit:${basename(r.target)}`)
      killPoint(`commit:${basename(r.target)}`)
    }
    for (const dir of new Set(replacements.map((r) => dirname(r.target)))) await fsyncDir(dir)
    // Not fsynced: a crash that brings the record back finds nothing staged left to rename, and
    // the next command's recovery removes it, reporting nothing. A record that removes a file
    // is fsynced: rolled forward again, it would remove one made there since.
    if (replacements.some((r) => r.kind === 'remove')) await removeIntent(datadir)
    else await removeFile(join(datadir, COMMIT_INTENT_FILE))
    killPoint('commit:done')
    return backupDir ? { backupDir } : {}
  } catch (err) {
    throw await undoSwap(err, { datadir, replacements, backupDir, undo })
  }
}

/** Puts back what one swap changed. */
type Undo = () => Promise<void>

/**
 * One staged entry into place: a directory (what was there removed when empty, else moved into
 * the backup), a removal (its copy is in the backup), or a file renamed over the target. Each
 * change pushes the step that undoes it.
 */
async function swapEntry(
  r: FileReplacement,
  existing: ExistingTarget | undefined,
  backupDir: string | undefined,
  undo: Undo[],
): Promise<void> {
  const exists = existing?.exists === true
  if (r.kind === 'dir') {
    if (exists) {
      if (!existing?.keep) {
        const { mode } = await fs.stat(r.target)
        await fs.rmdir(r.target)
        undo.push(() => ensureDir(r.target, mode & 0o777))
      } else {
        const kept = join(backupDir as string, basename(r.target))
        await fs.rename(r.target, kept)
        undo.push(() => fs.rename(kept, r.target))
        killPoint(`commit:${basename(r.target)}:kept`)
      }
    }
    await fs.rename(r.staged, r.target)
    undo.push(() => fs.rename(r.target, r.staged))
  } else if (r.kind === 'remove') {
    if (exists) {
      const copy = join(backupDir as string, basename(r.target))
      await fs.rm(r.target)
      undo.push(() => copyFileDurable(copy, r.target))
    }
  } else {
    const copy = exists ? join(backupDir as string, basename(r.target)) : undefined
    await fs.rename(r.staged, r.target)
    undo.push(copy ? () => copyFileDurable(copy, r.target) : () => fs.rm(r.target, { force: true }))
  }
}

/**
 * After a failed swap: every change undone in reverse, the staged entries removed; when all was
 * undone, the backup and the record go too and the failure is given back as it was; otherwise
 * the error says where the previous files are kept.
 */
async function undoSwap(
  err: unknown,
  {
    datadir,
    replacements,
    backupDir,
    undo,
  }: { datadir: string; replacements: FileReplacement[]; backupDir: string | undefined; undo: Undo[] },
): Promise<unknown> {
  let undone = true
  for (const step of undo.reverse()) {
    try {
      await step()
    } catch {
      undone = false
    }
  }
  await removeStaged(replacements)
  if (backupDir && undone) await fs.rm(backupDir, { recursive: true, force: true })
  if (undone) await removeIntent(datadir).catch(() => {})
  if (!undone && backupDir)
    return new TnvError(`Writing the new files failed and could not be fully undone: ${errText(err)}.`, {
      fix: `Your previous files are kept in ${backupDir}; copy them back into ${datadir} before doing anything else.`,
      cause: err,
    })
  return err
}

async function removeStaged(replacements: FileReplacement[]): Promise<void> {
  for (const r of replacements) if (r.kind !== 'remove') await fs.rm(r.staged, { recursive: true, force: true })
}

type ExistingTarget = {
  exists: boolean
  /** What is there goes into the backup: a file, or a directory that is not empty. */
  keep: boolean
}

/**
 * The symlink policy (docs/decisions.md "Key commits survive a kill"): tnv never replaces a symbolic link among
 * the files it commits (node-info.yaml, node-keys/ and the files in it). A rename over a link
 * replaces the link and leaves its target with the old content; writing through it instead
 * would give up the atomic rename whenever the target is on another file system, and the backup
 * would hold the link, not the key. So the command stops before anything is written, naming the
 * link and its target. Reading through links is fine (the node follows them too).
 */
/** What is at each target (one lstat, and a directory's entries), under the symlink policy. */
async function inspectTargets(replacements: FileReplacement[]): Promise<ExistingTarget[]> {
  const found: ExistingTarget[] = []
  for (const r of replacements) {
    const links: string[] = []
    const stat = await fs.lstat(r.target).catch(() => undefined)
    let keep = stat !== undefined
    if (stat?.isSymbolicLink()) links.push(r.target)
    else if (stat?.isDirectory() && r.kind === 'dir') {
      const entries = await fs.readdir(r.target, { withFileTypes: true })
      keep = entries.length > 0
      for (const entry of entries) if (entry.isSymbolicLink()) links.push(join(r.target, entry.name))
    }
    if (links.length > 0) {
      const first = links[0] as string
      const target = await fs.readlink(first).catch(() => '?')
      throw new SymlinkRefusedError(first, resolve(dirname(first), target))
    }
    found.push({ exists: stat !== undefined, keep })
  }
  return found
}

/** fsyncs each staged directory (its files' names) and every directory holding a staged entry. */
async function fsyncStaged(replacements: FileReplacement[]): Promise<void> {
  const dirs = new Set<string>()
  for (const r of replacements) {
    if (r.kind === 'remove') continue
    if (r.kind === 'dir') dirs.add(r.staged)
    dirs.add(dirname(r.staged))
  }
  await Promise.all([...dirs].map(fsyncDir))
}

/** A file tnv would replace is a symbolic link: tnv writes no key or node-info.yaml through a link. */
export class SymlinkRefusedError extends BadInputError {
  override readonly code: string = 'SymlinkRefused'
  constructor(link: string, target: string) {
    super(
      `${link} is a symbolic link (to ${target}), and tnv does not replace key files or node-info.yaml through a link: the link would be replaced and its target keep the old content, or the target be written without an atomic rename and a backup. Nothing was changed.`,
      {
        fix: `Point --datadir at the real data directory, or put what the link points to in its place (\`rm ${link} && mv ${target} ${link}\`), then run the command again.`,
      },
    )
  }
}

/** `<datadir>/tnv-commit.json`: what a multi-file commit is doing, for a rerun to finish or undo it. */
export const COMMIT_INTENT_FILE = 'tnv-commit.json'

type CommitIntent = {
  version: 1
  startedAt: string
  /** backup: the old files are being copied (roll back); swap: the renames run (roll forward). */
  phase: 'backup' | 'swap'
  backupDir: string | null
  /** As given, with where a replaced directory goes in the backup. */
  replacements: (FileReplacement & { kept?: string })[]
}

async function writeIntent(datadir: string, intent: CommitIntent): Promise<void> {
  await writeFileAtomic(join(datadir, COMMIT_INTENT_FILE), `${JSON.stringify(intent, null, 2)}\n`, { mode: 0o600 })
}

/** The record written in full and fsynced under a temporary name (ours: recovery leaves it while this process lives). */
async function stageIntent(datadir: string, intent: CommitIntent): Promise<string> {
  const tmp = join(datadir, `.${COMMIT_INTENT_FILE}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
  await writeFileDurable(tmp, `${JSON.stringify(intent, null, 2)}\n`, 0o600)
  return tmp
}

async function removeIntent(datadir: string): Promise<void> {
  await removeFile(join(datadir, COMMIT_INTENT_FILE))
  await fsyncDir(datadir)
}

async function isEmptyDir(path: string): Promise<boolean> {
  return (await fs.readdir(path).catch((): string[] => ['?'])).length === 0
}

export type RecoverCommitReturnType =
  | { action: 'none' }
  /** Staged leftovers (and an incomplete backup) removed: the directory is as it was before the command. */
  | { action: 'rolled-back'; removed: string[] }
  /** The renames the killed command did not get to were done: the directory holds the new files. */
  | { action: 'rolled-forward'; backupDir: string | null; startedAt: string }

/**
 * Finishes or undoes a commit that a killed command left half-done. Call it holding the data
 * directory's lock (./datadir-lock.ts does).
 * @example const r = await recoverCommit(datadir) // r.action
 */
export async function recoverCommit(datadir: string): Promise<RecoverCommitReturnType> {
  const path = join(datadir, COMMIT_INTENT_FILE)
  let intent: CommitIntent | null = null
  let intentMissing = false
  try {
    // read synchronously; the repairs below, which are rare, stay asynchronous
    intent = JSON.parse(readFileSync(path, 'utf8')) as CommitIntent
  } catch (err) {
    // an unreadable or damaged record is removed below, like a finished one
    intentMissing = (err as NodeJS.ErrnoException).code === 'ENOENT'
  }
  if (intent && intent.phase === 'swap') return rollForward(datadir, intent)
  // no intent (killed while staging), an unreadable one, or phase backup: nothing was replaced yet
  return rollBackStaged(datadir, { path, intent, intentMissing })
}

/**
 * Past the commit point: the renames (and removals) the killed command did not get to are done.
 * A record whose renames were all done is one whose removal was lost (it is not fsynced: a crash
 * right after a commit can bring it back), or a command killed just before removing it; the files
 * are whole either way, and nothing is reported.
 */
async function rollForward(datadir: string, intent: CommitIntent): Promise<RecoverCommitReturnType> {
  let finishedNow = false
  for (const r of intent.replacements) {
    if (r.kind === 'remove') {
      if (await pathExists(r.target)) {
        await fs.rm(r.target, { force: true })
        finishedNow = true
      }
    } else if (await pathExists(r.staged)) {
      finishedNow = true
      if (r.kind === 'dir' && (await pathExists(r.target))) {
        if (await isEmptyDir(r.target)) await fs.rmdir(r.target)
        else if (r.kept && !(await pathExists(r.kept))) await fs.rename(r.target, r.kept)
        else await fs.rm(r.target, { recursive: true, force: true }) // the copy in the backup is complete
      }
      await fs.rename(r.staged, r.target)
    }
  }
  for (const dir of new Set(intent.replacements.map((r) => dirname(r.target)))) await fsyncDir(dir)
  await removeIntent(datadir)
  if (!finishedNow) return { action: 'none' }
  return { action: 'rolled-forward', backupDir: intent.backupDir, startedAt: intent.startedAt }
}

/** Before the commit point: staged entries, dead writers' temporary files, the backup and the record removed. */
async function rollBackStaged(
  datadir: string,
  { path, intent, intentMissing }: { path: string; intent: CommitIntent | null; intentMissing: boolean },
): Promise<RecoverCommitReturnType> {
  const removed: string[] = []
  for (const dir of new Set([datadir, join(datadir, 'node-keys')])) {
    let names: string[] = []
    try {
      names = readdirSync(dir)
    } catch {
      // not there (node-keys/ of a new directory) or unreadable: nothing staged in it
    }
    for (const name of names) {
      if (!name.startsWith('.') || !(name.includes('.tnv-stage-') || isDeadWritersTemp(name))) continue
      await fs.rm(join(dir, name), { recursive: true, force: true })
      removed.push(join(dir, name))
    }
  }
  if (intent?.backupDir) {
    await fs.rm(intent.backupDir, { recursive: true, force: true })
    removed.push(intent.backupDir)
  }
  if (intent || (!intentMissing && (await pathExists(path)))) {
    await fs.rm(path, { force: true })
    removed.push(path)
  }
  if (removed.length === 0) return { action: 'none' }
  await fsyncDir(datadir)
  return { action: 'rolled-back', removed }
}

/**
 * A temporary file of ../fs/atomic.ts (`.<name>.tmp-<pid>-<hex>`) whose writer is gone: a kill
 * in the middle of an atomic write leaves it, and nothing else ever will remove it.
 */
function isDeadWritersTemp(name: string): boolean {
  const m = /\.tmp-(\d+)-[0-9a-f]{8}$/.exec(name)
  if (!m) return false
  const pid = Number(m[1])
  if (pid === process.pid) return false
  return !isProcessAlive(pid) // a live writer's file is not ours to remove
}

/**
 * Writes the new content of `target` beside it (hidden, same directory) and returns its path.
 * @example const staged = await stageFile('/d/node-info.yaml', text)
 */
export async function stageFile(target: string, data: string | Uint8Array, mode = 0o644): Promise<string> {
  const staged = stagedPath(target)
  await writeFileDurable(staged, data, mode)
  return staged
}

/** A staged entry's name: hidden, beside its target. */
function stagedPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.tnv-stage-${randomBytes(4).toString('hex')}`)
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
  const staged = stagedPath(target)
  try {
    await fs.mkdir(staged, { mode })
    await fs.chmod(staged, mode)
    await Promise.all(files.map((f) => writeFileDurable(join(staged, f.name), f.data, f.mode)))
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
