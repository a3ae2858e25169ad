/**
 * The key backup file `keytool backup` writes: one JSON document holding, byte for byte, the data
 * directory's node-info.yaml and every file of node-keys/ (bls.kw, still encrypted under its
 * passphrase; the seed files), with their modes, the public key and address they belong to, and
 * an integrity check: the sha256 of the document's canonical text (every field but `sha256`, in
 * the order written). No second secret is added: the key's own AES-GCM-SIV tag already proves,
 * when the passphrase opens it, that the key was not changed, and `backup verify` checks the rest
 * (public key, proof of possession, network keys) against the key. The sha256 catches truncation
 * and damage before any of that, and names it.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { readNodeInfo } from '../nodeinfo/read.js'
import type { Hex } from '../nodeinfo/types.js'
import { NODE_INFO_FILE } from '../nodeinfo/types.js'
import { sha256Hex } from './backup-record.js'
import { BLS_KEY_FILE, BLS_KW_FILE, datadirPaths, NODE_KEYS_DIR } from './datadir.js'
import { KeyFileMissingError } from './errors.js'
import { BackupFileError } from './recovery-errors.js'

export const BACKUP_FORMAT = 'tnv-key-backup'
/** A backup is a few KiB; anything larger is not one (and is not parsed). */
export const MAX_BACKUP_BYTES = 1024 * 1024
/** node-info.yaml, or a plain file name in node-keys/. */
const ENTRY_PATH = new RegExp(
  `^(${NODE_INFO_FILE.replace('.', '\\.')}|${NODE_KEYS_DIR}/[A-Za-z0-9][A-Za-z0-9._-]{0,63})$`,
)

export type BackupEntry = { path: string; mode: number; base64: string }

export type KeyBackup = {
  format: typeof BACKUP_FORMAT
  version: 1
  createdAt: string
  /** 0x hex of node-info.yaml's BLS public key. */
  blsPublicKey: Hex
  executionAddress: Hex
  /** The key file it holds: bls.kw (encrypted) or bls.key (plain). */
  keyFile: typeof BLS_KW_FILE | typeof BLS_KEY_FILE
  files: BackupEntry[]
  sha256: string
}

/** The text the integrity check covers: every field but sha256, in a fixed order. */
function canonical(b: Omit<KeyBackup, 'sha256'>): string {
  return JSON.stringify({
    format: b.format,
    version: b.version,
    createdAt: b.createdAt,
    blsPublicKey: b.blsPublicKey,
    executionAddress: b.executionAddress,
    keyFile: b.keyFile,
    files: b.files.map((f) => ({ path: f.path, mode: f.mode, base64: f.base64 })),
  })
}

/**
 * Reads a data directory into a backup document (text, ending in a newline).
 * @throws NodeInfoMissingError and the other node-info errors, KeyFileMissingError
 */
export async function makeBackup(datadir: string): Promise<{ text: string; backup: KeyBackup }> {
  const paths = datadirPaths(datadir)
  const { info } = await readNodeInfo(paths.datadir)
  const names = (await fs.readdir(paths.nodeKeys).catch((): string[] => [])).sort()
  const files: BackupEntry[] = []
  const add = async (path: string, rel: string) => {
    const [bytes, stat] = await Promise.all([fs.readFile(path), fs.stat(path)])
    files.push({ path: rel, mode: stat.mode & 0o777, base64: bytes.toString('base64') })
  }
  await add(paths.nodeInfo, NODE_INFO_FILE)
  for (const name of names) {
    const path = join(paths.nodeKeys, name)
    if (!(await fs.stat(path)).isFile() || !ENTRY_PATH.test(`${NODE_KEYS_DIR}/${name}`)) continue
    await add(path, `${NODE_KEYS_DIR}/${name}`)
  }
  const keyFile = names.includes(BLS_KW_FILE) ? BLS_KW_FILE : names.includes(BLS_KEY_FILE) ? BLS_KEY_FILE : undefined
  if (!keyFile) throw new KeyFileMissingError(paths.nodeKeys)
  const body: Omit<KeyBackup, 'sha256'> = {
    format: BACKUP_FORMAT,
    version: 1,
    createdAt: new Date().toISOString(),
    blsPublicKey: `0x${Buffer.from(info.blsPublicKey).toString('hex')}`,
    executionAddress: info.executionAddress,
    keyFile,
    files,
  }
  const backup: KeyBackup = { ...body, sha256: sha256Hex(canonical(body)) }
  return { text: `${JSON.stringify(backup, null, 2)}\n`, backup }
}

