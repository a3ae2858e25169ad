import { datadirFlag, passphraseFlags, quietFlag } from '../../../lib/flags.js'
import type { IdentityView } from '../../../lib/keys/identity.js'
import { KeytoolCommand } from '../../../lib/keys/keytool-command.js'
import { addressFlag } from '../../../lib/keys/keytool-flags.js'
import type { Hex } from '../../../lib/nodeinfo/types.js'

export type GeneratePopResult = IdentityView & {
  nodeInfo: string
  previousAddress: Hex
  addressChanged: boolean
  changed: boolean
  backupDir?: string
}

export default class GeneratePop extends KeytoolCommand {
  static override summary = 'Re-sign the proof of possession for an execution address with the existing BLS key.'
  static override description =
    'Keeps every key, the name and the p2p identities; changes only execution_address and proof_of_possession, and rewrites the whole node-info.yaml (a legacy worker: map becomes a workers: list; the old file is kept in a backup-<time>/ directory). Needs a passphrase source that opens the key (no-passphrase works only for an unencrypted bls.key). Refuses when the key on disk is not the key in node-info.yaml. Then export the staking args again.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --address 0xYourValidatorAddress --datadir ./node1',
    '<%= config.bin %> <%= command.id %> --address 0xYourValidatorAddress --bls-passphrase-source ask',
  ]
  static override flags = { ...addressFlag, ...datadirFlag, ...passphraseFlags, ...quietFlag }

  async run(): Promise<GeneratePopResult> {
    const { flags } = await this.parse(GeneratePop)
    this.quiet = flags.quiet
    const [{ parseExecutionAddress }, { resignProofOfPossession }, { identityView, formatIdentity }] =
      await Promise.all([
        import('../../../lib/nodeinfo/address.js'),
        import('../../../lib/keys/resign-pop.js'),
        import('../../../lib/keys/identity.js'),
      ])
    const address = parseExecutionAddress(flags.address, '--address')
    const r = await resignProofOfPossession({
      datadir: flags.datadir,
      address,
      openKey: () => this.openKey(flags.datadir, flags['bls-passphrase-source']),
    })
    if (r.addressChanged)
      this.warnLine(
        `the execution address changes from ${r.previousAddress} to ${address}. The staking arguments change with it: export them again, and make sure governance whitelisted ${address}.`,
      )
    if (r.rewroteLegacyWorkerMap) this.logLine('The legacy worker: map was rewritten as a workers: list.')
    if (r.changed)
      this.logLine(
        `Re-signed the proof of possession for ${address} in ${r.nodeInfo}${r.backupDir ? ` (previous file kept in ${r.backupDir})` : ''}.`,
      )
    else this.logLine(`${r.nodeInfo} already holds the proof of possession for ${address}; nothing was changed.`)
    const view = identityView(r.info)
    this.out(formatIdentity(view).join('\n'))
    this.logLine(
      `Next: tnv keytool export-staking-args --node-info ${r.nodeInfo} --calldata --bls-passphrase-source no-passphrase`,
    )
    return {
      nodeInfo: r.nodeInfo,
      ...view,
      previousAddress: r.previousAddress,
      addressChanged: r.addressChanged,
      changed: r.changed,
      ...(r.backupDir ? { backupDir: r.backupDir } : {}),
    }
  }
}
