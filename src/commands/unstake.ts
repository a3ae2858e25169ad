import { Flags } from '@oclif/core'
import { BaseCommand } from '../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../cli/flags/chain.js'
import { datadirFlag } from '../cli/flags/common.js'
import type { UnstakeReturnType } from '../lib/registry/unstake.js'

export default class Unstake extends BaseCommand {
  static override summary = 'Unstake: pay out the stake plus rewards and retire the validator address. Irreversible.'

  static override description =
    `unstake by the validator or its delegator: unstake(validatorAddress, acceptRewardShortfall) on the next-generation registry, unstake(validatorAddress) on adiri (detected from the code). Accepted when the status is Staked, or Exited with the current epoch at least exit epoch + 1; tnv computes this first and explains when it will be possible. The stake and the rewards go to the validator address (self-staked) or to the delegator (no view names the delegator, so tnv says "the delegator" unless you are it). On the next generation, if the recipient rejects the transfer the amount is credited and withdrawn with \`tnv refund claim\`; on adiri a rejected payout reverts the unstake.

When the issuance pool cannot cover the accrued rewards: on the next generation the unstake fails unless --accept-reward-shortfall, which pays the rewards up to the pool's balance, forfeits the rest and pays the stake in full; adiri's unstake(address) has no such choice and reverts until governance funds the pool, so tnv refuses it and says so.

The address is retired for good: governance can never whitelist it again. Asks for confirmation on a terminal (default No); without one, pass --yes. Resumable like \`tnv stake\` and \`tnv exit\`: the signed transaction is recorded in <datadir>/tnv-journal.json when the data directory exists (and always in the sender's own journal), and a rerun waits for it instead of sending another.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore validator.json --yes',
    '<%= config.bin %> <%= command.id %> --validator 0xVALIDATOR --keystore delegator.json --accept-reward-shortfall --yes',
  ]

  static override flags = {
    validator: Flags.string({
      helpValue: '<address>',
      summary: 'Validator to unstake (default: the signer). A delegator passes the validator it staked for.',
    }),
    'accept-reward-shortfall': Flags.boolean({
      summary: 'Next generation: forfeit the rewards the issuance pool cannot cover (the stake is still paid in full).',
    }),
    ...chainFlags,
    ...signerFlags,
    ...txFlags,
    ...datadirFlag,
  }

  async run(): Promise<UnstakeReturnType> {
    const { flags } = await this.parse(Unstake)
    const [{ unstake }, support, cli, { parseAddressFlag }, { formatTelAndWei }, { pathExists }] = await Promise.all([
      import('../lib/registry/unstake.js'),
      import('../lib/registry/command-support.js'),
      import('../cli/registry-step.js'),
      import('../lib/chain/address.js'),
      import('../lib/chain/units.js'),
      import('../lib/fs/atomic.js'),
    ])
    const journalDir = (await pathExists(flags.datadir)) ? flags.datadir : null
    const validator = flags.validator === undefined ? undefined : parseAddressFlag(flags.validator, '--validator')
    const ctx = await support.openRegistryContext(flags)
    const signer = await cli.signerFromFlags(this.session, flags, { action: 'unstake', defaultFrom: validator })
    const result = await unstake(ctx, {
      signer,
      validator,
      acceptRewardShortfall: flags['accept-reward-shortfall'],
      report: this.session.reporter(),
      confirm: cli.stepConfirm(this.session, flags),
      journal: cli.stepJournal(this.session, { from: signer.address, datadir: journalDir }),
    })
    const { safeBatchOfStep } = await import('../cli/safe-output.js')
    const batch = await safeBatchOfStep(ctx, flags, result, {
      name: 'tnv unstake',
      out: (line) => this.out(line),
      note: (line) => this.note(line),
    })
    if (batch) return Object.assign(result, { safe: batch })
    for (const line of support.outcomeLines(result, (sent) => {
      const paidRewards = BigInt(result.rewards) - BigInt(result.rewardsForfeited)
      return `Unstaked ${result.validator}: stake ${formatTelAndWei(BigInt(result.stakeAmount))} and rewards ${formatTelAndWei(paidRewards)} paid to ${result.recipient ?? 'the delegator'}${BigInt(result.rewardsForfeited) > 0n ? ` (${formatTelAndWei(BigInt(result.rewardsForfeited))} of rewards forfeited)` : ''}; the address is retired. Transaction ${sent.txHash} in block ${sent.blockNumber}.`
    }))
      this.out(line)
    return result
  }
}
