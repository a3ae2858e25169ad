/**
 * The data directory's record of what proves its key can be restored: `<datadir>/tnv-backup.json`
 * (mode 0600, written atomically under the data directory's lock). Each proof names the BLS
 * public key it is about:
 * - `phrase-confirmed`: the operator re-typed chosen words of the phrase when the key was made
 *   (keytool generate --mnemonic on a terminal);
 * - `phrase-verified`: a phrase was shown to give this key (keytool backup verify --mnemonic-file);
 * - `backup-verified`: a backup file was restored into a private temporary directory and every
 *   check passed (keytool backup verify); it also holds the sha256 of the key file it restored,
 *   so a later `change-passphrase` (a new bls.kw) makes it stale: that backup still opens only
 *   with the old passphrase.
 * No secret is ever written here.
 */
import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'
import { BLS_KEY_FILE, BLS_KW_FILE, datadirPaths } from './datadir.js'

export const BACKUP_RECORD_FILE = 'tnv-backup.json'
/** Proofs kept (newest last). */
const MAX_PROOFS = 32

export type BackupProof =
  | {
      how: 'phrase-confirmed' | 'phrase-verified'
      /** 0x hex of the compressed public key. */
      blsPublicKey: string
      /** The derivation path the phrase gives this key on. */
      keyPath: string
      at: string
    }
  | {
      how: 'backup-verified'
      blsPublicKey: string
      keyFile: typeof BLS_KW_FILE | typeof BLS_KEY_FILE
      /** sha256 (hex) of the key file the backup restored. */
      keyFileSha256: string
      /** Where the backup was when it was verified, and the sha256 of its bytes. */
      backupFile: string
      backupSha256: string
      /** The registry check, when a network was given: the key the registry holds for the address. */
      registry: { chainId: number; address: string; registeredKey: string | null } | null
      at: string
    }

type BackupRecord = { version: 1; proofs: BackupProof[] }

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')

/** The record's proofs (none when there is no record or it is unreadable: nothing is proven then). */
export async function readBackupProofs(datadir: string): Promise<BackupProof[]> {
  const text = await fs.readFile(join(datadirPaths(datadir).datadir, BACKUP_RECORD_FILE), 'utf8').catch(() => undefined)
  if (text === undefined) return []
  try {
    const r = JSON.parse(text) as BackupRecord
    if (r.version !== 1 || !Array.isArray(r.proofs)) return []
    return r.proofs.filter((p) => typeof p?.blsPublicKey === 'string' && typeof p.how === 'string')
  } catch {
    return []
  }
}

/** Adds a proof (call holding the data directory's lock). */
export async function recordBackupProof(datadir: string, proof: BackupProof): Promise<string> {
  const path = join(datadirPaths(datadir).datadir, BACKUP_RECORD_FILE)
  const proofs = [...(await readBackupProofs(datadir)), proof].slice(-MAX_PROOFS)
  const record: BackupRecord = { version: 1, proofs }
  await writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 })
  return path
}

/** The data directory's key file (bls.kw, else bls.key) and the sha256 of its bytes, if any. */
export async function currentKeyFile(
  datadir: string,
): Promise<{ keyFile: typeof BLS_KW_FILE | typeof BLS_KEY_FILE; sha256: string } | null> {
  const paths = datadirPaths(datadir)
  for (const [keyFile, path] of [
    [BLS_KW_FILE, paths.blsKw],
    [BLS_KEY_FILE, paths.blsKey],
  ] as const) {
    const bytes = await fs.readFile(path).catch(() => undefined)
    if (bytes) return { keyFile, sha256: sha256Hex(bytes) }
  }
  return null
}

export type BackupStatus =
  | { ok: true; proof: BackupProof }
  | { ok: false; reason: string; stale?: BackupProof | undefined }

/**
 * Is the key `publicKey` (0x hex) of this data directory proven restorable? A phrase proof for
 * the key, or a verified backup of the key file the directory holds now.
 */
export async function backupStatus(datadir: string, publicKey: string): Promise<BackupStatus> {
  const key = publicKey.toLowerCase()
  const proofs = (await readBackupProofs(datadir)).filter((p) => p.blsPublicKey.toLowerCase() === key).reverse()
  const phrase = proofs.find((p) => p.how !== 'backup-verified')
  if (phrase) return { ok: true, proof: phrase }
  const backups = proofs.filter((p) => p.how === 'backup-verified')
  if (backups.length === 0)
    return {
      ok: false,
      reason: `no backup of the BLS key ${key.slice(0, 20)}… has been verified and no recovery phrase was confirmed for it (${BACKUP_RECORD_FILE} in ${datadirPaths(datadir).datadir} records none)`,
    }
  const current = await currentKeyFile(datadir)
  const fresh = backups.find((p) => p.how === 'backup-verified' && (!current || p.keyFileSha256 === current.sha256))
  if (fresh) return { ok: true, proof: fresh }
  return {
    ok: false,
    stale: backups[0],
    reason: `the verified backup of this key holds the key file as it was before it changed (a change-passphrase since?): that copy opens only with the old passphrase`,
  }
}
