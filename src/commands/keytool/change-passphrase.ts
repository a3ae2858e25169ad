import { checkFlag } from '../../cli/flags/check.js'
import { datadirFlag, passphraseFlags, quietFlag } from '../../cli/flags/common.js'
import { newPassphraseFlag } from '../../cli/flags/keytool.js'
import type { KeytoolCheckResult } from '../../cli/keytool-check.js'
import { KeytoolCommand } from '../../cli/keytool-command.js'

export type ChangePassphraseResult = { keyFile: string; previousKeyFile: string; backupDir?: string }

export default class ChangePassphrase extends KeytoolCommand {
  static override summary =
    '(tnv extra) Re-encrypt the BLS key under a new passphrase (fresh salt and nonce), keeping a backup.'
  static override description =
    "(tnv extra: the node's keytool has no such command; the file written is the node's bls.kw format.) Opens the key with --bls-passphrase-source (the current passphrase), then writes a new bls.kw under the passphrase from --new-passphrase-source, atomically; the old file is kept in a backup-<time>/ directory. An unencrypted bls.key becomes bls.kw (no current passphrase is needed for it). When both passphrases come from stdin, the first line is the current one and the second the new one; as the node does, each line loses its trailing whitespace."
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ./node1 --bls-passphrase-source ask --new-passphrase-source ask',
    'printf \'%s\\n%s\\n\' "$OLD" "$NEW" | <%= config.bin %> <%= command.id %> --bls-passphrase-source stdin --new-passphrase-source stdin',
  ]
  static override flags = { ...datadirFlag, ...passphraseFlags, ...newPassphraseFlag, ...quietFlag, ...checkFlag }

  async run(): Promise<ChangePassphraseResult | KeytoolCheckResult> {
    const { flags } = await this.parse(ChangePassphrase)
    this.quiet = flags.quiet
    if (flags.check) return this.check(flags.datadir)
    const [{ changePassphrase }, { readPassphrase }] = await Promise.all([
      import('../../lib/keys/change-passphrase.js'),
      import('../../lib/passphrase/read-passphrase.js'),
    ])
    const newSource = flags['new-passphrase-source']
    await this.lockDatadir(flags.datadir)
    const r = await changePassphrase({
      datadir: flags.datadir,
      openKey: () => this.openKey(flags.datadir, flags['bls-passphrase-source']),
      newPassphrase: async () => {
        const next =
          (await readPassphrase({
            source: newSource,
            purpose: 'create',
            envVar: 'TN_NEW_BLS_PASSPHRASE',
            flag: '--new-passphrase-source',
            label: 'BLS key passphrase',
            ...(newSource === 'stdin' ? { stdin: await this.stdin() } : {}),
            io: this.passphraseIo,
            env: this.session.passphraseEnv(newSource, 'TN_NEW_BLS_PASSPHRASE'),
          })) ?? ''
        const { weakPassphraseWarning } = await import('../../lib/passphrase/strength.js')
        const weak = weakPassphraseWarning(next)
        if (weak) this.warnLine(weak)
        if (/\p{White_Space}$/u.test(next))
          this.warnLine(
            'the new passphrase ends with whitespace. The node drops trailing whitespace from a --bls-passphrase-source stdin line, so the key will open only through TN_BLS_PASSPHRASE or ask.',
          )
        return next
      },
    })
    this.logLine(
      `Re-encrypted the BLS key with the new passphrase (fresh salt and nonce, 1,000,000 PBKDF2 iterations).`,
    )
    if (r.backupDir)
      this.logLine(
        `The previous key file is kept in ${r.backupDir}; delete it once you are sure of the new passphrase.`,
      )
    this.out(r.keyFile)
    return {
      keyFile: r.keyFile,
      previousKeyFile: r.previousKeyFile,
      ...(r.backupDir ? { backupDir: r.backupDir } : {}),
    }
  }

  /**
   * --check: the files the re-wrap writes (a fresh salt and nonce: never already-done). No
   * passphrase is asked, so a check does not prove the current one opens the key.
   */
  private async check(dir: string): Promise<KeytoolCheckResult> {
    const [{ lstat }, { join }, datadir, { KEY_BINDING_FILE }, { KeyFileMissingError }, check] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('../../lib/keys/datadir.js'),
      import('../../lib/keys/key-binding.js'),
      import('../../lib/keys/errors.js'),
      import('../../cli/keytool-check.js'),
    ])
    await datadir.assertDatadirExists(dir)
    const paths = datadir.datadirPaths(dir)
    const present = async (p: string) =>
      lstat(p).then(
        () => true,
        () => false,
      )
    const [kw, plain] = await Promise.all([present(paths.blsKw), present(paths.blsKey)])
    if (!kw && !plain) throw new KeyFileMissingError(paths.nodeKeys)
    const result = check.checkResult(
      await check.planFiles([
        { path: paths.blsKw, mode: datadir.KEY_FILE_MODE },
        { path: join(paths.datadir, KEY_BINDING_FILE), mode: datadir.KEY_FILE_MODE },
      ]),
      `would re-encrypt ${kw ? paths.blsKw : `${paths.blsKey} into bls.kw`} under the new passphrase (the old key file kept in backup-<time>/; the run asks for both passphrases)`,
    )
    for (const line of check.checkLines(result)) this.out(line)
    return result
  }
}
