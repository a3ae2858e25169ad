import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { datadirFlag } from '../../cli/flags/common.js'
import { keyGuardFlags } from '../../cli/flags/key-guard.js'
import type { MigrateReturnType } from '../../lib/node/migrate.js'
import type { CheckMigrateReturnType } from '../../lib/node/migrate-check.js'

export default class NodeMigrate extends BaseCommand {
  static override summary =
    'Move a validator to another host with its key never live twice: `out` on the old host, then `in` on the new.'
  static override description =
    `out (old host): stop the node, prove the key silent in the network's consensus headers over --doppelganger-window seconds (a copy active elsewhere is refused, exit 29), and mark the data directory moved out (tnv node start then refuses it here).

in (new host, with the data directory copied over): prove the key silent over the window (the old host stopped), start the node detached under the local fence with the node flags after --, and confirm the authority active again in the headers (--confirm-timeout), exit 23 when it does not show.

JSON lines with --json; each side is resumable after a kill (<datadir>/tnv-migrate.json): run the same command again. docs/node.md, "Migrate".

--check stops, starts and writes nothing: it reads the side's journal, the node of the data directory and the network's endpoint once (an endpoint that fails exits as the run would), checks for in what the start checks (the node binary, an RPC endpoint, free ports, the local fence), and lists the steps the run would take (outcome would-change), or says already-done when the journal records the side finished (out: the node stopped; in: it runs). The proof of silence itself (the window of headers) is the run's.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> out --datadir /var/lib/tn --json',
    '<%= config.bin %> <%= command.id %> out --datadir /var/lib/tn --check --json   # what out would do',
    '<%= config.bin %> <%= command.id %> in --datadir /var/lib/tn --node-binary /usr/local/bin/telcoin-network -- --chain adiri --http --http.api eth,net,web3,rpc,tn',
  ]
  static override usage =
    '<%= command.id %> out|in [--json] [--datadir <path>] [--network-url <url>] [--doppelganger-window <seconds>] [--node-binary <path>] [--confirm-timeout <seconds>] [--check] [-- <node flags>...]'
  static override strict = false
  static override args = {
    side: Args.string({
      options: ['out', 'in'],
      required: true,
      description: 'out on the old host, in on the new one',
    }),
  }
  static override flags = {
    ...datadirFlag,
    // the proof of silence is the point of a migration: it cannot be skipped
    'network-url': keyGuardFlags['network-url'],
    'doppelganger-window': keyGuardFlags['doppelganger-window'],
    'node-binary': Flags.string({
      summary: 'in: path of the node binary.',
      env: 'TN_NODE_BINARY',
      helpValue: '<path>',
    }),
    'confirm-timeout': Flags.integer({
      default: 120,
      min: 1,
      helpValue: '<seconds>',
      summary: 'in: how long to wait for the authority to show active again.',
    }),
    check: Flags.boolean({
      summary:
        'Do nothing: run every precondition, then list the steps it would take (outcome would-change) or say it is done.',
    }),
  }

  async run(): Promise<MigrateReturnType | CheckMigrateReturnType> {
    this.jsonLines = true
    const { splitNodeArgs } = await import('../../lib/rpc/node-args.js')
    const { own, node } = splitNodeArgs(this.argv)
    const { args, flags } = await this.parse(NodeMigrate, own)
    const side = args.side as 'out' | 'in'
    const { migrateInputs, checkMigrateSide, runMigrate } = await import('../../cli/node-migrate.js')
    const inputs = await migrateInputs(this.session, flags, side, node)
    if (flags.check) {
      const r = await checkMigrateSide(this.session, flags, inputs)
      this.out(`${r.outcome}: migrate ${side} of ${flags.datadir} (check: nothing was stopped, started or written)`)
      for (const s of r.steps) this.out(`  ${s.step.padEnd(7)} ${s.action.padEnd(9)} ${s.detail}`)
      return r
    }
    const result = await runMigrate(this.session, flags, inputs, {
      note: (t) => this.note(t),
      onEvent: (e) => (this.jsonEnabled() ? this.logJson(e) : this.note(JSON.stringify(e))),
    })
    const done = result.outcome === 'already-done'
    this.out(
      side === 'out'
        ? done
          ? `already-done: ${flags.datadir} moved out before and its node is stopped; nothing was run`
          : `moved out: ${flags.datadir} stopped, the key silent; now run \`tnv node migrate in\` on the new host`
        : done
          ? `already-done: moved in before, the node runs (pid ${result.state?.pid}); nothing was run`
          : `moved in: the node runs (pid ${result.state?.pid})`,
    )
    return result
  }
}
