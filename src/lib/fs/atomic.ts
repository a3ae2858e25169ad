/**
 * Atomic, durable file writes: temp file in the same directory, write, fsync, rename over
 * the target, fsync the directory. A reader sees the old file or the new one, never half.
 */

import { randomBytes } from 'node:crypto'
import { constants, promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { assertDatadirPlace } from './fs-errors.js'

export type WriteFileAtomicParameters = {
  /** File mode of the new file (e.g. 0o600 for key files). Default 0o644. */
  mode?: number
}

/**
 * Writes `data` to `path` atomically.
 * @example await writeFileAtomic('/d/node-keys/bls.kw', text, { mode: 0o600 })
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  { mode = 0o644 }: WriteFileAtomicParameters = {},
): Promise<void> {
  const dir = dirname(path)
  const tmp = join(dir, `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
  await writeFileDurable(tmp, data, mode, path)
  try {
    await fs.rename(tmp, path)
  } catch (err) {
    await fs.rm(tmp, { force: true })
    throw err
  }
  await fsyncDir(dir)
}

/**
 * Creates `path` (it must not exist), writes `data`, makes the mode exact and fsyncs the file; a
 * failure removes it. No rename and no fsync of the directory: the caller makes the name durable
 * (writeFileAtomic renames it; a staged entry's directory is fsynced by commitFiles).
 * @example await writeFileDurable(join(stagedKeys, 'bls.kw'), text, 0o600)
 */
export async function writeFileDurable(
  path: string,
  data: string | Uint8Array,
  mode: number,
  /** The file the write is for, as fault injection names it (writeFileAtomic: its target). */
  target: string = path,
): Promise<void> {
  const fh = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode)
  try {
    await fh.chmod(mode) // umask may have narrowed it; make the mode exact
    faultPoint('write', target)
    await fh.writeFile(data)
    await fh.sync()
  } catch (err) {
    await fh.close().catch(() => {})
    await fs.rm(path, { force: true })
    throw err
  }
  await fh.close()
}

/** fsync a directory so a rename in it survives a crash. Best effort where unsupported. */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: fs.FileHandle | undefined
  try {
    fh = await fs.open(dir, constants.O_RDONLY)
    await fh.sync()
  } catch {
    // some platforms (Windows) cannot open or fsync a directory
  } finally {
    await fh?.close().catch(() => {})
  }
}

/** Creates `dir` (and parents) and sets its mode exactly (e.g. 0o700 for node-keys/). */
export async function ensureDir(dir: string, mode = 0o755): Promise<void> {
  // Node's recursive mkdir never returns under /proc: refuse such a place first
  if (!(await fs.stat(dir).catch(() => undefined))?.isDirectory()) await assertDatadirPlace(dir)
  await fs.mkdir(dir, { recursive: true, mode })
  await fs.chmod(dir, mode)
}

/** A timestamp safe for file names: 20261122T035112Z. */
export function fileTimestamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
}

export async function pathExists(path: string): Promise<boolean> {
  try {
    await fs.lstat(path)
    return true
  } catch {
    return false
  }
}

/**
 * Test hook for the "any failure leaves every file as it was" guarantee: multi-step writers
 * call `faultPoint('name')` between steps; when TNV_INJECT_FAULT names that step, it throws
 * (`name=ENOSPC` throws the file system's error with that code, as the OS would).
 * Inert unless the variable is set.
 */
export function faultPoint(name: string, path?: string): void {
  const want = process.env.TNV_INJECT_FAULT
  if (!want) return
  for (const entry of want.split(',')) {
    if (entry === name) throw new Error(`injected fault at ${name}`)
    // `name=ENOSPC`: the file system's own error, as the OS raises it (for the classification tests)
    if (entry.startsWith(`${name}=`)) {
      const code = entry.slice(name.length + 1)
      throw Object.assign(new Error(`${code}: injected at ${name}, write '${path ?? name}'`), {
        code,
        syscall: 'write',
        path: path ?? name,
        errno: -1,
      })
    }
  }
}

/**
 * Test hook for "a kill at any point": when TNV_KILL_AT names this point, the process kills
 * itself with SIGKILL right here (no finally block, no exit handler runs), as a power cut or
 * `kill -9` would. Tests then check the state a rerun finds. Inert unless the variable is set.
 */
export function killPoint(name: string): void {
  const want = process.env.TNV_KILL_AT
  if (want?.split(',').includes(name)) process.kill(process.pid, 'SIGKILL')
}
