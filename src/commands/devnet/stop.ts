import { BaseCommand } from '../../cli/base-command.js'
import { devnetDirFlag } from '../../devnet/node/cli-flags.js'

export type DevnetStopResult = {
  datadir: string
  stopped: boolean
  wasRunning: boolean
  pid: number | null
  staleRemoved: boolean
}

export default class DevnetStop extends BaseCommand {
  static override summary = 'Stop the devnet node cleanly; the chain is saved and resumes on the next start.'
  static override description =
    'Sends SIGTERM to the devnet node of the directory and waits until it has saved the chain and exited. When no devnet runs there, says so and succeeds (a runtime file left by a node that died is removed).'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --datadir ./my-devnet --json',
  ]
  static override flags = { ...devnetDirFlag }

  async run(): Promise<DevnetStopResult> {
    const { flags } = await this.parse(DevnetStop)
    const { stopDevnet } = await import('../../devnet/node/stop-devnet.js')
    const r = await stopDevnet(flags.datadir)
    if (r.stopped) this.out(`devnet stopped (pid ${r.pid}); the chain is saved in ${flags.datadir}`)
    else
      this.out(
        `No devnet is running for ${flags.datadir}: nothing to stop.${r.staleRemoved ? ' (Removed the runtime file of a node that had died.)' : ''}`,
      )
    return {
      datadir: flags.datadir,
      stopped: r.stopped,
      wasRunning: r.stopped,
      pid: r.pid,
      staleRemoved: r.staleRemoved,
    }
  }
}
