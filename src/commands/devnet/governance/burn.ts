import { Args } from '@oclif/core'
import { BaseCommand } from '../../../cli/base-command.js'
import type { GovernanceResult } from '../../../devnet/chain/governance.js'
import { devnetDirFlag } from '../../../devnet/node/cli-flags.js'
import { GOVERNANCE_DESCRIPTION_TAIL } from '../../../devnet/node/governance-flags.js'

export default class DevnetGovernanceBurn extends BaseCommand {
  static override summary =
    "Burn an address's ConsensusNFT on the devnet as the registry owner (eject, confiscate, retire)."
  static override description =
    `A never-staked address is retired and its NFT burned; a staked validator is ejected from the committees, its stake confiscated to the Issuance pool, and it is exited, retired and unstaked. Irreversible on the devnet's chain.

${GOVERNANCE_DESCRIPTION_TAIL}`
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0xEFF49f2E7801AaC2d51A059c103D151e012db893',
    '<%= config.bin %> <%= command.id %> 0xEFF49f2E7801AaC2d51A059c103D151e012db893 --json',
  ]
  static override args = { address: Args.string({ required: true, description: 'The validator address.' }) }
  static override flags = { ...devnetDirFlag }

  async run(): Promise<GovernanceResult> {
    const { args, flags } = await this.parse(DevnetGovernanceBurn)
    const [{ parseAddressFlag }, { rehearseGovernance, governanceLines }] = await Promise.all([
      import('../../../lib/chain/address.js'),
      import('../../../devnet/node/governance-client.js'),
    ])
    const validator = parseAddressFlag(args.address, 'the address')
    const r = await rehearseGovernance(flags.datadir, { action: 'burn', validator })
    for (const line of governanceLines(r)) this.out(line)
    return r
  }
}
