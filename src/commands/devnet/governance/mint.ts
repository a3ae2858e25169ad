import { Args } from '@oclif/core'
import { BaseCommand } from '../../../cli/base-command.js'
import type { GovernanceResult } from '../../../devnet/chain/governance.js'
import { devnetDirFlag } from '../../../devnet/node/cli-flags.js'
import { GOVERNANCE_DESCRIPTION_TAIL } from '../../../devnet/node/governance-flags.js'

export default class DevnetGovernanceMint extends BaseCommand {
  static override summary = 'Whitelist an address on the devnet: mint its ConsensusNFT as the registry owner.'
  static override description =
    `Issues the soulbound ConsensusNFT that lets the address stake. Already whitelisted: says so and sends nothing. A retired address can never be whitelisted again (the registry reverts AlreadyDefined).

${GOVERNANCE_DESCRIPTION_TAIL}`
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0xEFF49f2E7801AaC2d51A059c103D151e012db893',
    '<%= config.bin %> <%= command.id %> 0xEFF49f2E7801AaC2d51A059c103D151e012db893 --json',
  ]
  static override args = { address: Args.string({ required: true, description: 'The validator address.' }) }
  static override flags = { ...devnetDirFlag }

  async run(): Promise<GovernanceResult> {
    const { args, flags } = await this.parse(DevnetGovernanceMint)
    const [{ parseAddressFlag }, { rehearseGovernance, governanceLines }] = await Promise.all([
      import('../../../lib/chain/address.js'),
      import('../../../devnet/node/governance-client.js'),
    ])
    const validator = parseAddressFlag(args.address, 'the address')
    const r = await rehearseGovernance(flags.datadir, { action: 'mint', validator })
    for (const line of governanceLines(r)) this.out(line)
    return r
  }
}
