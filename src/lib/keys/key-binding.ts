/**
 * Is the key on disk the key in node-info.yaml? Staking the public key of node-info.yaml while
 * node-keys/ holds another key would register a key whose secret the operator does not hold.
 *
 * Opening bls.kw needs the passphrase, so the check avoids decrypting where it can:
 * - no node-keys/ key file: nothing to compare (key material given elsewhere, e.g. a multisig);
 * - bls.key (unencrypted): its public key is derived and compared;
 * - bls.kw: tnv records, beside the keys, which public key that exact file holds
 *   (`<datadir>/tnv-keys.json`: the public key and the sha256 of the key file), written in the
 *   same commit as the keys by `keytool generate` and `change-passphrase`, and again whenever a
 *   command opens the key with its passphrase (verify, generate pop, the adiri proof). When the
 *   record matches the file, the record's public key is compared. Without one (keys the node's
 *   own keytool wrote), the key is opened when the command can get the passphrase (the caller's
 *   `open`), else the check is `unknown` and the caller refuses with how to record it.
 */

import { hash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'
import type { PassphraseSource } from '../options.js'
import { PASSPHRASE_ENV, type PassphraseEnv } from '../passphrase/env-var.js'
import type { PromptIo } from '../passphrase/read-passphrase.js'
import type { StdinLines } from '../passphrase/stdin-lines.js'
import { BLS_KEY_FILE, BLS_KW_FILE, datadirPaths } from './datadir.js'
import { KeyOnDiskMismatchError, KeyOnDiskUncheckedError } from './errors.js'

export const KEY_BINDING_FILE = 'tnv-keys.json'

export type KeyBinding = {
  version: 1
  /** 0x hex of the compressed public key the key file holds. */
  blsPublicKey: string
  keyFile: typeof BLS_KW_FILE | typeof BLS_KEY_FILE
  /** sha256 (hex) of the key file's bytes. */
  sha256: string
  recordedAt: string
}

export type KeyCheck =
  | { status: 'match'; how: 'derived' | 'record' | 'opened' }
  | { status: 'absent' }
  /** bls.kw without a record for its exact bytes: only the passphrase can tell. */
  | { status: 'unknown'; keyFile: string }
  | { status: 'mismatch'; onDisk: Uint8Array; keyFile: string; how: 'derived' | 'record' | 'opened' }

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`
const sha256 = (data: string | Uint8Array) => hash('sha256', data)

/** The record's text for a key file (for a commit to write it with the keys). */
export function keyBindingText(publicKey: Uint8Array, keyFile: KeyBinding['keyFile'], keyFileText: string): string {
  const record: KeyBinding = {
    version: 1,
    blsPublicKey: hex(publicKey),
    keyFile,
    sha256: sha256(keyFileText),
    recordedAt: new Date().toISOString(),
  }
  return `${JSON.stringify(record, null, 2)}\n`
}

/** A small file's text, or undefined when it is not there (read synchronously). */
async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

async function readRecord(datadir: string): Promise<KeyBinding | null> {
  const text = await readIfExists(join(datadir, KEY_BINDING_FILE))
  if (text === undefined) return null
  try {
    const r = JSON.parse(text) as KeyBinding
    return r.version === 1 && typeof r.blsPublicKey === 'string' && typeof r.sha256 === 'string' ? r : null
  } catch {
    return null
  }
}

/**
 * Records which public key the data directory's current key file holds, after the key was opened
 * (so its public key is known). Called holding the data directory's lock.
 */
export async function recordKeyBinding(datadir: string, publicKey: Uint8Array): Promise<void> {
  const paths = datadirPaths(datadir)
  const kw = await readIfExists(paths.blsKw)
  const file = kw !== undefined ? BLS_KW_FILE : BLS_KEY_FILE
  const text = kw ?? (await readIfExists(paths.blsKey))
  if (text === undefined) return
  const current = await readRecord(paths.datadir)
  if (current?.sha256 === sha256(text) && current.blsPublicKey === hex(publicKey)) return
  await writeFileAtomic(join(paths.datadir, KEY_BINDING_FILE), keyBindingText(publicKey, file, text), { mode: 0o600 })
}

/**
 * @param open opens the key and returns its public key, when the command can get the passphrase
 *   without more ado (it is given, or a terminal can ask); called only when nothing else tells
 * @example const check = await checkKeyOnDisk(datadir, info.blsPublicKey)
 */
export async function checkKeyOnDisk(
  datadir: string,
  nodeInfoKey: Uint8Array,
  open?: () => Promise<Uint8Array>,
): Promise<KeyCheck> {
  const paths = datadirPaths(datadir)
  const [kw, plain] = await Promise.all([readIfExists(paths.blsKw), readIfExists(paths.blsKey)])
  const verdict = (onDisk: Uint8Array, keyFile: string, how: 'derived' | 'record' | 'opened'): KeyCheck =>
    Buffer.compare(Buffer.from(onDisk), Buffer.from(nodeInfoKey)) === 0
      ? { status: 'match', how }
      : { status: 'mismatch', onDisk, keyFile, how }
  if (kw === undefined && plain === undefined) return { status: 'absent' }
  if (kw === undefined) {
    // unencrypted: the public key costs one G2 multiplication
    const [{ parseBlsKey }, { blsPublicKey }] = await Promise.all([import('./bls-key.js'), import('./bls.js')])
    const parsed = parseBlsKey(plain as string)
    if (!parsed.ok) return { status: 'unknown', keyFile: paths.blsKey }
    try {
      return verdict(blsPublicKey(parsed.secret), paths.blsKey, 'derived')
    } finally {
      parsed.secret.fill(0)
    }
  }
  const record = await readRecord(paths.datadir)
  if (record && record.keyFile === BLS_KW_FILE && record.sha256 === sha256(kw))
    return verdict(Buffer.from(record.blsPublicKey.slice(2), 'hex'), paths.blsKw, 'record')
  if (open) return verdict(await open(), paths.blsKw, 'opened')
  return { status: 'unknown', keyFile: paths.blsKw }
}

export type AssertKeyOnDiskParameters = {
  datadir: string
  /** node-info.yaml's public key. */
  nodeInfoKey: Uint8Array
  /** How this command gets the BLS passphrase, should the key have to be opened. */
  source: PassphraseSource
  stdin?: StdinLines | undefined
  io?: PromptIo | undefined
  /** The passphrase variables the session hands over (src/cli/session.ts `passphraseEnv`). */
  env: PassphraseEnv
}

/**
 * Refuses when node-keys/ holds another key than node-info.yaml records (KeyOnDiskMismatch),
 * or when that cannot be told without a passphrase the command does not have
 * (KeyOnDiskUnchecked). The key is opened only when tnv has no record of its public key and the
 * passphrase is at hand (given in the environment or on stdin, or a terminal can ask).
 * @returns how it was told ('absent': no key file, nothing to compare)
 */
export async function assertKeyOnDisk({
  datadir,
  nodeInfoKey,
  source,
  stdin,
  io,
  env,
}: AssertKeyOnDiskParameters): Promise<KeyCheck['status']> {
  const canOpen =
    (source === 'env' && Boolean(env[PASSPHRASE_ENV])) ||
    (source === 'stdin' && stdin !== undefined) ||
    (source === 'ask' && io?.isTTY === true)
  const check = await checkKeyOnDisk(
    datadir,
    nodeInfoKey,
    canOpen
      ? async () => {
          const [{ openBlsKey }, { blsPublicKey }] = await Promise.all([import('./open-key.js'), import('./bls.js')])
          const key = await openBlsKey({ datadir, source, ...(stdin ? { stdin } : {}), ...(io ? { io } : {}), env })
          try {
            const pub = blsPublicKey(key.secret)
            await recordKeyBinding(datadir, pub)
            return pub
          } finally {
            key.secret.fill(0)
          }
        }
      : undefined,
  )
  if (check.status === 'mismatch')
    throw new KeyOnDiskMismatchError({ datadir, nodeInfoKey, onDisk: check.onDisk, keyFile: check.keyFile })
  if (check.status === 'unknown') throw new KeyOnDiskUncheckedError({ datadir, keyFile: check.keyFile })
  return check.status
}
