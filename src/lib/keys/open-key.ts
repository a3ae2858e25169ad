/**
 * Opens the BLS secret of a data directory with a passphrase source: bls.kw with a passphrase,
 * or bls.key with no-passphrase (reference-facts: Encrypted key file).
 */
import { promises as fs } from 'node:fs'
import type { PassphraseSource } from '../flags.js'
import { type PromptIo, readPassphrase } from '../passphrase/read-passphrase.js'
import type { StdinLines } from '../passphrase/stdin-lines.js'
import { assertBlsSecret } from './bls.js'
import { parseBlsKey } from './bls-key.js'
import { decryptBlsKw, KW_LENGTH } from './bls-kw.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'
import {
  KeyFileCorruptError,
  KeyFileEncryptedError,
  KeyFileMissingError,
  KeyFileUnencryptedError,
  WrongPassphraseError,
} from './errors.js'

export type OpenBlsKeyParameters = {
  datadir: string
  source: PassphraseSource
  stdin?: StdinLines
  io?: PromptIo
  env?: NodeJS.ProcessEnv
}

export type OpenBlsKeyReturnType = {
  /** 32-byte secret. Zero it when done. */
  secret: Uint8Array
  /** The key file that was opened. */
  path: string
  encrypted: boolean
  /** PBKDF2 iterations that opened bls.kw. 1 means a weak build wrote it: warn and re-wrap (change-passphrase). */
  iterations?: number
}

/**
 * @throws DatadirMissingError, KeyFileMissingError, KeyFileEncryptedError, KeyFileUnencryptedError,
 *   KeyFileCorruptError, WrongPassphraseError, and the passphrase source's errors
 * @example const { secret } = await openBlsKey({ datadir, source: 'env' })
 */
export async function openBlsKey({
  datadir,
  source,
  stdin,
  io,
  env,
}: OpenBlsKeyParameters): Promise<OpenBlsKeyReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const [kw, plain] = await Promise.all([readIfExists(paths.blsKw), readIfExists(paths.blsKey)])
  if (kw === undefined && plain === undefined) throw new KeyFileMissingError(paths.nodeKeys)

  if (source === 'no-passphrase') {
    if (plain === undefined) throw new KeyFileEncryptedError(paths.blsKw)
    const parsed = parseBlsKey(plain)
    if (!parsed.ok) throw new KeyFileCorruptError(paths.blsKey, parsed.reason)
    checkSecret(parsed.secret, paths.blsKey)
    return { secret: parsed.secret, path: paths.blsKey, encrypted: false }
  }
  if (kw === undefined) throw new KeyFileUnencryptedError(paths.blsKey)
  const passphrase = await readPassphrase({
    source,
    purpose: 'open',
    ...(stdin ? { stdin } : {}),
    ...(io ? { io } : {}),
    ...(env ? { env } : {}),
  })
  const opened = await decryptBlsKw(kw, passphrase ?? '')
  if (!opened.ok) {
    if (opened.reason === 'not-base58') throw new KeyFileCorruptError(paths.blsKw, 'it is not base58 text')
    if (opened.reason === 'length')
      throw new KeyFileCorruptError(
        paths.blsKw,
        `it holds ${opened.length} bytes instead of ${KW_LENGTH} (salt 12 + nonce 12 + ciphertext 48), so it was truncated or altered`,
      )
    throw new WrongPassphraseError(paths.blsKw)
  }
  checkSecret(opened.secret, paths.blsKw)
  return { secret: opened.secret, path: paths.blsKw, encrypted: true, iterations: opened.iterations }
}

function checkSecret(secret: Uint8Array, path: string): void {
  try {
    assertBlsSecret(secret)
  } catch {
    throw new KeyFileCorruptError(path, 'the secret it holds is not a valid BLS12-381 secret key')
  }
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await fs.readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}
