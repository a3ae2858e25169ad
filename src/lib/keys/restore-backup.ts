/**
 * What `keytool backup restore` does: writes a backup file's node-info.yaml and node-keys/ into a
 * new data directory, byte for byte with their modes (key files never wider than 0600), as one
 * crash-safe commit (./commit-files.ts). It never replaces anything: a data directory that holds
 * node-info.yaml or keys is refused. The key is not opened (no passphrase needed); run
 * `keytool verify` afterwards, or `backup verify` before.
 */
import { promises as fs } from 'node:fs'
import { ensureDir, pathExists } from '../fs/atomic.js'
import { MAX_BACKUP_BYTES, parseBackup } from './backup-file.js'
import { commitFiles, stageDir, stageFile } from './commit-files.js'
import { datadirPaths, KEY_DIR_MODE, NODE_KEYS_DIR } from './datadir.js'
import { BackupFileError, RecoverTargetExistsError } from './recovery-errors.js'

export type RestoreBackupReturnType = {
  datadir: string
  blsPublicKey: string
  executionAddress: string
  files: string[]
}

/** @throws BackupFileError, RecoverTargetExistsError */
export async function restoreBackup({
  file,
  datadir,
}: {
  file: string
  datadir: string
}): Promise<RestoreBackupReturnType> {
  const stat = await fs.stat(file).catch(() => undefined)
  if (!stat?.isFile()) throw new BackupFileError(file, 'there is no such file')
  if (stat.size > MAX_BACKUP_BYTES)
    throw new BackupFileError(file, `it is ${stat.size} bytes, far larger than any key backup`)
  const backup = parseBackup(await fs.readFile(file, 'utf8'), file)
  const paths = datadirPaths(datadir)
  const existing: string[] = []
  if (await pathExists(paths.nodeInfo)) existing.push(paths.nodeInfo)
  if ((await fs.readdir(paths.nodeKeys).catch((): string[] => [])).length > 0) existing.push(`${paths.nodeKeys}/`)
  if (existing.length) throw new RecoverTargetExistsError(existing, 'keytool backup restore')
  if (!(await pathExists(paths.datadir))) await ensureDir(paths.datadir, 0o700)
  const keyFiles = backup.files
    .filter((f) => f.path.startsWith(`${NODE_KEYS_DIR}/`))
    .map((f) => ({
      name: f.path.slice(NODE_KEYS_DIR.length + 1),
      data: Buffer.from(f.base64, 'base64'),
      mode: f.mode & 0o600,
    }))
  const info = backup.files.find((f) => !f.path.startsWith(`${NODE_KEYS_DIR}/`))
  const stagedKeys = await stageDir(paths.nodeKeys, keyFiles, KEY_DIR_MODE)
  let stagedInfo: string
  try {
    stagedInfo = await stageFile(
      paths.nodeInfo,
      Buffer.from(info?.base64 ?? '', 'base64'),
      (info?.mode ?? 0o644) & 0o644,
    )
  } catch (err) {
    await fs.rm(stagedKeys, { recursive: true, force: true })
    throw err
  }
  await commitFiles({
    datadir: paths.datadir,
    replacements: [
      { kind: 'dir', target: paths.nodeKeys, staged: stagedKeys },
      { kind: 'file', target: paths.nodeInfo, staged: stagedInfo },
    ],
  })
  return {
    datadir: paths.datadir,
    blsPublicKey: backup.blsPublicKey,
    executionAddress: backup.executionAddress,
    files: backup.files.map((f) => f.path),
  }
}
