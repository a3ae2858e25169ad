import { Args } from '@oclif/core'
import { BaseCommand } from '../../../cli/base-command.js'
import type { GovernanceResult } from '../../../devnet/chain/governance.js'
import { devnetDirFlag } from '../../../devnet/node/cli-flags.js'
import { GOVERNANCE_DESCRIPTION_TAIL } from '../../../devnet/node/governance-flags.js'

export default class DevnetGovernanceFund extends BaseCommand {
  static override summary =
    "Fund the devnet's Issuance pool (allocateIssuance) as the registry owner, so reward claims can be paid."
  static override description =
    `Rewards accrue as on the real chain: applyIncentives credits them to validators at each epoch boundary, but they are paid (claims, unstake) from the Issuance pool, which holds only what governance sends it with allocateIssuance(). An empty pool stays empty, and a claim then reverts with the pool's InsufficientBalance. This sends AMOUNT TEL with allocateIssuance(); the owner's TEL for it is created on the devnet for the rehearsal.

${GOVERNANCE_DESCRIPTION_TAIL}`
  static override examples = [
    '<%= config.bin %> <%= command.id %> 100000',
    '<%= config.bin %> <%= command.id %> 2500.5 --json',
  ]
  static override args = {
    amount: Args.string({ required: true, description: 'TEL to put in the pool (decimal, e.g. 100000 or 2500.5).' }),
  }
  static override flags = { ...devnetDirFlag }

  async run(): Promise<GovernanceResult> {
    const { args, flags } = await this.parse(DevnetGovernanceFund)
    const [{ parseEther }, { BadInputError }, { formatTelAndWei }, { rehearseGovernance, governanceLines }] =
      await Promise.all([
        import('viem'),
        import('../../../lib/errors.js'),
        import('../../../lib/chain/units.js'),
        import('../../../devnet/node/governance-client.js'),
      ])
    const text = args.amount.trim().replace(/\s*TEL$/i, '')
    if (!/^[0-9]+(\.[0-9]{1,18})?$/.test(text) || parseEther(text) === 0n)
      throw new BadInputError(`${JSON.stringify(args.amount)} is not an amount of TEL.`, {
        fix: 'Pass a positive decimal number of TEL with at most 18 decimals, e.g. 100000 or 2500.5.',
      })
    const amount = parseEther(text)
    this.note(`Funding the Issuance pool with ${formatTelAndWei(amount)} (REHEARSAL-ONLY)…`)
    const r = await rehearseGovernance(flags.datadir, { action: 'fund', amountWei: amount.toString() })
    for (const line of governanceLines(r)) this.out(line)
    if (r.issuancePoolWei) this.out(`  Issuance pool now holds ${formatTelAndWei(BigInt(r.issuancePoolWei))}`)
    return r
  }
}
