import { resolve } from 'node:path'
import { Args } from '@oclif/core'
import { datadirFlag, quietFlag } from '../../../cli/flags/common.js'
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

  static override flags = { ...datadirFlag, ...quietFlag }

  async run(): Promise<RestoreBackupReturnType> {
    const { args, flags } = await this.parse(BackupRestore)
    this.quiet = flags.quiet
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
}
