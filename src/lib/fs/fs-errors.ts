/**
 * File-system failures an operator can fix, as one paragraph each: a full disk, a read-only
 * file system, a permission, a directory where a file belongs (or the reverse), a device or a
 * FIFO where a file belongs, a data directory on a file system that cannot hold one (/proc,
 * /sys). The environment's faults (space, read-only, permission, I/O) exit with
 * ExitCode.Filesystem (5); a path that names the wrong kind of thing is bad input (3).
 * Nothing here ever carries file contents.
 */
import { realpathSync, type Stats, statfsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { BadInputError, ExitCode, TnvError, type TnvErrorOptions } from '../errors.js'

/** The OS refused a read or write for a reason outside tnv (space, read-only, permission, I/O). */
export class FilesystemError extends TnvError {
  override readonly code: string = 'Filesystem'
  readonly errno: string
  constructor(errno: string, message: string, options: TnvErrorOptions = {}) {
    super(message, { exitCode: ExitCode.Filesystem, ...options })
    this.errno = errno
  }
}

/** A path names the wrong kind of thing: a directory for a file, a file for a directory, a device or FIFO. */
export class WrongFileKindError extends BadInputError {
  override readonly code: string = 'WrongFileKind'
  constructor(message: string, options: TnvErrorOptions = {}) {
    super(message, options)
  }
}

/** A file the user named is not there. */
export class NamedFileMissingError extends BadInputError {
  override readonly code: string = 'NamedFileMissing'
  constructor(path: string, what: string, cause?: unknown) {
    super(`${path} does not exist: tnv expected ${what} there. Nothing was read or changed.`, {
      fix: 'Check the path (a relative path is taken from the current directory) and run the command again.',
      ...(cause === undefined ? {} : { cause }),
    })
  }
}

/** A data directory asked for on a file system that cannot hold one (/proc, /sys, devices). */
export class DatadirPlaceError extends BadInputError {
  override readonly code: string = 'DatadirPlace'
  constructor(datadir: string, why: string) {
    super(`${datadir} cannot be a data directory: ${why}. Nothing was created or written.`, {
      fix: 'Pass --datadir <dir> naming a directory on a disk file system, e.g. ~/.local/share/telcoin-network.',
    })
  }
}

const SPACE = new Set(['ENOSPC', 'EDQUOT'])
const READ_ONLY = new Set(['EROFS'])
const PERMISSION = new Set(['EACCES', 'EPERM'])
const IO = new Set(['EIO', 'EMFILE', 'ENFILE', 'ENAMETOOLONG', 'EFBIG', 'EXDEV', 'EBUSY', 'ETXTBSY'])

type Errno = NodeJS.ErrnoException & { code: string }

/** Whether `err` is a Node system error from the file system (has an errno code and usually a path). */
export function isErrnoError(err: unknown): err is Errno {
  return (
    err instanceof Error &&
    typeof (err as NodeJS.ErrnoException).code === 'string' &&
    typeof (err as NodeJS.ErrnoException).syscall === 'string'
  )
}

/**
 * The operator-facing error for a file-system failure, or undefined when `err` is not one tnv
 * can explain (the caller then reports it as unexpected).
 * @example throw explainFsError(err) ?? err
 */
export function explainFsError(err: unknown): TnvError | undefined {
  if (err instanceof TnvError) return err
  if (!isErrnoError(err)) return undefined
  const code = err.code
  const path = err.path ?? (err as { dest?: string }).dest ?? 'a file'
  const what = `${err.syscall ?? 'access'} ${path}`
  const common = { cause: err }
  if (SPACE.has(code))
    return new FilesystemError(
      code,
      `The disk is full (${code}): tnv could not write ${path}. Files are written whole or not at all, so what was there before is unchanged.`,
      { ...common, fix: 'Free space on that file system (`df -h` shows which), then run the command again.' },
    )
  if (READ_ONLY.has(code))
    return new FilesystemError(
      code,
      `${path} is on a read-only file system (${code}): tnv cannot write there. Nothing was changed.`,
      {
        ...common,
        fix: 'Remount it read-write, or point --datadir (or the path you gave) at a writable directory, then run the command again.',
      },
    )
  if (PERMISSION.has(code))
    return new FilesystemError(code, `Permission denied (${code}) to ${what}. Nothing was changed.`, {
      ...common,
      fix: 'Run tnv as the user that owns the data directory (`ls -ld` on the path shows the owner and mode), or point --datadir at a directory you own.',
    })
  if (code === 'EISDIR')
    return new WrongFileKindError(`${path} is a directory, where tnv expects a file (${code} on ${err.syscall}).`, {
      ...common,
      fix: 'Remove or rename that directory, or point the flag at the file itself (for --node-info: the file or the data directory that holds node-info.yaml).',
    })
  if (code === 'ENOTDIR')
    return new WrongFileKindError(
      `A part of ${path} is a file, where tnv expects a directory (${code} on ${err.syscall}).`,
      { ...common, fix: 'Check the path (--datadir names a directory) and run the command again.' },
    )
  if (code === 'ELOOP')
    return new WrongFileKindError(`${path} is a symbolic link loop (${code}).`, {
      ...common,
      fix: 'Replace the link with the real file or directory.',
    })
  if (IO.has(code))
    return new FilesystemError(code, `The file system failed to ${what} (${code}). Nothing was changed.`, {
      ...common,
      fix: 'Check the disk and the path (`dmesg` shows I/O errors), then run the command again.',
    })
  return undefined
}

/**
 * Refuses a path that is not a regular file (a device such as /dev/zero, a FIFO, a socket, a
 * directory) before it is read, so a read never runs without end.
 * @throws WrongFileKindError
 */
export function assertRegularFile(path: string, stat: Stats, what: string): void {
  if (stat.isFile()) return
  const kind = stat.isDirectory()
    ? 'a directory'
    : stat.isCharacterDevice() || stat.isBlockDevice()
      ? 'a device'
      : stat.isFIFO()
        ? 'a FIFO (named pipe)'
        : stat.isSocket()
          ? 'a socket'
          : 'not a regular file'
  throw new WrongFileKindError(`${path} is ${kind}, not a regular file, so it cannot be ${what}. Nothing was read.`, {
    fix: `Point the flag at ${what} itself (a regular file), or replace what is at that path with it.`,
  })
}

/** fs.statSync, or undefined when the path cannot be stat'ed (missing, unreadable on the way). */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/**
 * File systems that cannot hold a data directory (statfs f_type, Linux magic numbers): proc,
 * sysfs, devtmpfs / devpts, cgroup 1 and 2, debugfs, tracefs, securityfs, configfs, pstore,
 * bpf, efivarfs. Node's recursive mkdir spins forever under /proc, so this is checked first.
 */
const PSEUDO_FS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x62656570, 'configfs'],
  [0x6165676c, 'pstore'],
  [0xcafe4a11, 'bpf'],
  [0xde5e81e4, 'efivarfs'],
])
/** Top-level trees that never hold user data, refused by name where statfs is not available (/dev/shm is tmpfs: allowed). */
const PSEUDO_ROOTS = ['/proc', '/sys', '/dev']
const ALLOWED_UNDER_ROOTS = ['/dev/shm']

