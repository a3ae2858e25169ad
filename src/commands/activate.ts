import { BaseCommand } from '../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../cli/flags/chain.js'
import type { ActivateReturnType } from '../lib/registry/activate.js'

export default class Activate extends BaseCommand {
  static override summary = 'Activate a staked validator: activate() from the validator address.'

  static override description =
    `Run it once the node is synced. The validator becomes PendingActivation, then Active at the next epoch boundary, which makes it eligible for committees in later epochs (inclusion is not guaranteed).

Safe to repeat: a validator already PendingActivation or Active is reported and nothing is sent.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore validator.json --yes',
  ]

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags }

  async run(): Promise<ActivateReturnType> {
    const { flags } = await this.parse(Activate)
    const [{ activate }, { runRegistryCommand }] = await Promise.all([
      import('../lib/registry/activate.js'),
      import('../cli/registry-step.js'),
    ])
    return runRegistryCommand({
      session: this.session,
      out: (line) => this.out(line),
      flags,
      action: 'activate',
      step: activate,
      sentLine: (r, sent) =>
        `Activated ${r.validator}: PendingActivation, Active from epoch ${r.activeFromEpoch}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    })
  }
}
