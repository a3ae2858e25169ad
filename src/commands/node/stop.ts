import { BaseCommand } from '../../cli/base-command.js'
import { datadirFlag } from '../../cli/flags/common.js'
import type { StopNodeReturnType } from '../../lib/node/stop.js'

export default class NodeStop extends BaseCommand {
  static override summary =
    'Stop the node tnv started for a data directory (SIGTERM, then SIGKILL after a grace period).'
  static override examples = ['<%= config.bin %> <%= command.id %> --datadir ./validator']
  static override flags = { ...datadirFlag }

  async run(): Promise<StopNodeReturnType> {
    const { flags } = await this.parse(NodeStop)
    const { stopNode } = await import('../../lib/node/stop.js')
    const r = await stopNode({ datadir: flags.datadir })
    if (!r.stopped) this.out(`no node started by tnv is running for ${flags.datadir}; nothing to stop`)
    else this.out(r.forced ? `node ${r.pid} did not stop in time and was killed` : `node ${r.pid} stopped`)
    return r
  }
}
