import { BaseCommand } from '../lib/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../lib/chain/flags.js'
import type { BeginExitReturnType } from '../lib/registry/begin-exit.js'

export default class Exit extends BaseCommand {
  static override summary = 'Begin the exit of an active validator: beginExit(). Irreversible.'

  static override description =
    `The validator becomes PendingExit. The protocol marks it Exited once it has no committee assignment left in the current and the 2 next epochs (this can take several epochs), and unstake is accepted from exit epoch + 1 (\`tnv validator status\` shows when).

Asks for confirmation on a terminal (default No); without one, pass --yes. Safe to repeat: a validator already exiting is reported and nothing is sent.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore validator.json --yes',
  ]

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags }

  async run(): Promise<BeginExitReturnType> {
    const { flags } = await this.parse(Exit)
    const [{ beginExit }, support] = await Promise.all([
      import('../lib/registry/begin-exit.js'),
      import('../lib/registry/command-support.js'),
    ])
    const note = (line: string) => this.note(line)
    const ctx = await support.openRegistryContext(flags)
    const signer = await support.signerFromFlags(flags, { action: 'beginExit' }, note)
    const result = await beginExit(ctx, {
      signer,
      report: support.createReporter(note),
      confirm: support.createConfirm({ yes: flags.yes, note }),
    })
    for (const line of support.outcomeLines(
      result,
      (sent) =>
        `Exit begun for ${result.validator}: PendingExit from epoch ${result.currentEpoch}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    ))
      this.out(line)
    if (result.outcome === 'sent')
      note('Next: wait until `tnv validator status` shows Exited and canUnstake, then run `tnv unstake`.')
    return result
  }
}
