import { resolve } from 'node:path'
import { Args } from '@oclif/core'
import { chainFlags } from '../../../cli/flags/chain.js'
import { datadirFlag, passphraseFlags, quietFlag } from '../../../cli/flags/common.js'
import { mnemonicFileFlag, mnemonicIndexFlag } from '../../../cli/flags/mnemonic.js'
import { KeytoolCommand } from '../../../cli/keytool-command.js'

export type BackupVerifyResult = {
  /** What was verified: a backup file, or a recovery phrase. */
  kind: 'backup' | 'phrase'
  file: string | null
  blsPublicKey: string
  checks: { field: string; ok: boolean; detail: string }[]
  /** The record written in the data directory, or null when it holds no node-info.yaml. */
  recorded: string | null
  /** The data directory's key file changed since the backup (a change-passphrase): the stake gate does not count it. */
  stale: boolean
}

export default class BackupVerify extends KeytoolCommand {
  static override summary =
    '(tnv extra) Prove a backup restores a working validator (or that a recovery phrase gives the key), and record it.'

  static override description =
    `With FILE: checks the backup's integrity, restores it into a private temporary directory (removed afterwards), opens the key with the passphrase (--bls-passphrase-source), and checks that the key is node-info.yaml's, that the proof of possession verifies and that the network keys re-derive; with --chain or --rpc-url, also that the registry holds this key for the address. With --mnemonic-file instead: checks that the phrase gives the data directory's key (--mnemonic-index).

When every check passes and --datadir holds this same key, the result is recorded in <datadir>/tnv-backup.json: \`tnv stake\` and \`tnv delegation sign\` need such a record before they bind the key on chain. A backup or phrase of another key is refused. Nothing else is written.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> /media/usb/tn-backup.json --datadir ~/tn --bls-passphrase-source ask',
    '<%= config.bin %> <%= command.id %> /media/usb/tn-backup.json --datadir ~/tn --chain testnet',
    '<%= config.bin %> <%= command.id %> --mnemonic-file ./phrase.txt --datadir ~/tn',
  ]

  static override args = {
    file: Args.string({ description: 'The backup file (from `tnv keytool backup`).', required: false }),
  }

  static override flags = {
    ...datadirFlag,
    ...passphraseFlags,
    ...mnemonicFileFlag,
    ...mnemonicIndexFlag,
    ...quietFlag,
    ...chainFlags,
  }

  async run(): Promise<BackupVerifyResult> {
    const { args, flags } = await this.parse(BackupVerify)
    this.quiet = flags.quiet
    const { UsageError } = await import('../../../lib/errors.js')
    if ((args.file === undefined) === (flags['mnemonic-file'] === undefined))
      throw new UsageError(
        args.file === undefined
          ? 'Name what to verify: a backup FILE, or --mnemonic-file for a recovery phrase.'
          : 'Give a backup FILE or --mnemonic-file, not both.',
        {
          fix: 'Run `tnv keytool backup verify FILE --datadir DIR` or `tnv keytool backup verify --mnemonic-file FILE --datadir DIR`.',
        },
      )
    if (flags['mnemonic-file'] !== undefined) {
      const [{ readMnemonic }, { verifyPhrase }] = await Promise.all([
        import('../../../lib/keys/read-mnemonic.js'),
        import('../../../lib/keys/verify-phrase.js'),
      ])
      await this.lockDatadir(flags.datadir)
      const m = await readMnemonic({ file: flags['mnemonic-file'], stdin: this.session.stdin(), io: this.passphraseIo })
      if (m.warning) this.warnLine(m.warning)
      const r = await verifyPhrase({ datadir: flags.datadir, phrase: m.phrase, index: flags['mnemonic-index'] })
      this.out(
        `OK  the recovery phrase gives the key of ${resolve(flags.datadir)} (${r.blsPublicKey.slice(0, 20)}…, key path ${r.keyPath}); recorded in ${r.recorded}.`,
      )
      return {
        kind: 'phrase',
        file: null,
        blsPublicKey: r.blsPublicKey,
        checks: [{ field: 'bls_public_key', ok: true, detail: `the phrase gives it on ${r.keyPath}` }],
        recorded: r.recorded,
        stale: false,
      }
    }
    const [{ verifyBackup }, { openBlsKey }, { registeredKeyReader }] = await Promise.all([
      import('../../../lib/keys/verify-backup.js'),
      import('../../../lib/keys/open-key.js'),
      import('../../../cli/registered-key.js'),
    ])
    const file = resolve(args.file as string)
    await this.lockDatadir(flags.datadir)
    const registeredKey = registeredKeyReader(flags)
    const r = await verifyBackup({
      file,
      datadir: flags.datadir,
      ...(registeredKey ? { registeredKey } : {}),
      openKey: (dir) =>
        openBlsKey({
          datadir: dir,
          source: flags['bls-passphrase-source'],
          stdin: this.session.stdin(),
          io: this.passphraseIo,
          env: this.session.passphraseEnv(flags['bls-passphrase-source']),
        }),
    })
    const { checkLine } = await import('../../../cli/check-line.js')
    for (const c of r.checks) this.out(checkLine(c))
    if (r.iterations === 1)
      this.warnLine(
        'the key in this backup is protected by 1 PBKDF2 iteration (a weak build wrote it): re-wrap it with `tnv keytool change-passphrase` and back up again.',
      )
    if (r.recorded === null)
      this.warnLine(
        `${resolve(flags.datadir)} holds no node-info.yaml, so nothing was recorded: pass the --datadir of this key to record the verified backup.`,
      )
    else if (r.stale)
      this.warnLine(
        "the data directory's key file changed since this backup (a change-passphrase?): the backup opens only with the old passphrase, and `tnv stake` does not count it. Make and verify a new backup.",
      )
    else this.logLine(`Backup verified; recorded in ${r.recorded}.`)
    return {
      kind: 'backup',
      file,
      blsPublicKey: r.blsPublicKey,
      checks: r.checks,
      recorded: r.recorded,
      stale: r.stale,
    }
  }
}
