import { BaseCommand } from '../../../cli/base-command.js'
import type { GovernanceResult } from '../../../devnet/chain/governance.js'
import { devnetDirFlag } from '../../../devnet/node/cli-flags.js'
import { GOVERNANCE_DESCRIPTION_TAIL } from '../../../devnet/node/governance-flags.js'

export default class DevnetGovernanceUnpause extends BaseCommand {
  static override summary = "Unpause the devnet's registry as its owner."
  static override description =
    `Rehearses the registry's unpause() (OpenZeppelin Pausable): while paused, stake, delegateStake, activate, beginExit, unstake and reward claims revert with EnforcedPause; mint still works. Already unpaused: says so and sends nothing.

${GOVERNANCE_DESCRIPTION_TAIL}`
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']
  static override flags = { ...devnetDirFlag }

  async run(): Promise<GovernanceResult> {
    const { flags } = await this.parse(DevnetGovernanceUnpause)
    const { rehearseGovernance, governanceLines } = await import('../../../devnet/node/governance-client.js')
    const r = await rehearseGovernance(flags.datadir, { action: 'unpause' })
    for (const line of governanceLines(r)) this.out(line)
    return r
  }
}
