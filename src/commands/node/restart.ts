import { BaseCommand } from '../../cli/base-command.js'
import { upgradeFlags } from '../../cli/node-upgrade.js'
import { describeSupervisor } from '../../lib/node/supervisor.js'
import type { UpgradeNodeReturnType } from '../../lib/node/upgrade.js'

export default class NodeRestart extends BaseCommand {
  static override summary = 'Restart the node tnv runs for a data directory when the committee can spare it.'
  static override description =
    `The same binary and flags: preflight, the safe window (docs/node.md, "Upgrade and restart"), stop, start under the local fence, and wait (--deadline) until tn_nodeMode is back and the consensus headers advance; a node that does not come back exits 23. A node a systemd unit runs (--unit NAME, or found from its cgroup) is restarted with \`systemctl stop\` and \`systemctl start\`. JSON lines with --json; --check shows the plan; resumable after a kill (<datadir>/tnv-upgrade.json).`
  static override examples = ['<%= config.bin %> <%= command.id %> --datadir /var/lib/tn --json']
  static override flags = { ...upgradeFlags }

  async run(): Promise<UpgradeNodeReturnType> {
    this.jsonLines = true
    const { flags } = await this.parse(NodeRestart)
    const { upgradeWithFlags, describeUpgradeEvent } = await import('../../cli/node-upgrade.js')
    const result = await upgradeWithFlags(flags, undefined, {
      env: this.session.env,
      note: (t) => this.note(t),
      emit: (e) => (this.jsonEnabled() ? this.logJson(e) : this.note(describeUpgradeEvent(e))),
    })
    if (result.outcome === 'would-change') this.out('would-change (--check): the plan above; nothing was changed')
    else
      this.out(
        `restarted: pid ${result.state?.pid}, under ${describeSupervisor(result.journal?.supervisor ?? { kind: 'tnv' })}`,
      )
    return result
  }
}
