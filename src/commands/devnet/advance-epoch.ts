import { devnetDirFlag } from '../../devnet/node/cli-flags.js'
import { BaseCommand } from '../../lib/base-command.js'

export type AdvanceEpochResult = { datadir: string; epoch: number; blockNumber: number }

export default class DevnetAdvanceEpoch extends BaseCommand {
  static override summary = "Conclude the devnet's current epoch now (for tests and rehearsals)."
  static override description =
    "Mines up to the current epoch's last block and concludes it, as the protocol does at an epoch boundary: validators waiting for the boundary move on (PendingActivation to Active, PendingExit to Exited when due), rewards are applied, and the next epoch's committee takes over. Prints the new epoch and block number."
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']
  static override flags = { ...devnetDirFlag }

  async run(): Promise<AdvanceEpochResult> {
    const { flags } = await this.parse(DevnetAdvanceEpoch)
    const { askDevnet } = await import('../../devnet/node/devnet-control.js')
    const r = await askDevnet<{ epoch: number; blockNumber: number }>(flags.datadir, 'advance-epoch')
    this.out(`now in epoch ${r.epoch} (latest block ${r.blockNumber})`)
    return { datadir: flags.datadir, ...r }
  }
}