/**
 * Checks that `datadir` can be (or is) a data directory before anything is created: its nearest
 * existing ancestor must be a directory on a disk file system, not /proc, /sys or /dev.
 * @throws DatadirPlaceError
 * @example await assertDatadirPlace('/proc/sys/x') // throws
 */
export async function assertDatadirPlace(datadir: string): Promise<void> {
  const abs = resolve(datadir)
  let existing = abs
  // synchronous: a few small calls, one after another
  for (;;) {
    if (statOrUndefined(existing)) break
    const parent = dirname(existing)
    if (parent === existing) return
    existing = parent
  }
  let real = existing
  try {
    real = realpathSync.native(existing)
  } catch {
    // unreadable on the way: judged by the path as given
  }
  const allowed = ALLOWED_UNDER_ROOTS.some((a) => real === a || real.startsWith(`${a}/`))
  for (const root of PSEUDO_ROOTS)
    if (!allowed && (real === root || real.startsWith(`${root}/`)))
      throw new DatadirPlaceError(datadir, `it is under ${root}, a kernel file system, not a disk`)
  let statfs: { type: number | bigint } | undefined
  try {
    statfs = statfsSync(real)
  } catch {
    statfs = undefined
  }
  const name = statfs ? PSEUDO_FS.get(Number(statfs.type)) : undefined
  if (name) throw new DatadirPlaceError(datadir, `${real} is on a ${name} file system, not a disk`)
}
