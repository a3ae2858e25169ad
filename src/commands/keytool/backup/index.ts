import { isAbsolute, relative, resolve } from 'node:path'
import { Flags } from '@oclif/core'
import { checkFlag } from '../../../cli/flags/check.js'
import { datadirFlag, quietFlag } from '../../../cli/flags/common.js'
import type { KeytoolCheckResult } from '../../../cli/keytool-check.js'
import { KeytoolCommand } from '../../../cli/keytool-command.js'

export type BackupResult = {
  file: string
  datadir: string
  blsPublicKey: string
  executionAddress: string
  /** The files it holds, relative to the data directory. */
  files: string[]
  encrypted: boolean
  sha256: string
}

export default class Backup extends KeytoolCommand {
  static override summary =
    "(tnv extra) Write one backup file of the data directory's keys and node-info.yaml, with an integrity check."

  static override description =
    `The file (JSON, mode 0600) holds node-info.yaml and every file of node-keys/ byte for byte: bls.kw stays encrypted under its passphrase, so the backup is as safe as the data directory and the passphrase is still needed to use it (keep the passphrase somewhere else than the backup). A sha256 over the content catches truncation and damage. An existing file is never overwritten.

Put it on other media (another disk, a USB key kept offline), then prove it restores: \`tnv keytool backup verify FILE --datadir DIR\` restores it into a private temporary directory, opens the key with the passphrase and checks every key, and records the result in the data directory. \`tnv stake\` and \`tnv delegation sign\` require that record (or a confirmed recovery phrase) before they bind the key on chain. See docs/keytool.md.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ~/tn --out /media/usb/tn-backup.json',
    '<%= config.bin %> <%= command.id %> verify /media/usb/tn-backup.json --datadir ~/tn --bls-passphrase-source ask',
  ]

  static override flags = {
    out: Flags.string({
      required: true,
      helpValue: '<file>',
      summary: 'The backup file to write (a new file; put it on other media than the data directory).',
    }),
    ...datadirFlag,
    ...quietFlag,
    ...checkFlag,
  }

  async run(): Promise<BackupResult | KeytoolCheckResult> {
    const { flags } = await this.parse(Backup)
    this.quiet = flags.quiet
    const [
      { makeBackup },
      { assertOutputPath, writeNewOutputFile },
      { OutputFileExistsError },
      { checkKeyOnDisk },
      { assertDatadirExists },
    ] = await Promise.all([
      import('../../../lib/keys/backup-file.js'),
      import('../../../lib/fs/output-file.js'),
      import('../../../lib/keys/recovery-errors.js'),
      import('../../../lib/keys/key-binding.js'),
      import('../../../lib/keys/datadir.js'),
    ])
    const out = resolve(flags.out)
    // the place of the file is checked before the data directory is locked or read
    await assertOutputPath(out, '--out')
    await assertDatadirExists(flags.datadir)
    if (!flags.check) await this.lockDatadir(flags.datadir)
    const { text, backup } = await makeBackup(flags.datadir)
    // the key on disk must be node-info's (when tnv can tell without the passphrase)
    const check = await checkKeyOnDisk(flags.datadir, Buffer.from(backup.blsPublicKey.slice(2), 'hex'))
    if (check.status === 'mismatch') {
      const { KeyOnDiskMismatchError } = await import('../../../lib/keys/errors.js')
      throw new KeyOnDiskMismatchError({
        datadir: resolve(flags.datadir),
        nodeInfoKey: Buffer.from(backup.blsPublicKey.slice(2), 'hex'),
        onDisk: check.onDisk,
        keyFile: check.keyFile,
      })
    }
    if (flags.check) return this.check(out, backup)
    if (!(await writeNewOutputFile(out, text, { flag: '--out', mode: 0o600 })))
      throw new OutputFileExistsError(out, '--out')
    const datadir = resolve(flags.datadir)
    const rel = relative(datadir, out)
    if (!rel.startsWith('..') && !isAbsolute(rel))
      this.warnLine(
        `${out} is inside the data directory: a backup there is lost with it. Copy it to other media (and verify the copy).`,
      )
    if (backup.keyFile === 'bls.key')
      this.warnLine(
        'the key in this backup is UNENCRYPTED (bls.key): anyone with the file holds the key. Encrypt it first (tnv keytool change-passphrase), then back up again.',
      )
    this.logLine(
      `Wrote a backup of the key ${backup.blsPublicKey.slice(0, 20)}… (${backup.files.length} files) to ${out} (mode 0600).`,
    )
    this.logLine(
      `Next: copy it to other media and prove it restores: tnv keytool backup verify ${out} --datadir ${datadir}`,
    )
    this.out(out)
    return {
      file: out,
      datadir,
      blsPublicKey: backup.blsPublicKey,
      executionAddress: backup.executionAddress,
      files: backup.files.map((f) => f.path),
      encrypted: backup.keyFile === 'bls.kw',
      sha256: backup.sha256,
    }
  }

  /**
   * --check: every check of the run has passed (the output path, the data directory, the key on
   * disk); a file already at --out is judged as the run would (src/lib/keys/backup-check.ts).
   */
  private async check(
    out: string,
    backup: import('../../../lib/keys/backup-file.js').KeyBackup,
  ): Promise<KeytoolCheckResult> {
    const [{ checkBackupOutput }, check] = await Promise.all([
      import('../../../lib/keys/backup-check.js'),
      import('../../../cli/keytool-check.js'),
    ])
    const existing = await checkBackupOutput({ out, backup })
    const result =
      existing.outcome === 'would-change'
        ? check.checkResult(
            await check.planFiles([{ path: out, mode: 0o600 }]),
            `would write a backup of the key ${backup.blsPublicKey.slice(0, 20)}… (${backup.files.length} files) to ${out}`,
          )
        : check.checkResult([], `${out} already holds a backup of these files (written ${existing.createdAt})`)
    for (const line of check.checkLines(result)) this.out(line)
    return result
  }
}
