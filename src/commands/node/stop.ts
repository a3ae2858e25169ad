import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { datadirFlag } from '../../cli/flags/common.js'
import type { NodeRunCheckReturnType } from '../../lib/node/run-check.js'
import type { StopNodeReturnType } from '../../lib/node/stop.js'

export default class NodeStop extends BaseCommand {
  static override summary =
    'Stop the node tnv started for a data directory (SIGTERM, then SIGKILL after a grace period).'
  static override examples = ['<%= config.bin %> <%= command.id %> --datadir ./validator']
  static override flags = {
    ...datadirFlag,
    check: Flags.boolean({
      default: false,
      summary: 'Stop nothing; say whether a node runs (outcome would-change) or not (already-done).',
    }),
  }

  async run(): Promise<StopNodeReturnType | NodeRunCheckReturnType> {
    const { flags } = await this.parse(NodeStop)
    if (flags.check) {
      const plan = await (await import('../../lib/node/run-check.js')).checkNodeRun({
        datadir: flags.datadir,
        want: 'stopped',
      })
      this.out(
        plan.running ? `would stop node ${plan.pid}` : `already-done: no node started by tnv runs for ${flags.datadir}`,
      )
      return plan
    }
    const { stopNode } = await import('../../lib/node/stop.js')
    const r = await stopNode({ datadir: flags.datadir })
    if (!r.stopped) this.out(`no node started by tnv is running for ${flags.datadir}; nothing to stop`)
    else this.out(r.forced ? `node ${r.pid} did not stop in time and was killed` : `node ${r.pid} stopped`)
    return r
  }
}
