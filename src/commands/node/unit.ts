import { isAbsolute } from 'node:path'
import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { UsageError } from '../../lib/errors.js'
import type { WriteFilesReturnType } from '../../lib/node/unit-write.js'

export type NodeUnitResult = WriteFilesReturnType & { instance: string | null; enable: string[] }

export default class NodeUnit extends BaseCommand {
  static override summary = 'Write the systemd units: the node (restarted by systemd) and its check for Prometheus.'
  static override description =
    `Writes into --out: tnv-node@.service (a template: instance %i is the validator's name on the host; data directory <datadir-root>/%i, settings <config-dir>/%i.env, BLS passphrase through LoadCredential= from <config-dir>/%i/bls-passphrase), tnv-check@.service and tnv-check@.timer (tnv node check --prometheus <textfile-dir>/tnv-%i.prom every --check-interval seconds).

One supervisor: the node unit runs \`tnv node start --restart never\` in the foreground and systemd restarts it (Restart=on-failure); tnv's own --restart loop is for a node run by hand.

With --instance NAME, the node's flags after \`--\` are written to <config-dir>/NAME.env (no secret goes there). The passphrase file is yours to write (mode 0600, root-owned: systemd reads it for the service).

Each file is written atomically and only when it differs: a rerun says already-done. --check writes nothing and reports what would change (outcome would-change or already-done).`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --out /etc/systemd/system --instance v1 --chain testnet -- --chain adiri --http --http.api eth,net,web3,rpc,tn',
    '<%= config.bin %> <%= command.id %> --out /etc/systemd/system --check --json',
  ]
  static override usage =
    '<%= command.id %> --out <dir> [--instance <name> [--chain <network>] -- <node flags>...] [--check] [--json]'
  static override strict = false
  static override flags = {
    out: Flags.string({ required: true, helpValue: '<dir>', summary: 'Directory for the unit files.' }),
    instance: Flags.string({
      helpValue: '<name>',
      summary: "Also write <config-dir>/<name>.env with the node's flags (after --) for tnv-node@<name>.",
    }),
    chain: Flags.string({
      helpValue: '<network>',
      summary: 'With --instance: the network tnv node check compares with (TN_CHAIN in the .env file).',
    }),
    tnv: Flags.string({
      default: '/usr/local/bin/tnv',
      helpValue: '<path>',
      summary: 'The tnv executable on the host.',
    }),
    'node-binary': Flags.string({
      default: '/usr/local/bin/telcoin-network',
      helpValue: '<path>',
      summary: 'The node binary on the host.',
    }),
    'reference-node': Flags.boolean({
      summary: "Run tnv's reference node (devnet rehearsal) instead of a node binary.",
      exclusive: ['node-binary'],
    }),
    user: Flags.string({ default: 'tnv', summary: 'System user (and group) the node and the check run as.' }),
    'datadir-root': Flags.string({
      default: '/var/lib/tnv',
      helpValue: '<dir>',
      summary: 'Parent of the data directories.',
    }),
    'config-dir': Flags.string({
      default: '/etc/tnv',
      helpValue: '<dir>',
      summary: 'Holds <instance>.env and <instance>/bls-passphrase.',
    }),
    'textfile-dir': Flags.string({
      default: '/var/lib/prometheus/node-exporter',
      helpValue: '<dir>',
      summary: "node_exporter's textfile collector directory (Debian's default).",
    }),
    'check-interval': Flags.integer({ default: 60, min: 10, summary: 'Seconds between two checks.' }),
    check: Flags.boolean({ default: false, summary: 'Write nothing; report what would change.' }),
  }

  async run(): Promise<NodeUnitResult> {
    const { splitNodeArgs } = await import('../../lib/rpc/node-args.js')
    const { own, node } = splitNodeArgs(this.argv)
    const { flags } = await this.parse(NodeUnit, own)
    const [{ renderUnits, renderInstanceEnv }, { writeFilesIfChanged }] = await Promise.all([
      import('../../lib/node/unit-files.js'),
      import('../../lib/node/unit-write.js'),
    ])
    for (const [name, value] of [
      ['--tnv', flags.tnv],
      ['--datadir-root', flags['datadir-root']],
      ['--config-dir', flags['config-dir']],
      ['--textfile-dir', flags['textfile-dir']],
      ...(flags['reference-node'] ? [] : [['--node-binary', flags['node-binary']]]),
    ] as const)
      if (!isAbsolute(value) || /\s/.test(value))
        throw new UsageError(
          `${name} ${value} must be an absolute path without spaces: systemd runs the unit from /.`,
          {
            fix: `Give ${name} an absolute path.`,
          },
        )
    if (node && !flags.instance)
      throw new UsageError("Node flags after -- are written to an instance's settings, and no --instance was given.", {
        fix: 'Add --instance <name> (the validator name used in tnv-node@<name>).',
      })
    if (flags.instance !== undefined && !/^[A-Za-z0-9_.-]+$/.test(flags.instance))
      throw new UsageError(`--instance ${flags.instance} is not a plain unit instance name.`, {
        fix: 'Use letters, digits, ".", "_" and "-" only.',
      })
    const units = renderUnits({
      tnv: flags.tnv,
      nodeBinary: flags['reference-node'] ? null : flags['node-binary'],
      user: flags.user,
      datadirRoot: flags['datadir-root'],
      configDir: flags['config-dir'],
      textfileDir: flags['textfile-dir'],
      checkIntervalSeconds: flags['check-interval'],
    }).map((u) => ({ ...u, dir: flags.out }))
    const files = [...units]
    if (flags.instance)
      files.push({
        dir: flags['config-dir'],
        name: `${flags.instance}.env`,
        content: renderInstanceEnv({ nodeFlags: node ?? [], chain: flags.chain }),
        mode: 0o644,
      })
    const result = await writeFilesIfChanged({ files, check: flags.check })
    const enable = flags.instance ? [`tnv-node@${flags.instance}.service`, `tnv-check@${flags.instance}.timer`] : []
    for (const f of result.files)
      this.out(`${f.action === 'none' ? 'unchanged' : flags.check ? `would ${f.action}` : `${f.action}d`}  ${f.path}`)
    this.out(result.outcome)
    if (enable.length && !flags.check && result.outcome === 'changed')
      this.note(`next: systemctl daemon-reload && systemctl enable --now ${enable.join(' ')}`)
    return { ...result, instance: flags.instance ?? null, enable }
  }
}
