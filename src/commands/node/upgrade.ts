import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { upgradeFlags } from '../../cli/node-upgrade.js'
import { describeSupervisor } from '../../lib/node/supervisor.js'
import type { UpgradeNodeReturnType } from '../../lib/node/upgrade.js'

export default class NodeUpgrade extends BaseCommand {
  static override summary = 'Replace the node binary when the committee can spare the node, and roll back by itself.'
  static override description =
    `Preflight (the new binary runs, prints its version, and its \`node --help\` lists every flag tnv passes), then the safe window (not in the committee now or next, or --margin seconds after an epoch boundary for a committee member), then: the current binary kept at <binary>.tnv-previous, the node stopped, the new binary copied over <binary>, the node started with the same flags under the local fence, and tnv waits (--deadline) until tn_nodeMode is back (CvvActive for a committee member) and the consensus headers advance. Otherwise it rolls back by itself: the previous binary back at <binary>, started and verified, exit 31.

A node a systemd unit runs (tnv-node@.service from \`tnv node unit\`; --unit NAME, or found from the node's cgroup and confirmed with \`systemctl show\`) is stopped and started with systemctl, never by tnv: the new binary is copied over the path the unit names (TN_NODE_BINARY), the same steps and rollback apply.

Every step is a JSON line with --json; --check shows the plan and changes nothing. The journal <datadir>/tnv-upgrade.json makes it resumable: after a kill, run the same command again. docs/node.md, "Upgrade and restart".`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir /var/lib/tn --binary /opt/tn/telcoin-network-v0.15.0 --check',
    '<%= config.bin %> <%= command.id %> --datadir /var/lib/tn --binary /opt/tn/telcoin-network-v0.15.0 --json',
  ]
  static override flags = {
    ...upgradeFlags,
    binary: Flags.string({ required: true, summary: 'The new node binary.', helpValue: '<path>' }),
  }

  async run(): Promise<UpgradeNodeReturnType> {
    this.jsonLines = true
    const { flags } = await this.parse(NodeUpgrade)
    const [{ upgradeWithFlags, describeUpgradeEvent }, { resolveNodeBinary }] = await Promise.all([
      import('../../cli/node-upgrade.js'),
      import('../../lib/node/binary.js'),
    ])
    resolveNodeBinary({ flag: flags.binary, env: this.session.env })
    const result = await upgradeWithFlags(flags, flags.binary, {
      env: this.session.env,
      note: (t) => this.note(t),
      emit: (e) => (this.jsonEnabled() ? this.logJson(e) : this.note(describeUpgradeEvent(e))),
    })
    if (result.outcome === 'would-change') this.out('would-change (--check): the plan above; nothing was changed')
    else
      this.out(
        `upgraded: ${result.journal?.binary} (${result.journal?.newVersion}) runs as pid ${result.state?.pid}, under ${describeSupervisor(result.journal?.supervisor ?? { kind: 'tnv' })}`,
      )
    return result
  }
}
