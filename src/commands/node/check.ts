import { join } from 'node:path'
import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags } from '../../cli/flags/chain.js'
import { datadirFlag } from '../../cli/flags/common.js'
import { jwtSecretFlags, timeoutFlags } from '../../cli/flags/rpc.js'
import type { NodeCheckReport } from '../../lib/health/types.js'

export default class NodeCheckCommand extends BaseCommand {
  static override summary =
    'Is this validator healthy, and what next? One check of the node, the validator and the host.'
  static override description =
    `The local node (the one tnv started for --datadir, or --node-rpc-url): reachable, chain id, execution height against the network's endpoint (lag in blocks and seconds; when behind, a second read tells catching up from stalled), tn_latestConsensusHeader number and age (over 60 s is stale unless the network is idle too), tn_nodeMode, tn_info against node-info.yaml, and the RPC exposure findings of \`tnv rpc check\` on the endpoints it was started with.
The network is --chain / --rpc-url; when neither is given (nor TN_CHAIN / TN_RPC_URL), the one of the local node's chain id (2017 testnet, 487 mainnet, the devnet's). The validator (from the network's endpoint): whitelisted, status, epochs, committee seat now and next epoch, its reputation score in the latest consensus header, rewards.
The host: free disk in the data directory, the p2p UDP ports of node-info.yaml bound by the node process, the process tnv started.

Each finding has a level (ok, warn, fail; skip = not checked here, with the reason) and a fix. Nothing unreachable is an error: it is a finding.

Exit codes (for monitors, as Nagios-style checks): 0 all ok, 1 a warning, 2 a failure. Bad flags exit with their own codes (docs/ci.md).

--watch N repeats the check every N seconds until interrupted (with --json: one JSON line per check); under --watch a finding changes level only after the new level has held for --hold seconds (default 30), so a monitor does not flap. A single check run by a timer or cron holds levels the same way when given --hold: the levels of earlier runs are kept in --hold-state (default <datadir>/tnv-check-state.json). --prometheus FILE writes the figures for node_exporter's textfile collector after every check, atomically.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ~/tn --chain testnet',
    '<%= config.bin %> <%= command.id %> --datadir ~/tn --chain testnet --json',
    '<%= config.bin %> <%= command.id %> --datadir ~/tn --chain testnet --watch 60 --prometheus /var/lib/node_exporter/textfile_collector/tnv.prom',
    '<%= config.bin %> <%= command.id %> --datadir ~/tn --chain testnet --hold 30 --prometheus /var/lib/node_exporter/textfile_collector/tnv.prom',
    '<%= config.bin %> <%= command.id %> --node-rpc-url http://127.0.0.1:8545 --address 0xYourValidator --rpc-url https://rpc.adiri.tel --chain-id 2017',
  ]
  static override flags = {
    ...datadirFlag,
    address: Flags.string({
      helpValue: '<address>',
      summary: 'Validator address. Default: execution_address of node-info.yaml in --datadir.',
    }),
    'node-rpc-url': Flags.string({
      aliases: ['node-url'],
      helpValue: '<url|path>',
      summary:
        "The local node's HTTP endpoint or IPC path. Default: the endpoints of the node tnv started for --datadir.",
    }),
    ...chainFlags,
    ...jwtSecretFlags,
    watch: Flags.integer({
      min: 1,
      helpValue: '<seconds>',
      summary: 'Repeat the check every this many seconds until interrupted.',
    }),
    hold: Flags.integer({
      min: 0,
      helpValue: '<seconds>',
      summary:
        'A finding changes level only after the new level has held this long (the level waiting is shown as pending). Default under --watch: 30; a single check holds only when given it, over the runs kept in --hold-state.',
    }),
    'hold-state': Flags.string({
      helpValue: '<file>',
      dependsOn: ['hold'],
      exclusive: ['watch'],
      summary: `A single check with --hold: the file keeping the levels of earlier runs. Default: <datadir>/tnv-check-state.json.`,
    }),
    prometheus: Flags.string({
      helpValue: '<file>',
      summary:
        "Write the figures in the Prometheus text format to this file (atomically), for node_exporter's textfile collector.",
    }),
    exposure: Flags.boolean({
      default: true,
      allowNo: true,
      summary: 'Probe RPC exposure like `tnv rpc check` (one call per namespace and transport).',
    }),
    tolerance: Flags.integer({ default: 2, min: 0, summary: 'Blocks of difference still counted as in step.' }),
    'min-free-gib': Flags.integer({
      default: 50,
      min: 0,
      summary: 'Free disk (GiB) below which the check warns; below a quarter of it, it fails.',
    }),
    ...timeoutFlags,
  }

  async run(): Promise<NodeCheckReport> {
    const { flags } = await this.parse(NodeCheckCommand)
    const [
      { checkNode },
      { writePrometheusFinding },
      { DEFAULT_THRESHOLDS },
      { parseAddressFlag },
      { holdLevels },
      { holdAcrossRuns, HOLD_STATE_FILE },
    ] = await Promise.all([
      import('../../lib/health/check-node.js'),
      import('../../lib/health/prometheus.js'),
      import('../../lib/health/evaluate.js'),
      import('../../lib/chain/address.js'),
      import('../../lib/health/hold-levels.js'),
      import('../../lib/health/hold-state.js'),
    ])
    // levels are held under --watch (in memory) and, with --hold, across single runs (in
    // --hold-state); a single check without --hold reports what it sees (docs/node.md, "Levels")
    const hold = holdLevels(flags.watch === undefined ? 0 : (flags.hold ?? 30) * 1000)
    const holdState =
      flags.watch === undefined && flags.hold !== undefined
        ? (flags['hold-state'] ?? join(flags.datadir, HOLD_STATE_FILE))
        : null
    const address = flags.address === undefined ? undefined : parseAddressFlag(flags.address, '--address')
    if (flags.prometheus) await assertOutputKind(flags.prometheus, '--prometheus')
    if (flags['hold-state']) await assertOutputKind(flags['hold-state'], '--hold-state')
    let jwtSecretHex: string | null = null
    if (flags['jwt-secret'])
      jwtSecretHex = await (await import('../../lib/rpc/jwt.js')).readJwtSecret(flags['jwt-secret'])
    const once = async (): Promise<NodeCheckReport> => {
      let report = await checkNode({
        datadir: flags.datadir,
        nodeUrl: flags['node-rpc-url'],
        chain: flags,
        address,
        jwtSecretHex,
        exposure: flags.exposure,
        timeoutMs: flags.timeout,
        thresholds: {
          ...DEFAULT_THRESHOLDS,
          toleranceBlocks: flags.tolerance,
          minFreeBytes: flags['min-free-gib'] * 2 ** 30,
        },
      })
      if (holdState === null) report = hold.settle(report)
      else {
        const held = await holdAcrossRuns({ path: holdState, holdMs: (flags.hold ?? 0) * 1000, report })
        // stderr: a notice line, or with --json a `warning` JSON line (stdout stays the report)
        for (const message of held.notices)
          process.stderr.write(
            `${this.jsonEnabled() ? JSON.stringify({ event: 'warning', message }) : `Note: ${message}`}\n`,
          )
        report = held.report
      }
      if (flags.prometheus) report = await writePrometheusFinding(flags.prometheus, report)
      process.exitCode = report.exitCode
      return report
    }

    if (flags.watch === undefined) {
      const report = await once()
      this.render(report)
      return report
    }
    // --watch: until SIGINT/SIGTERM; each check printed (one JSON line each with --json)
    this.jsonLines = true
    let last: NodeCheckReport | undefined
    const { repeatUntilSignal } = await import('../../cli/repeat-until-signal.js')
    await repeatUntilSignal(flags.watch, async () => {
      last = await once()
      if (this.jsonEnabled()) this.logJson(last)
      else this.render(last)
    })
    if (last) process.exitCode = last.exitCode
    // every report is printed already: nothing more on stdout
    return undefined as unknown as NodeCheckReport
  }

  private render(r: NodeCheckReport): void {
    const mark = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL', skip: 'skip' } as const
    const width = Math.max(...r.findings.map((f) => f.id.length))
    this.out(
      `${r.checkedAt}  node ${r.targets.node ?? '-'}  network ${r.targets.network ?? '-'}  validator ${r.targets.validator ?? '-'}`,
    )
    for (const f of r.findings) {
      const pending = f.pending ? ` [${f.pending.level} for ${f.pending.sinceSeconds} s, held as ${f.level}]` : ''
      this.out(`${mark[f.level]}  ${f.id.padEnd(width)}  ${f.message}${pending}`)
      if (f.fix && f.level !== 'ok' && f.level !== 'skip') this.out(`${' '.repeat(width + 8)}fix: ${f.fix}`)
    }
    this.out(`${r.level.toUpperCase()}${r.worst ? ` (${r.worst})` : ''}: ${r.next}`)
    this.note(
      `${r.roundTrips.total} round trips (local ${r.roundTrips.local}, network ${r.roundTrips.network}, registry ${r.roundTrips.registry}) + ${r.roundTrips.exposureProbes} exposure probes, ${r.wallMs} ms`,
    )
  }
}

/**
 * A --prometheus or --hold-state path of the wrong kind (an existing directory, a device, below a
 * file) can never be written: refused before the first check (exit 3). A missing or unwritable
 * directory or a full disk may be fixed while the check runs (a disk mounted, space freed): those
 * become the `host.textfile` finding of each check, or a notice of the held levels not saved.
 */
async function assertOutputKind(path: string, flag: string): Promise<void> {
  const { assertOutputPath, OutputPathKindError } = await import('../../lib/fs/output-file.js')
  try {
    await assertOutputPath(path, flag)
  } catch (err) {
    if (err instanceof OutputPathKindError) throw err
  }
}
