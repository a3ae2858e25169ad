/**
 * What `keytool backup verify` does: checks the backup file (format, integrity), restores it into
 * a private temporary directory (0700, removed afterwards whatever happens) and proves there that
 * the passphrase opens the key, the key is node-info.yaml's, the proof of possession verifies and
 * the network keys re-derive (./verify-node-keys.ts, the checks of `keytool verify`); when a
 * network is given, that the registry holds this key for the address. When every check passes
 * and the data directory holds this same key, the proof is recorded there (./backup-record.ts).
 */
import { promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathExists } from '../fs/atomic.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import { type KeyBackup, MAX_BACKUP_BYTES, parseBackup, restoreBackupFiles } from './backup-file.js'
import { type BackupProof, currentKeyFile, recordBackupProof, sha256Hex } from './backup-record.js'
import { datadirPaths, NODE_KEYS_DIR } from './datadir.js'
import { KeyFileCorruptError, WrongPassphraseError } from './errors.js'
import type { OpenBlsKeyReturnType } from './open-key.js'
import { BackupCheckFailedError, BackupFileError, BackupOfAnotherKeyError } from './recovery-errors.js'
import { type KeyCheck, verifyNodeKeys } from './verify-node-keys.js'

export type VerifyBackupParameters = {
  file: string
  /** Opens the restored key (the command's passphrase source) in the given directory. */
  openKey: (dir: string) => Promise<OpenBlsKeyReturnType>
  /** The data directory to record the result in; skipped (with `recorded: null`) when it holds no node-info.yaml. */
  datadir: string
  /** The registry's key for an address, when a network was given. */
  registeredKey?: ((address: Hex) => Promise<{ chainId: number; registeredKey: string | null }>) | undefined
}

type Hex = `0x${string}`

export type VerifyBackupReturnType = {
  file: string
  blsPublicKey: string
  executionAddress: string
  checks: KeyCheck[]
  /** The record written, or null when the data directory holds no keys to record against. */
  recorded: string | null
  /** The data directory's key file is not the one the backup holds (a change-passphrase since): the gate will not count it. */
  stale: boolean
  registry: { chainId: number; address: string; registeredKey: string | null } | null
  iterations?: number
}

/**
 * @throws BackupFileError (truncated, damaged, not a backup), BackupCheckFailedError (a check
 *   failed), BackupOfAnotherKeyError (the data directory holds another key), the key's errors
 *   (WrongPassphraseError, …)
 */
export async function verifyBackup({
  file,
  openKey,
  datadir,
  registeredKey,
}: VerifyBackupParameters): Promise<VerifyBackupReturnType> {
  const stat = await fs.stat(file).catch(() => undefined)
  if (!stat?.isFile()) throw new BackupFileError(file, 'there is no such file')
  if (stat.size > MAX_BACKUP_BYTES)
    throw new BackupFileError(file, `it is ${stat.size} bytes, far larger than any key backup`)
  const bytes = await fs.readFile(file)
  const backup: KeyBackup = parseBackup(bytes.toString('utf8'), file)

  // the data directory's key, before anything else is asked (a backup of another key is refused at once)
  const paths = datadirPaths(datadir)
  const own = (await pathExists(paths.nodeInfo)) ? (await readNodeInfo(paths.nodeInfo)).info : undefined
  const ownKey = own ? `0x${Buffer.from(own.blsPublicKey).toString('hex')}` : undefined
  if (ownKey !== undefined && ownKey !== backup.blsPublicKey)
    throw new BackupOfAnotherKeyError({
      what: file,
      backupKey: backup.blsPublicKey,
      datadirKey: ownKey,
      datadir: paths.datadir,
    })

  const dir = await fs.mkdtemp(join(tmpdir(), 'tnv-backup-verify-'))
  let result: Awaited<ReturnType<typeof verifyNodeKeys>>
  let restoredKey: string
  try {
    await fs.chmod(dir, 0o700)
    await restoreBackupFiles(backup, dir)
    restoredKey = `0x${Buffer.from((await readNodeInfo(dir)).info.blsPublicKey).toString('hex')}`
    result = await verifyNodeKeys({ datadir: dir, openKey: () => openKey(dir) }).catch((err: unknown) => {
      // name the backup, not the temporary directory it was restored into
      if (err instanceof WrongPassphraseError)
        throw new WrongPassphraseError(`${NODE_KEYS_DIR}/${backup.keyFile} in ${file}`)
      if (err instanceof KeyFileCorruptError)
        throw new BackupCheckFailedError([err.message.replaceAll(dir, `<${file}>`).replace(/\.$/, '')])
      throw err
    })
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
  const checks: KeyCheck[] = result.checks.map((c) => ({ ...c, detail: c.detail.replaceAll(dir, '<restored>') }))
  // node-info.yaml inside the backup must carry the key the backup names
  const named = restoredKey === backup.blsPublicKey
  checks.push({
    field: 'backup.blsPublicKey',
    ok: named,
    detail: named
      ? "is the restored node-info.yaml's key"
      : `differs from the restored node-info.yaml's key ${restoredKey.slice(0, 20)}…`,
  })

  let registry: VerifyBackupReturnType['registry'] = null
  if (registeredKey) {
    const r = await registeredKey(backup.executionAddress as Hex)
    registry = { chainId: r.chainId, address: backup.executionAddress, registeredKey: r.registeredKey }
    const ok = r.registeredKey === null || r.registeredKey.toLowerCase() === backup.blsPublicKey
    checks.push({
      field: 'registry',
      ok,
      detail:
        r.registeredKey === null
          ? `the registry on chain ${r.chainId} holds no key for ${backup.executionAddress} yet (not staked): nothing to compare`
          : ok
            ? `the registry on chain ${r.chainId} holds this key for ${backup.executionAddress}`
            : `the registry on chain ${r.chainId} holds another key for ${backup.executionAddress}: ${r.registeredKey.slice(0, 20)}…`,
    })
  }
  const failed = checks.filter((c) => !c.ok)
  if (failed.length) throw new BackupCheckFailedError(failed.map((c) => `${c.field} ${c.detail}`))

  let recorded: string | null = null
  let stale = false
  if (ownKey !== undefined) {
    const keyEntry = backup.files.find((f) => f.path === `${NODE_KEYS_DIR}/${backup.keyFile}`)
    const proof: BackupProof = {
      how: 'backup-verified',
      blsPublicKey: backup.blsPublicKey,
      keyFile: backup.keyFile,
      keyFileSha256: sha256Hex(Buffer.from(keyEntry?.base64 ?? '', 'base64')),
      backupFile: file,
      backupSha256: sha256Hex(bytes),
      registry,
      at: new Date().toISOString(),
    }
    recorded = await recordBackupProof(paths.datadir, proof)
    // a backup of the directory's key made before a change-passphrase restores only with the old one
    const current = await currentKeyFile(paths.datadir)
    stale = current !== null && current.sha256 !== proof.keyFileSha256
  }
  return {
    file,
    blsPublicKey: backup.blsPublicKey,
    executionAddress: backup.executionAddress,
    checks,
    recorded,
    stale,
    registry,
    ...(result.iterations !== undefined ? { iterations: result.iterations } : {}),
  }
}
