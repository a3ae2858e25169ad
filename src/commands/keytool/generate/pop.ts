import type { Interfaces } from '@oclif/core'
import { checkFlag } from '../../../cli/flags/check.js'
import { datadirFlag, passphraseFlags, quietFlag } from '../../../cli/flags/common.js'
import { addressFlag, nodeInfoFormFlag } from '../../../cli/flags/keytool.js'
import type { KeytoolCheckResult } from '../../../cli/keytool-check.js'
import { KeytoolCommand } from '../../../cli/keytool-command.js'
import type { IdentityView } from '../../../lib/keys/identity.js'
import type { Hex, NodeInfoForm } from '../../../lib/nodeinfo/types.js'

export type GeneratePopResult = IdentityView & {
  nodeInfo: string
  /** null when the file's execution_address was damaged (and is now repaired). */
  previousAddress: Hex | null
  addressChanged: boolean
  changed: boolean
  /** The node-info.yaml form before and after (they differ only with --node-info-form). */
  previousNodeInfoForm: NodeInfoForm
  nodeInfoForm: NodeInfoForm
  /** Damaged fields this rewrite repaired (execution_address, proof_of_possession). */
  repaired: string[]
  backupDir?: string
}

export default class GeneratePop extends KeytoolCommand {
  static override summary = 'Re-sign the proof of possession for an execution address with the existing BLS key.'
  static override description =
    "Alias: `keytool generate proof-of-possession`, as in the node's keytool. Keeps every key, the name and the p2p identities; changes only execution_address and proof_of_possession and rewrites the whole node-info.yaml in the form it has (the released node's worker: map stays a map; --node-info-form changes it, and says so). The old file is kept in a backup-<time>/ directory (tnv extra). It also repairs a node-info.yaml whose execution_address or proof_of_possession is damaged. Needs a passphrase source that opens the key. Refuses when the key on disk is not the key in node-info.yaml. Then export the staking args again."
  static override aliases = ['keytool:generate:proof-of-possession']
  static override examples = [
    '<%= config.bin %> <%= command.id %> --address 0xYourValidatorAddress --datadir ./node1',
    '<%= config.bin %> <%= command.id %> --execution-address 0xYourValidatorAddress --bls-passphrase-source ask',
  ]
  static override flags = {
    ...addressFlag,
    ...nodeInfoFormFlag,
    ...datadirFlag,
    ...passphraseFlags,
    ...quietFlag,
    ...checkFlag,
  }

  async run(): Promise<GeneratePopResult | KeytoolCheckResult> {
    const { flags } = await this.parse(GeneratePop)
    this.quiet = flags.quiet
    if (flags.check) return this.check(flags)
    const [{ parseExecutionAddress }, { resignProofOfPossession }, { identityView }, { describeForm }] =
      await Promise.all([
        import('../../../lib/nodeinfo/address.js'),
        import('../../../lib/keys/resign-pop.js'),
        import('../../../lib/keys/identity.js'),
        import('../../../lib/nodeinfo/forms.js'),
      ])
    const address = parseExecutionAddress(flags.address, '--address')
    await this.lockDatadir(flags.datadir)
    const r = await resignProofOfPossession({
      datadir: flags.datadir,
      address,
      openKey: () => this.openKey(flags.datadir, flags['bls-passphrase-source']),
      ...(flags['node-info-form'] ? { form: flags['node-info-form'] } : {}),
    })
    if (r.repaired.length > 0)
      this.warnLine(`${r.nodeInfo} had a damaged ${r.repaired.join(' and ')}; both fields are rewritten now.`)
    else if (r.addressChanged)
      this.warnLine(
        `replacing execution address and re-signing proof of possession: ${r.previousAddress} becomes ${address}. The staking arguments change with it: export them again, and make sure governance whitelisted ${address}.`,
      )
    if (r.form !== r.previousForm)
      this.warnLine(`node-info.yaml changes form as asked: now ${describeForm(r.form).summary}.`)
    else if (r.form === 'workers') this.warnLine(`node-info.yaml keeps its form: ${describeForm(r.form).summary}.`)
    if (r.changed) {
      this.out(
        [
          `OK  node-info.yaml updated: ${r.nodeInfo}`,
          `    execution_address:   ${address}`,
          `    proof_of_possession: ${identityView(r.info).proofOfPossessionBase58}`,
        ].join('\n'),
      )
      if (r.backupDir) this.logLine(`The previous file is kept in ${r.backupDir}.`)
    } else this.out(`${r.nodeInfo} already holds the proof of possession for ${address}; nothing was changed.`)
    this.logLine(`Next: tnv keytool export-staking-args --node-info ${r.nodeInfo}`)
    return {
      nodeInfo: r.nodeInfo,
      ...identityView(r.info),
      previousAddress: r.previousAddress,
      addressChanged: r.addressChanged,
      changed: r.changed,
      previousNodeInfoForm: r.previousForm,
      nodeInfoForm: r.form,
      repaired: r.repaired,
      ...(r.backupDir ? { backupDir: r.backupDir } : {}),
    }
  }

  /** --check, without the key (src/lib/keys/resign-pop-check.ts says when the file is already right). */
  private async check(flags: Interfaces.InferredFlags<typeof GeneratePop.flags>): Promise<KeytoolCheckResult> {
    const [{ parseExecutionAddress }, { checkResignPop }, check] = await Promise.all([
      import('../../../lib/nodeinfo/address.js'),
      import('../../../lib/keys/resign-pop-check.js'),
      import('../../../cli/keytool-check.js'),
    ])
    const address = parseExecutionAddress(flags.address, '--address')
    const { nodeInfo: path, done } = await checkResignPop({
      datadir: flags.datadir,
      address,
      form: flags['node-info-form'],
    })
    const result = done
      ? check.checkResult([], `${path} already holds the proof of possession for ${address}`)
      : check.checkResult(
          await check.planFiles([{ path, mode: 0o644 }]),
          `would re-sign the proof of possession for ${address} in ${path} (the old file kept in backup-<time>/; the run asks for the passphrase)`,
        )
    for (const line of check.checkLines(result)) this.out(line)
    return result
  }
}
