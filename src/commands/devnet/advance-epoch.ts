import { BaseCommand } from '../../cli/base-command.js'
import { devnetDirFlag } from '../../devnet/node/cli-flags.js'
import type { AdvanceEpochJson } from '../../devnet/node/devnet-status.js'

export type AdvanceEpochResult = AdvanceEpochJson & { datadir: string }

export default class DevnetAdvanceEpoch extends BaseCommand {
  static override summary = "Conclude the devnet's current epoch now (for tests and rehearsals)."
  static override description =
    "Concludes the current epoch as the node does at an epoch boundary, in one block: applyIncentives (rewards credited to the epoch's leaders), applySlashes([]) (next generation), then concludeEpoch with the committee chosen like the node. When the epoch is not due yet, the chain's clock is moved forward to its end first (later blocks keep that time). Validators waiting for the boundary move on (PendingActivation to Active, PendingExit to Exited when due). Prints the new epoch, the closing block and how far time was moved."
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']
  static override flags = { ...devnetDirFlag }

  async run(): Promise<AdvanceEpochResult> {
    const { flags } = await this.parse(DevnetAdvanceEpoch)
    const { askDevnet } = await import('../../devnet/node/devnet-control.js')
    const r = await askDevnet<AdvanceEpochJson>(flags.datadir, 'advance-epoch')
    this.out(
      `epoch ${r.concluded} concluded in block ${r.blockNumber}; now in epoch ${r.epoch}${r.warpedSeconds > 0 ? ` (the chain's clock moved ${r.warpedSeconds} s forward)` : ''}`,
    )
    return { datadir: flags.datadir, ...r }
  }
}
