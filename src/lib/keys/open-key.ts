/**
 * Opens the BLS secret of a data directory with a passphrase source, choosing the file as the
 * node does (real-network/node.md §1; the node's `KeyConfig::read_config`): `bls.kw` when it
 * exists and a passphrase is given, otherwise `bls.key`. So with both files, no-passphrase reads
 * bls.key and any passphrase reads bls.kw; with only bls.key, a given passphrase is not used
 * (`passphraseIgnored`, for a warning). Unlike the node, tnv does not demand a passphrase it
 * will not use: with only bls.key, source env without TN_BLS_PASSPHRASE and source ask open it
 * without one (docs/decisions.md).
 */
import { promises as fs, type Stats } from 'node:fs'
import { assertRegularFile } from '../fs/fs-errors.js'
import type { PassphraseSource } from '../options.js'
import {
  envPassphrasePresent,
  type PassphraseEnv,
  type PromptIo,
  readPassphrase,
} from '../passphrase/read-passphrase.js'
import type { StdinLines } from '../passphrase/stdin-lines.js'
import { assertBlsSecret } from './bls.js'
import { parseBlsKey } from './bls-key.js'
import { decryptBlsKw, KW_LENGTH } from './bls-kw.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'
import { KeyFileCorruptError, KeyFileEncryptedError, KeyFileMissingError, WrongPassphraseError } from './errors.js'

export type OpenBlsKeyParameters = {
  datadir: string
  source: PassphraseSource
  stdin?: StdinLines
  io?: PromptIo
  /** The passphrase variables the session hands over (src/cli/session.ts `passphraseEnv`); read by source env only. */
  env: PassphraseEnv
}

export type OpenBlsKeyReturnType = {
  /** 32-byte secret. Zero it when done. */
  secret: Uint8Array
  /** The key file that was opened. */
  path: string
  encrypted: boolean
  /** PBKDF2 iterations that opened bls.kw. 1 means a weak build wrote it: warn and re-wrap (change-passphrase). */
  iterations?: number
  /** A passphrase was given, but only the unencrypted bls.key exists, so it was not used (as the node does). */
  passphraseIgnored?: boolean
}

/** A key file is a few dozen bytes; anything larger is not one (and is not decoded). */
const MAX_KEY_FILE_BYTES = 4096

/**
 * @throws DatadirMissingError, KeyFileMissingError, KeyFileEncryptedError,
 *   KeyFileCorruptError, WrongPassphraseError, and the passphrase source's errors
 * @example const { secret } = await openBlsKey({ datadir, source: 'env', env: session.passphraseEnv('env') })
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
    return openPlain(plain, paths.blsKey, false)
  }
  if (kw === undefined) {
    // Only bls.key: the node reads it whatever passphrase it was given.
    let given = false
    if (source === 'env') given = envPassphrasePresent(env)
    else if (source === 'stdin' && stdin && !stdin.isTTY) {
      // one line per passphrase: consume this command's line even though it is not needed
      given = (await readPassphrase({ source, purpose: 'open', required: false, stdin, env })) !== undefined
    }
    return openPlain(plain as string, paths.blsKey, given)
  }
  // at a hidden prompt a typo gets another try; a source without a person (env, stdin) gets one
  const tries = source === 'ask' ? ASK_PASSPHRASE_TRIES : 1
  for (let attempt = 1; ; attempt++) {
    const passphrase = await readPassphrase({
      source,
      purpose: 'open',
      ...(stdin ? { stdin } : {}),
      ...(io ? { io } : {}),
      env,
    })
    const opened = await decryptBlsKw(kw, passphrase ?? '')
    if (opened.ok || opened.reason !== 'authentication' || attempt >= tries) return openedKw(opened, paths.blsKw, tries)
    io?.say?.(`That passphrase does not open ${paths.blsKw}. Try again (${tries - attempt} left).`)
  }
}

/** How often the hidden prompt asks for the passphrase of an existing key before it gives up. */
export const ASK_PASSPHRASE_TRIES = 3

function openedKw(opened: Awaited<ReturnType<typeof decryptBlsKw>>, path: string, tries: number): OpenBlsKeyReturnType {
  const paths = { blsKw: path }
  if (!opened.ok) {
    if (opened.reason === 'not-base58')
      throw new KeyFileCorruptError(
        paths.blsKw,
        'Could not decrypt BLS key: keyfile is truncated or corrupt (it is not base58 text)',
      )
    if (opened.reason === 'length')
      throw new KeyFileCorruptError(
        paths.blsKw,
        `Could not decrypt BLS key: keyfile is truncated or corrupt (it holds ${opened.length} bytes instead of ${KW_LENGTH}: salt 12 + nonce 12 + ciphertext 48)`,
      )
    throw new WrongPassphraseError(paths.blsKw, tries)
  }
  checkSecret(opened.secret, paths.blsKw)
  return { secret: opened.secret, path: paths.blsKw, encrypted: true, iterations: opened.iterations }
}

function openPlain(text: string, path: string, passphraseIgnored: boolean): OpenBlsKeyReturnType {
  const parsed = parseBlsKey(text)
  if (!parsed.ok) throw new KeyFileCorruptError(path, parsed.reason)
  checkSecret(parsed.secret, path)
  return { secret: parsed.secret, path, encrypted: false, ...(passphraseIgnored ? { passphraseIgnored: true } : {}) }
}

function checkSecret(secret: Uint8Array, path: string): void {
  try {
    assertBlsSecret(secret)
  } catch {
    throw new KeyFileCorruptError(
      path,
      'invalid bls private key bytes! (the secret it holds is not a valid BLS12-381 secret key)',
    )
  }
}

export async function readIfExists(path: string): Promise<string | undefined> {
  let stat: Stats
  try {
    stat = await fs.stat(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  // a directory, device or FIFO named bls.kw is refused before reading
  assertRegularFile(path, stat, 'a BLS key file')
  if (stat.size > MAX_KEY_FILE_BYTES)
    throw new KeyFileCorruptError(path, `it is ${stat.size} bytes long, far larger than any key file`)
  const text = await fs.readFile(path, 'utf8')
  if (text.length > MAX_KEY_FILE_BYTES)
    throw new KeyFileCorruptError(path, `it is longer than ${MAX_KEY_FILE_BYTES} bytes, far larger than any key file`)
  return text
}
