/** The flag that passes the backup gate (src/lib/keys/backup-gate.ts) of stake and delegation sign. */
import { Flags } from '@oclif/core'

export const skipBackupCheckFlag = {
  'skip-backup-check': Flags.boolean({
    env: 'TN_SKIP_BACKUP_CHECK',
    summary:
      'Bind the key on chain without a verified backup or a confirmed recovery phrase (you accept that losing the data directory or its passphrase loses the validator).',
    description:
      'Without it, tnv stops before the stake (or the delegation signature) unless `tnv keytool backup verify` recorded a verified backup of this exact key in the data directory, or its recovery phrase was confirmed (`keytool generate --mnemonic`, `keytool recover`, `keytool backup verify --mnemonic-file`). On the rehearsal chain (the devnet, chain id 911329) the check only reports.',
  }),
}
