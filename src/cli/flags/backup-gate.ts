/** The flags of the backup gate (src/lib/keys/backup-gate.ts) of stake and delegation sign. */
import { Flags } from '@oclif/core'

export const skipBackupCheckFlag = {
  'skip-backup-check': Flags.boolean({
    env: 'TN_SKIP_BACKUP_CHECK',
    summary:
      'Bind the key on chain without a verified backup or a confirmed recovery phrase (you accept that losing the data directory or its passphrase loses the validator).',
    description:
      'Without it, tnv stops before the stake (or the delegation signature) unless `tnv keytool backup verify` recorded a verified backup of this exact key in the data directory, or its recovery phrase was confirmed (`keytool generate --mnemonic`, `keytool recover`, `keytool backup verify --mnemonic-file`). The devnet asks for the same proof as a real network; see --devnet-relaxed.',
  }),
  'devnet-relaxed': Flags.boolean({
    env: 'TN_DEVNET_RELAXED',
    summary:
      "Devnet only, for scripted tests: the backup gate reports instead of stopping, and the wizard makes keys without offering a recovery phrase. Refused on any chain but the devnet's rehearsal id 911329.",
    description:
      'By default the devnet rehearses exactly what a real network asks for: the backup gate stops the stake until a backup is verified or a recovery phrase confirmed, and the wizard offers the phrase. This flag relaxes both on the rehearsal chain id 911329 only; with any other chain id it is a usage error (exit 2), so it can never weaken a real network.',
  }),
}
