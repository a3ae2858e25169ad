import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../../lib/chain/flags.js'
import type { ClaimStakeRewardsReturnType } from '../../lib/registry/claim-stake-rewards.js'

export default class RewardsClaim extends BaseCommand {
  static override summary = 'Claim accrued stake rewards without exiting: claimStakeRewards(validatorAddress).'

  static override description =
    "Checks first that there are rewards and that they reach the stake config's minimum withdrawal. With no rewards it says so and sends nothing."

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore validator.json --yes',
  ]

  static override flags = {
    validator: Flags.string({
      helpValue: '<address>',
      summary: 'Validator whose rewards to claim (default: the signer).',
    }),
    ...chainFlags,
    ...signerFlags,
    ...txFlags,
  }

  async run(): Promise<ClaimStakeRewardsReturnType> {
    const { flags } = await this.parse(RewardsClaim)
    const [{ claimStakeRewards }, support, { parseAddressFlag }, { formatTelAndWei }] = await Promise.all([
      import('../../lib/registry/claim-stake-rewards.js'),
      import('../../lib/registry/command-support.js'),
      import('../../lib/chain/address.js'),
      import('../../lib/chain/units.js'),
    ])
    const note = (line: string) => this.note(line)
    const validator = flags.validator === undefined ? undefined : parseAddressFlag(flags.validator, '--validator')
    const ctx = await support.openRegistryContext(flags)
    const signer = await support.signerFromFlags(flags, { action: 'claimStakeRewards', defaultFrom: validator }, note)
    const result = await claimStakeRewards(ctx, {
      signer,
      validator,
      report: support.createReporter(note),
      confirm: support.createConfirm({ yes: flags.yes, note }),
    })
    for (const line of support.outcomeLines(
      result,
      (sent) =>
        `Claimed ${formatTelAndWei(BigInt(result.rewards))} of rewards of ${result.validator}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    ))
      this.out(line)
    return result
  }
}
