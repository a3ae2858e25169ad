import { BaseCommand } from '../../cli/base-command.js'
import { datadirFlag } from '../../cli/flags/common.js'
import type { NodeStatus } from '../../lib/node/status.js'

export default class NodeStatusCommand extends BaseCommand {
  static override summary =
    'Show whether the node tnv started is running: endpoints, chain id, tn_nodeMode, latest consensus header and block.'
  static override description =
    'The node is judged as the real tools judge it: tn_nodeMode (CvvActive, CvvInactive = catching up, Observer) and the latest consensus header (tn_latestConsensusHeader, or the older alias tn_latestHeader) with the age of its commit (over 60 s is stale), when the node serves the tn namespace on the endpoint tnv dials; otherwise eth_blockNumber alone.'
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
    if (s.nodeMode !== null)
      this.out(`mode      ${s.nodeMode}${s.nodeMode === 'CvvInactive' ? ' (committee member still catching up)' : ''}`)
    if (s.consensus !== null)
      this.out(
        `consensus ${s.consensus.number} (${s.consensus.method}${s.consensus.ageSeconds === null ? '' : `, committed ${s.consensus.ageSeconds} s ago${s.consensus.ageSeconds > 60 ? ': STALE' : ''}`})`,
      )
    else if (s.answering) this.out('consensus not served here (no tn namespace): judged by eth_blockNumber')
    if (s.blockNumber !== null) this.out(`block     ${s.blockNumber}`)
    for (const u of s.unusable) this.note(`warning: set aside an answer of the wrong shape: ${u}`)
    for (const [k, v] of Object.entries(s.rpc ?? {})) if (v) this.out(`${k.padEnd(9)} ${v}`)
    if (s.workerEndpoints.length) this.out(`workers   ${s.workerEndpoints.join(', ')}`)
    if (s.logFile) this.out(`log       ${s.logFile}`)
    return s
  }
}
