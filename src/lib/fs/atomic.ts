/**
 * Atomic, durable file writes: temp file in the same directory, write, fsync, rename over
 * the target, fsync the directory. A reader sees the old file or the new one, never half.
 */
import { randomBytes } from 'node:crypto'
import { constants, promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'

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
  const fh = await fs.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode)
  try {
    await fh.writeFile(data)
    await fh.chmod(mode) // umask may have narrowed or widened nothing; make the mode exact
    await fh.sync()
  } catch (err) {
    await fh.close().catch(() => {})
    await fs.rm(tmp, { force: true })
    throw err
  }
  await fh.close()
  try {
    await fs.rename(tmp, path)
  } catch (err) {
    await fs.rm(tmp, { force: true })
    throw err
  }
  await fsyncDir(dir)
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
 * call `faultPoint('name')` between steps; when TNV_INJECT_FAULT names that step, it throws.
 * Inert unless the variable is set.
 */
export function faultPoint(name: string): void {
  const want = process.env.TNV_INJECT_FAULT
  if (want?.split(',').includes(name)) throw new Error(`injected fault at ${name}`)
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