/**
 * Checks a backup document: JSON, the format, every field, the integrity check.
 * @throws BackupFileError naming what is wrong (truncated, damaged or changed, not a backup)
 */
export function parseBackup(text: string, path: string): KeyBackup {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new BackupFileError(
      path,
      text.trim().startsWith('{') ? 'it is cut short or damaged (its JSON does not end properly)' : 'it is not JSON',
    )
  }
  const b = doc as Partial<KeyBackup>
  if (typeof doc !== 'object' || doc === null || b.format !== BACKUP_FORMAT)
    throw new BackupFileError(path, `it is not a tnv key backup (no "format": "${BACKUP_FORMAT}")`)
  if (b.version !== 1)
    throw new BackupFileError(path, `it is backup format version ${String(b.version)}, which this tnv does not read`)
  const known = ['format', 'version', 'createdAt', 'blsPublicKey', 'executionAddress', 'keyFile', 'files', 'sha256']
  const extra = Object.keys(doc).filter((k) => !known.includes(k))
  if (extra.length)
    throw new BackupFileError(path, `it has fields a tnv backup never has (${extra.join(', ')}): it was edited`)
  const files = Array.isArray(b.files) ? b.files : []
  const okFields =
    typeof b.createdAt === 'string' &&
    typeof b.blsPublicKey === 'string' &&
    /^0x[0-9a-f]{192}$/.test(b.blsPublicKey) &&
    typeof b.executionAddress === 'string' &&
    (b.keyFile === BLS_KW_FILE || b.keyFile === BLS_KEY_FILE) &&
    typeof b.sha256 === 'string' &&
    files.length > 0 &&
    files.every(
      (f) =>
        typeof f?.path === 'string' &&
        ENTRY_PATH.test(f.path) &&
        Number.isInteger(f.mode) &&
        typeof f.base64 === 'string' &&
        /^[A-Za-z0-9+/]*={0,2}$/.test(f.base64),
    )
  if (!okFields) throw new BackupFileError(path, 'a field is missing or malformed: it was damaged or edited')
  const backup = b as KeyBackup
  if (sha256Hex(canonical(backup)) !== backup.sha256)
    throw new BackupFileError(path, 'its integrity check (sha256) fails: it was changed or damaged after tnv wrote it')
  const paths = new Set(files.map((f) => f.path))
  if (paths.size !== files.length) throw new BackupFileError(path, 'it names a file twice')
  if (!paths.has(NODE_INFO_FILE) || !paths.has(`${NODE_KEYS_DIR}/${backup.keyFile}`))
    throw new BackupFileError(
      path,
      `it lacks ${paths.has(NODE_INFO_FILE) ? `${NODE_KEYS_DIR}/${backup.keyFile}` : NODE_INFO_FILE}`,
    )
  return backup
}

/**
 * Writes the backup's files into `dir` (an empty private directory): node-info.yaml and
 * node-keys/ (0700) with each file's recorded mode (key files never wider than 0600).
 */
export async function restoreBackupFiles(backup: KeyBackup, dir: string): Promise<void> {
  await fs.mkdir(join(dir, NODE_KEYS_DIR), { mode: 0o700 })
  for (const f of backup.files) {
    const mode = f.path.startsWith(`${NODE_KEYS_DIR}/`) ? f.mode & 0o600 : f.mode & 0o644
    await fs.writeFile(join(dir, f.path), Buffer.from(f.base64, 'base64'), { mode, flag: 'wx' })
  }
}
