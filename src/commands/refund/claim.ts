import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../../cli/flags/chain.js'
import { datadirFlag } from '../../cli/flags/common.js'
import type { ClaimRefundReturnType } from '../../lib/registry/claim-refund.js'

export default class RefundClaim extends BaseCommand {
  static override summary = 'Withdraw a refund credited after a rejected payout: claimRefund() (next generation).'

  static override description =
    'On the next-generation registry, when an unstake (or a reward) payout is rejected by the recipient, the registry credits the amount instead (claimableRefunds); the recipient withdraws it with this command. With nothing credited it says so and sends nothing. The adiri registry keeps no refunds (a rejected payout reverts the whole call): there the command says so and sends nothing.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore recipient.json --yes',
  ]

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags, ...datadirFlag }

  async run(): Promise<ClaimRefundReturnType> {
    const { flags } = await this.parse(RefundClaim)
    const [{ claimRefund }, { runRegistryCommand }, { formatTelAndWei }] = await Promise.all([
      import('../../lib/registry/claim-refund.js'),
      import('../../cli/registry-step.js'),
      import('../../lib/chain/units.js'),
    ])
    return runRegistryCommand({
      session: this.session,
      out: (line) => this.out(line),
      flags,
      action: 'claimRefund',
      datadir: flags.datadir,
      step: claimRefund,
      sentLine: (r, sent) =>
        `Withdrew the refund of ${formatTelAndWei(BigInt(r.amount ?? 0))} to ${r.recipient}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    })
  }
}
