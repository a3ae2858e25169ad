import { BaseCommand } from '../../lib/base-command.js'
import { datadirFlag } from '../../lib/flags.js'
import type { NodeStatus } from '../../lib/node/status.js'

export default class NodeStatusCommand extends BaseCommand {
  static override summary = 'Show whether the node tnv started is running, its endpoints, chain id and block.'
  static override examples = ['<%= config.bin %> <%= command.id %> --datadir ./validator --json']
  static override flags = { ...datadirFlag }

  async run(): Promise<NodeStatus> {
    const { flags } = await this.parse(NodeStatusCommand)
    const { nodeStatus } = await import('../../lib/node/status.js')
    const s = await nodeStatus(flags.datadir)
    if (!s.running) {
      this.out(`no node started by tnv is running for ${flags.datadir}`)
      return s
    }
    this.out(`running   pid ${s.pid}${s.answering ? '' : ' (RPC not answering)'}`)
    if (s.chainId !== null) this.out(`chain id  ${s.chainId}`)
    if (s.blockNumber !== null) this.out(`block     ${s.blockNumber}`)
    for (const [k, v] of Object.entries(s.rpc ?? {})) if (v) this.out(`${k.padEnd(9)} ${v}`)
    if (s.workerEndpoints.length) this.out(`workers   ${s.workerEndpoints.join(', ')}`)
    if (s.logFile) this.out(`log       ${s.logFile}`)
    return s
  }
}
