import { datadirFlag, passphraseFlags, quietFlag } from '../../cli/flags/common.js'
import { KeytoolCommand } from '../../cli/keytool-command.js'
import type { VerifyNodeKeysReturnType } from '../../lib/keys/verify-node-keys.js'

export default class Verify extends KeytoolCommand {
  static override summary =
    '(tnv extra) Open the BLS key and check that node-info.yaml belongs to it (public key, PoP, network keys, peer ids).'
  static override description =
    'Opens the key with the passphrase source, re-derives the public key and the network keys of the primary and each worker from the seed files, and checks them, and the proof of possession for the execution address, against node-info.yaml. Exits non-zero naming each mismatch.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ./node1',
    '<%= config.bin %> <%= command.id %> --bls-passphrase-source ask --json',
  ]
  static override flags = { ...datadirFlag, ...passphraseFlags, ...quietFlag }

  async run(): Promise<VerifyNodeKeysReturnType> {
    const { flags } = await this.parse(Verify)
    this.quiet = flags.quiet
    const [{ verifyNodeKeys }, { KeysDoNotMatchError }] = await Promise.all([
      import('../../lib/keys/verify-node-keys.js'),
      import('../../lib/keys/errors.js'),
    ])
    await this.lockDatadir(flags.datadir)
    const r = await verifyNodeKeys({
      datadir: flags.datadir,
      openKey: () => this.openKey(flags.datadir, flags['bls-passphrase-source']),
    })
    for (const w of r.warnings) this.warnLine(w)
    const { checkLine } = await import('../../cli/check-line.js')
    for (const c of r.checks) this.logLine(checkLine(c))
    const failed = r.checks.filter((c) => !c.ok)
    if (failed.length > 0)
      throw new KeysDoNotMatchError(
        flags.datadir,
        failed.map((c) => `${c.field} ${c.detail}`),
      )
    this.out(`All ${r.checks.length} checks passed: ${r.nodeInfo} belongs to ${r.keyFile}.`)
    return r
  }
}
