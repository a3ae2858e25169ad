import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../../cli/flags/chain.js'
import { datadirFlag } from '../../cli/flags/common.js'
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
    ...datadirFlag,
  }

  async run(): Promise<ClaimStakeRewardsReturnType> {
    const { flags } = await this.parse(RewardsClaim)
    const [{ claimStakeRewards }, { runRegistryCommand }, { parseAddressFlag }, { formatTelAndWei }] =
      await Promise.all([
        import('../../lib/registry/claim-stake-rewards.js'),
        import('../../cli/registry-step.js'),
        import('../../lib/chain/address.js'),
        import('../../lib/chain/units.js'),
      ])
    const validator = flags.validator === undefined ? undefined : parseAddressFlag(flags.validator, '--validator')
    return runRegistryCommand({
      session: this.session,
      out: (line) => this.out(line),
      flags,
      action: 'claimStakeRewards',
      datadir: flags.datadir,
      defaultFrom: validator,
      step: (ctx, options) => claimStakeRewards(ctx, { ...options, validator }),
      sentLine: (r, sent) =>
        `Claimed ${formatTelAndWei(BigInt(r.rewards))} of rewards of ${r.validator}, paid to ${r.recipient ?? "the validator's delegator"}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    })
  }
}
