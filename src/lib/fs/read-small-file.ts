/**
 * Reads a small file a user named (a keystore, a JWT secret file, a delegation signature file):
 * it must be a regular file (a device such as /dev/zero, a FIFO or a directory is refused before
 * it is opened: its read would not end) of at most `maxBytes`, and it is read with a bounded
 * buffer, so a file that grows meanwhile cannot make the read unbounded either.
 */
import { promises as fs } from 'node:fs'
import { assertRegularFile, NamedFileMissingError, WrongFileKindError } from './fs-errors.js'

export type ReadSmallFileParameters = {
  /** What the file should be, for messages ("a keystore"). */
  what: string
  maxBytes: number
  /** A missing file is NamedFileMissingError (for callers with no error of their own for it). */
  explainMissing?: boolean
}

/**
 * @throws NamedFileMissingError (nothing there, with explainMissing), WrongFileKindError (not a
 * regular file, or larger than maxBytes), and the OS's other errors
 * @example const text = await readSmallFile('/etc/tn/jwt.hex', { what: 'a JWT secret file', maxBytes: 4096 })
 */
export async function readSmallFile(
  path: string,
  { what, maxBytes, explainMissing = false }: ReadSmallFileParameters,
): Promise<string> {
  const stat = await fs.stat(path).catch((err: NodeJS.ErrnoException) => {
    throw explainMissing && err.code === 'ENOENT' ? new NamedFileMissingError(path, what, err) : err
  })
  assertRegularFile(path, stat, what)
  const tooLarge = () =>
    new WrongFileKindError(`${path} is larger than ${maxBytes} bytes, far larger than ${what}. Nothing was read.`, {
      fix: `Point the flag at ${what} itself.`,
    })
  if (stat.size > maxBytes) throw tooLarge()
  const fh = await fs.open(path, 'r')
  try {
    const buffer = Buffer.alloc(maxBytes + 1)
    let length = 0
    for (;;) {
      const { bytesRead } = await fh.read(buffer, length, buffer.length - length, null)
      if (bytesRead === 0) break
      length += bytesRead
      if (length > maxBytes) throw tooLarge()
    }
    return buffer.subarray(0, length).toString('utf8')
  } finally {
    await fh.close()
  }
}
