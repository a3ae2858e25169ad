import { resolve } from 'node:path'
import { Args } from '@oclif/core'
import { checkFlag } from '../../../cli/flags/check.js'
import { datadirFlag, quietFlag } from '../../../cli/flags/common.js'
import type { KeytoolCheckResult } from '../../../cli/keytool-check.js'
import { KeytoolCommand } from '../../../cli/keytool-command.js'
import type { RestoreBackupReturnType } from '../../../lib/keys/restore-backup.js'

export default class BackupRestore extends KeytoolCommand {
  static override summary =
    '(tnv extra) Write a backup file back into a new data directory (node-info.yaml and node-keys/).'

  static override description =
    `Checks the backup's integrity, then writes node-info.yaml and every file of node-keys/ byte for byte (key files 0600, node-keys/ 0700) as one crash-safe step. It never replaces anything: a --datadir that holds node-info.yaml or keys is refused. The key stays encrypted; no passphrase is needed. Check the result with \`tnv keytool verify --datadir DIR\` (or the backup itself first, with \`tnv keytool backup verify FILE\`).`

  static override examples = ['<%= config.bin %> <%= command.id %> /media/usb/tn-backup.json --datadir ~/tn-restored']

  static override args = {
    file: Args.string({ description: 'The backup file (from `tnv keytool backup`).', required: true }),
  }

  static override flags = { ...datadirFlag, ...quietFlag, ...checkFlag }

  async run(): Promise<RestoreBackupReturnType | KeytoolCheckResult> {
    const { args, flags } = await this.parse(BackupRestore)
    this.quiet = flags.quiet
    if (flags.check) return this.check(resolve(args.file), flags.datadir)
    const { restoreBackup } = await import('../../../lib/keys/restore-backup.js')
    await this.lockDatadir(flags.datadir)
    const r = await restoreBackup({ file: resolve(args.file), datadir: flags.datadir })
    this.logLine(`Restored the key ${r.blsPublicKey.slice(0, 20)}… (${r.files.length} files) into ${r.datadir}.`)
    this.logLine(
      `Next: tnv keytool verify --datadir ${r.datadir}   (opens the key with its passphrase and checks every file)`,
    )
    this.out(r.datadir)
    return r
  }

  /**
   * --check: the backup's integrity is checked as the run checks it, then the files it would
   * write. A data directory already holding exactly the backup's files: already-done; holding
   * other keys or node-info.yaml: refused, as the run refuses it.
   */
  private async check(file: string, dir: string): Promise<KeytoolCheckResult> {
    const [{ readFile, stat }, { join }, { parseBackup, MAX_BACKUP_BYTES }, datadir, errors, check] = await Promise.all(
      [
        import('node:fs/promises'),
        import('node:path'),
        import('../../../lib/keys/backup-file.js'),
        import('../../../lib/keys/datadir.js'),
        import('../../../lib/keys/recovery-errors.js'),
        import('../../../cli/keytool-check.js'),
      ],
    )
    const s = await stat(file).catch(() => undefined)
    if (!s?.isFile()) throw new errors.BackupFileError(file, 'there is no such file')
    if (s.size > MAX_BACKUP_BYTES)
      throw new errors.BackupFileError(file, `it is ${s.size} bytes, far larger than any key backup`)
    const backup = parseBackup(await readFile(file, 'utf8'), file)
    const paths = datadir.datadirPaths(dir)
    const targets = backup.files.map((f) => ({ path: join(paths.datadir, f.path), mode: f.mode, base64: f.base64 }))
    const onDisk = await Promise.all(
      targets.map((t) =>
        readFile(t.path).then(
          (b) => b.toString('base64') === t.base64,
          () => false,
        ),
      ),
    )
    const present = (await check.planFiles([{ path: paths.nodeInfo, mode: 0o644 }]))[0]?.exists === true
    const { readdir } = await import('node:fs/promises')
    const keys = (await readdir(paths.nodeKeys).catch((): string[] => [])).length
    let result: KeytoolCheckResult
    if (onDisk.every(Boolean) && keys === backup.files.filter((f) => f.path.startsWith('node-keys/')).length)
      result = check.checkResult([], `${paths.datadir} already holds the files of this backup`)
    else if (present || keys > 0)
      throw new errors.RecoverTargetExistsError(
        [...(present ? [paths.nodeInfo] : []), ...(keys > 0 ? [`${paths.nodeKeys}/`] : [])],
        'keytool backup restore',
      )
    else
      result = check.checkResult(
        await check.planFiles([
          { path: paths.nodeKeys, mode: datadir.KEY_DIR_MODE },
          ...targets.map((t) => ({
            path: t.path,
            mode: t.path.startsWith(paths.nodeKeys) ? t.mode & 0o600 : t.mode & 0o644,
          })),
        ]),
        `would restore the key ${backup.blsPublicKey.slice(0, 20)}… (${backup.files.length} files) into ${paths.datadir}`,
      )
    for (const line of check.checkLines(result)) this.out(line)
    return result
  }
}
