import { devnetDirFlag } from '../../devnet/node/cli-flags.js'
import type { DevnetStatus } from '../../devnet/node/devnet-status.js'
import { BaseCommand } from '../../lib/base-command.js'

export default class DevnetStatusCommand extends BaseCommand {
  static override summary = 'Show the running devnet: endpoints, block, epoch, committee and the public dev keys.'
  static override description =
    `Asks the devnet node of the directory (over its control socket) where it serves, the chain's block and epoch, the blocks left to the next epoch boundary, the committee, and the governance and funded dev accounts with their keys.

The keys are PUBLIC devnet keys, the same on every tnv devnet: use them only on the devnet. Exit code 23 when no devnet is running.`
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']
  static override flags = { ...devnetDirFlag }

  async run(): Promise<DevnetStatus> {
    const { flags } = await this.parse(DevnetStatusCommand)
    const { askDevnet } = await import('../../devnet/node/devnet-control.js')
    const s = await askDevnet<DevnetStatus>(flags.datadir, 'status')
    this.out(`devnet running (pid ${s.pid}) in ${s.datadir}`)
    this.out(`  chain id     ${s.chainId}`)
    for (const w of s.workers) {
      const prefix = s.workers.length > 1 ? `worker ${w.worker} ` : ''
      if (w.http) this.out(`  ${`${prefix}http`.padEnd(12)} ${w.http}`)
      if (w.ws) this.out(`  ${`${prefix}ws`.padEnd(12)} ${w.ws}`)
      if (w.ipc) this.out(`  ${`${prefix}ipc`.padEnd(12)} ${w.ipc}`)
    }
    this.out(`  block        ${s.blockNumber}`)
    this.out(
      `  epoch        ${s.epoch} (from block ${s.epochStartBlock}, ${s.epochBlocks} blocks; next epoch at block ${s.nextEpochBlock}, ${s.blocksToNextEpoch} blocks to go)`,
    )
    this.out(`  committee    ${s.committee.join(', ')}`)
    this.out(`  registry     ${s.registry}`)
    this.out(`  issuance     ${s.issuance}`)
    this.out('')
    this.out(`PUBLIC DEVNET KEYS. ${s.keysNotice}`)
    this.out(`  governance   ${s.governance.address}  ${s.governance.privateKey}`)
    for (const [i, a] of s.accounts.entries())
      this.out(`  account ${String(i).padEnd(4)} ${a.address}  ${a.privateKey}`)
    return s
  }
}
