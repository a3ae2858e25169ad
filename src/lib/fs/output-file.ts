/**
 * Files written at a path the operator names on the command line (`--out`, `--prometheus`,
 * `--mnemonic-out`, a Safe batch's `--out`, a delegation signature's `--out`). Each failure is one
 * paragraph that names that path (never the temporary file beside it) and what to do, with the
 * exit code docs/ci.md lists: a path of the wrong kind (a directory, a device or FIFO, a parent
 * that is a file) is bad input (3); a missing directory, a read-only or full file system and a
 * refused permission are the file system's (5). The write itself is writeFileAtomic's (or
 * writeNewFile's): on any failure the temporary file is removed and the target is unchanged.
 */
import { constants, promises as fs } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { TnvError } from '../errors.js'
import { writeNewFile } from '../keys/write-new-file.js'
import { writeFileAtomic } from './atomic.js'
import { FilesystemError, isErrnoError, WrongFileKindError } from './fs-errors.js'

/** The directory of an output file does not exist (a USB key not mounted, a collector not installed). */
export class OutputDirectoryMissingError extends FilesystemError {
  override readonly code: string = 'OutputDirectoryMissing'
  constructor(path: string, flag: string, dir: string) {
    super(
      'ENOENT',
      `${flag} ${path}: the directory ${dir} does not exist, so the file cannot be written there. Nothing was written.`,
      {
        fix: `Create it (mkdir -p ${dir}) or mount the disk it belongs on, or name a file in an existing directory, then run the command again.`,
      },
    )
  }
}

/** The output path names something that is not (or cannot become) a regular file. */
export class OutputPathKindError extends WrongFileKindError {
  override readonly code: string = 'OutputPathKind'
  constructor(path: string, flag: string, what: string) {
    super(`${flag} ${path} ${what}; tnv writes a regular file there. Nothing was written.`, {
      fix: `Name a file for ${flag} (for a file inside a directory: ${flag} DIR/NAME), then run the command again.`,
    })
  }
}

/** What is at `path`, as a phrase for the error, when it is not a regular file; undefined when it is one or absent. */
async function wrongKindAt(path: string): Promise<string | undefined> {
  const st = await fs.stat(path).catch(() => undefined)
  if (!st || st.isFile()) return undefined
  if (st.isDirectory()) return 'is an existing directory'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'is a device'
  if (st.isFIFO()) return 'is a FIFO (named pipe)'
  if (st.isSocket()) return 'is a socket'
  return 'is not a regular file'
}

/**
 * Checks, before any work, that a file can be written at `path`: it is a regular file or absent,
 * its directory exists and is a directory, and that directory accepts writes (access(2) W_OK,
 * which also reports a read-only file system). Throws the error the write would end in otherwise.
 * @throws OutputPathKindError (exit 3), OutputDirectoryMissingError or FilesystemError (exit 5)
 * @example await assertOutputPath('/var/lib/node_exporter/textfile_collector/tnv.prom', '--prometheus')
 */
export async function assertOutputPath(path: string, flag: string): Promise<void> {
  const abs = resolve(path)
  const kind = await wrongKindAt(abs)
  if (kind) throw new OutputPathKindError(abs, flag, kind)
  const dir = dirname(abs)
  const st = await fs.stat(dir).catch((err: unknown) => err)
  if (st instanceof Error) throw explainOutputError(st, abs, flag)
  if (!(st as { isDirectory(): boolean }).isDirectory())
    throw new OutputPathKindError(abs, flag, `is inside ${dir}, which is not a directory`)
  try {
    await fs.access(dir, constants.W_OK)
  } catch (err) {
    throw explainOutputError(err, abs, flag)
  }
}

/**
 * The operator-facing error for a failed write of the output file `path` (given as `flag`),
 * whatever file the OS named (the temporary one beside it, its directory).
 * @example catch (err) { throw explainOutputError(err, out, '--out') }
 */
export function explainOutputError(err: unknown, path: string, flag: string): TnvError | unknown {
  if (!isErrnoError(err)) return err
  const dir = dirname(path)
  const code = err.code
  const nothing = 'Nothing was written, and no temporary file is left behind.'
  switch (code) {
    case 'ENOENT':
      return new OutputDirectoryMissingError(path, flag, dir)
    case 'ENOTDIR':
      return new OutputPathKindError(path, flag, 'has a file where a directory belongs on its way')
    case 'EISDIR':
      return new OutputPathKindError(path, flag, 'is an existing directory')
    case 'ENOSPC':
    case 'EDQUOT':
      return new FilesystemError(code, `${flag} ${path}: the disk holding ${dir} is full (${code}). ${nothing}`, {
        cause: err,
        fix: `Free space there (df -h ${dir} shows how much is left), or name a file on another disk, then run the command again.`,
      })
    case 'EROFS':
      return new FilesystemError(code, `${flag} ${path}: ${dir} is on a read-only file system (${code}). ${nothing}`, {
        cause: err,
        fix: `Remount it read-write (or insert the medium unlocked), or name a file on a writable disk, then run the command again.`,
      })
    case 'EACCES':
    case 'EPERM':
      return new FilesystemError(code, `${flag} ${path}: permission denied to write in ${dir} (${code}). ${nothing}`, {
        cause: err,
        fix: `Run tnv as a user that may write there (ls -ld ${dir} shows the owner and mode), or name a file in a directory you own, then run the command again.`,
      })
    default:
      return new FilesystemError(code, `${flag} ${path}: the file system failed to write it (${code}). ${nothing}`, {
        cause: err,
        fix: 'Check the disk (dmesg shows I/O errors) and the path, then run the command again.',
      })
  }
}

export type WriteOutputFileParameters = {
  /** The flag the path came from, as the error names it (`--out`, `--prometheus`). */
  flag: string
  /** File mode. Default 0o644. */
  mode?: number
}

/**
 * Writes `data` at the operator's `path` atomically (writeFileAtomic), checking the path first
 * and explaining a failure with the path and the flag.
 * @example await writeOutputFile('/media/usb/batch.json', text, { flag: '--out' })
 */
export async function writeOutputFile(
  path: string,
  data: string | Uint8Array,
  { flag, mode = 0o644 }: WriteOutputFileParameters,
): Promise<void> {
  const abs = resolve(path)
  await assertOutputPath(abs, flag)
  try {
    await writeFileAtomic(abs, data, { mode })
  } catch (err) {
    throw explainOutputError(err, abs, flag)
  }
}

/**
 * Creates the operator's file `path`, which must not exist yet (a backup, a recovery phrase):
 * writeNewFile after the same checks, with the same explained failures.
 * @returns false when `path` exists already (nothing written)
 * @example if (!(await writeNewOutputFile(out, text, { flag: '--out', mode: 0o600 }))) throw new OutputFileExistsError(out, '--out')
 */
export async function writeNewOutputFile(
  path: string,
  data: string | Uint8Array,
  { flag, mode = 0o644 }: WriteOutputFileParameters,
): Promise<boolean> {
  const abs = resolve(path)
  await assertOutputPath(abs, flag)
  try {
    return await writeNewFile(abs, data, mode)
  } catch (err) {
    throw explainOutputError(err, abs, flag)
  }
}
