/**
 * The signer choice the wizard remembers per data directory, `<datadir>/tnv-signer.json`: which
 * kind of signer was chosen on a terminal and, for a keystore, its path (for a hardware wallet, the
 * account index; for the offline path, the bundle it last wrote). Never a secret: no key, no password. Written atomically with mode 0600; a file
 * that cannot be read or parsed is ignored (the wizard asks as if nothing were remembered).
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'

export const SIGNER_CHOICE_FILE = 'tnv-signer.json'

export type SignerKind = 'key' | 'keystore' | 'unsigned' | 'ledger' | 'trezor' | 'offline'

export type SignerChoice =
  | { kind: 'key' | 'unsigned' }
  | { kind: 'keystore'; keystore: string }
  | { kind: 'ledger' | 'trezor'; index: number }
  /** The funding key is on an offline machine (docs/offline.md); `bundle`: the absolute path of the last bundle written. */
  | { kind: 'offline'; bundle?: string | undefined }

const KINDS: readonly SignerKind[] = ['key', 'keystore', 'unsigned', 'ledger', 'trezor', 'offline']

/** The remembered choice, or null when there is none (or the file is not one tnv wrote). */
export async function readSignerChoice(datadir: string): Promise<SignerChoice | null> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await fs.readFile(join(datadir, SIGNER_CHOICE_FILE), 'utf8'))
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const { kind, keystore, index, bundle } = parsed as {
    kind?: unknown
    keystore?: unknown
    index?: unknown
    bundle?: unknown
  }
  if (typeof kind !== 'string' || !KINDS.includes(kind as SignerKind)) return null
  if (kind === 'keystore') return typeof keystore === 'string' && keystore !== '' ? { kind, keystore } : null
  if (kind === 'ledger' || kind === 'trezor')
    return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? { kind, index } : null
  if (kind === 'offline') return typeof bundle === 'string' && bundle !== '' ? { kind, bundle } : { kind }
  return { kind: kind as 'key' | 'unsigned' }
}

/**
 * Records the choice when the data directory exists (it is never created here). Only the fields
 * of SignerChoice are written, so nothing secret can reach the file.
 */
export async function rememberSignerChoice(datadir: string, choice: SignerChoice): Promise<void> {
  try {
    if (!(await fs.stat(datadir)).isDirectory()) return
  } catch {
    return
  }
  const record =
    choice.kind === 'keystore'
      ? { kind: choice.kind, keystore: choice.keystore }
      : choice.kind === 'ledger' || choice.kind === 'trezor'
        ? { kind: choice.kind, index: choice.index }
        : choice.kind === 'offline'
          ? { kind: choice.kind, ...(choice.bundle !== undefined ? { bundle: choice.bundle } : {}) }
          : { kind: choice.kind }
  await writeFileAtomic(join(datadir, SIGNER_CHOICE_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 })
}
