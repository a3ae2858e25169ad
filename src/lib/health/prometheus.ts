/**
 * The figures of a node check in the Prometheus text exposition format (version 0.0.4): gauges,
 * and two counters from the run log (starts and unclean exits of the node tnv started), for
 * node_exporter's textfile collector, written atomically (temporary file in the same directory,
 * fsync, rename: the collector never reads half a file; it reads only `*.prom`).
 *
 * Hand-written rather than prom-client: the format needed here is a few gauges with `# HELP` and
 * `# TYPE` lines, label values escaped (backslash, double quote, newline); prom-client brings a
 * registry, default process metrics and cluster support for a server that scrapes it live, none
 * of which a file written once per check needs. The tests parse the file back with an independent
 * parser (parse-prometheus-text-format).
 */

import { TnvError } from '../errors.js'
import { writeOutputFile } from '../fs/output-file.js'
import { summarize } from './evaluate.js'
import type { Finding, FindingLevel, NodeCheckReport } from './types.js'

type Sample = { labels?: Record<string, string>; value: number }
type Metric = { name: string; help: string; type: 'gauge' | 'counter'; samples: Sample[] }

const LEVEL_VALUE: Record<FindingLevel, number> = { ok: 0, warn: 1, fail: 2, skip: -1 }

type Add = (name: string, help: string, value: number | null | undefined, labels?: Record<string, string>) => void
type Sink = { gauge: Add; counter: Add; metrics: Metric[] }
type Figures = NodeCheckReport['figures']

/** The report as gauges, in a fixed order; a figure tnv does not know is left out, never written as 0. */
export function nodeCheckMetrics(r: NodeCheckReport): Metric[] {
  const sink = metricSink()
  checkMetrics(sink, r)
  localNodeMetrics(sink, r.figures)
  if (r.figures.validator) validatorMetrics(sink, r.figures.validator)
  hostMetrics(sink, r.figures.host)
  return sink.metrics
}

/** Samples of one name gather under one metric; a value that is not a finite number is left out. */
function metricSink(): Sink {
  const metrics: Metric[] = []
  const add =
    (type: Metric['type']): Add =>
    (name, help, value, labels) => {
      if (value === null || value === undefined || !Number.isFinite(value)) return
      const existing = metrics.find((m) => m.name === name)
      const s = labels ? { labels, value } : { value }
      if (existing) existing.samples.push(s)
      else metrics.push({ name, help, type, samples: [s] })
    }
  return { gauge: add('gauge'), counter: add('counter'), metrics }
}

const num = (s: string | null | undefined) => (s === null || s === undefined ? null : Number(s))

/** The check itself: its level (the exit code), the validator it describes, each finding, when and how long. */
function checkMetrics({ gauge }: Sink, r: NodeCheckReport): void {
  gauge('tnv_node_check_status', 'Worst level of the check: 0 ok, 1 warn, 2 fail (the exit code).', r.exitCode)
  // the validator's address as a label of its own series: alert rules and dashboards join on it (monitoring/)
  if (r.targets.validator)
    gauge('tnv_validator_info', 'The validator this file describes (the address is the label); always 1.', 1, {
      validator: r.targets.validator,
    })
  for (const x of r.findings)
    gauge(
      'tnv_node_check_finding',
      'Level of each finding: 0 ok, 1 warn, 2 fail, -1 not checked.',
      LEVEL_VALUE[x.level],
      { id: x.id, area: x.area },
    )
  gauge('tnv_node_check_timestamp_seconds', 'When the check ran, Unix seconds.', Date.parse(r.checkedAt) / 1000)
  gauge('tnv_node_check_duration_seconds', 'Wall time of the check.', r.wallMs / 1000)
  gauge(
    'tnv_node_check_round_trips',
    'JSON-RPC round trips of the check, exposure probes excluded.',
    r.roundTrips.total,
  )
}

/** The local node against the network: up, chain, blocks, lag, consensus, mode. */
function localNodeMetrics({ gauge }: Sink, f: Figures): void {
  gauge('tnv_node_up', 'The local node answers JSON-RPC (1) or not (0).', f.local ? (f.local.reachable ? 1 : 0) : 0)
  gauge('tnv_node_chain_id', 'Chain id the local node serves.', f.local?.chainId)
  gauge('tnv_node_block_number', 'Latest execution block of the local node.', num(f.local?.blockNumber))
  gauge('tnv_network_block_number', 'Latest execution block of the network endpoint.', num(f.network?.blockNumber))
  gauge('tnv_node_lag_blocks', 'Network block minus local block.', f.lagBlocks)
  gauge('tnv_node_lag_seconds', "Network latest block time minus the local one's.", f.lagSeconds)
  gauge(
    'tnv_node_consensus_number',
    'Latest consensus header number of the local node.',
    num(f.local?.consensus?.number),
  )
  gauge(
    'tnv_node_consensus_age_seconds',
    "Seconds since the local node's latest commit.",
    f.local?.consensus?.ageSeconds,
  )
  if (f.local?.nodeMode)
    gauge('tnv_node_mode', 'tn_nodeMode of the local node (the mode is the label).', 1, { mode: f.local.nodeMode })
}

/** The validator in the registry: status, whitelist, committees, epoch, rewards, reputation. */
function validatorMetrics({ gauge }: Sink, v: NonNullable<Figures['validator']>): void {
  gauge('tnv_validator_status', 'Registry status of the validator (the status is the label).', 1, {
    status: v.status,
  })
  gauge('tnv_validator_whitelisted', 'Holds a ConsensusNFT.', v.whitelisted ? 1 : 0)
  gauge('tnv_validator_in_committee', 'In the current committee.', v.inCommittee ? 1 : 0)
  if (v.inNextCommittee !== null)
    gauge('tnv_validator_in_next_committee', "In the next epoch's committee.", v.inNextCommittee ? 1 : 0)
  gauge('tnv_validator_current_epoch', 'Current epoch of the registry.', v.currentEpoch)
  gauge(
    'tnv_validator_rewards_tel',
    'Accrued rewards, TEL (a float: the exact wei is in --json).',
    Number(v.rewards) / 1e18,
  )
  gauge('tnv_validator_reputation_score', 'Reputation score in the latest consensus header.', v.reputationScore)
}

/** The host: free disk, the p2p ports bound, and the restarts the run log counted. */
function hostMetrics(sink: Sink, host: Figures['host']): void {
  const { gauge } = sink
  gauge('tnv_host_disk_free_bytes', 'Free bytes on the file system of the data directory.', host.diskFreeBytes)
  for (const u of host.udpPorts)
    if (u.bound !== null)
      gauge('tnv_host_p2p_port_bound', 'A p2p UDP port of node-info.yaml is bound on this host.', u.bound ? 1 : 0, {
        port: String(u.port),
      })
  if (host.restarts) restartMetrics(sink, host.restarts)
}

/** Counters from the run log's totals (kept when old runs drop off: rate() and increase() work on them), and the windows. */
function restartMetrics({ gauge, counter }: Sink, runs: NonNullable<Figures['host']['restarts']>): void {
  counter('tnv_node_starts_total', 'Starts of the node tnv recorded for this data directory.', runs.totalStarts)
  counter(
    'tnv_node_unclean_exits_total',
    'Unclean exits (crashes, kills, found dead) of the node tnv started for this data directory.',
    runs.totalUnclean,
  )
  gauge('tnv_node_unclean_exits', 'Unclean exits of the node in the window (the label).', runs.unclean1h, {
    window: '1h',
  })
  gauge('tnv_node_unclean_exits', 'Unclean exits of the node in the window (the label).', runs.unclean24h, {
    window: '24h',
  })
  if (runs.lastUnclean)
    gauge(
      'tnv_node_last_unclean_exit_timestamp_seconds',
      'When the node last exited uncleanly, Unix seconds.',
      Date.parse(runs.lastUnclean.exitedAt) / 1000,
    )
}

export function formatPrometheus(metrics: Metric[]): string {
  const lines: string[] = []
  for (const m of metrics) {
    lines.push(`# HELP ${m.name} ${m.help.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}`)
    lines.push(`# TYPE ${m.name} ${m.type}`)
    for (const s of m.samples) {
      const labels = s.labels
        ? `{${Object.entries(s.labels)
            .map(([k, v]) => `${k}="${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`)
            .join(',')}}`
        : ''
      lines.push(`${m.name}${labels} ${formatValue(s.value)}`)
    }
  }
  return `${lines.join('\n')}\n`
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN'
  if (v === Number.POSITIVE_INFINITY) return '+Inf'
  if (v === Number.NEGATIVE_INFINITY) return '-Inf'
  return String(v)
}

/**
 * Writes the textfile for `report` and returns the report with one more finding, `host.textfile`:
 * ok when written; warn when it could not be (the directory missing, not writable, a full disk),
 * with the explained error as its message and fix. The check's own findings and exit code stand:
 * a textfile that cannot be written never hides them (a monitor reads the exit code either way).
 * A path of the wrong kind (a directory) is refused before the first check (exit 3, assertOutputPath).
 */
export async function writePrometheusFinding(path: string, report: NodeCheckReport): Promise<NodeCheckReport> {
  let finding: Finding
  try {
    await writePrometheusFile(path, report)
    finding = { id: 'host.textfile', area: 'host', level: 'ok', message: `figures written to ${path}`, fix: null }
  } catch (err) {
    const why = err instanceof TnvError ? err : null
    finding = {
      id: 'host.textfile',
      area: 'host',
      level: 'warn',
      message:
        why?.message ?? `the textfile ${path} was not written: ${err instanceof Error ? err.message : String(err)}`,
      fix: why?.fix ?? 'Check the path given to --prometheus.',
    }
  }
  const findings = [...report.findings, finding]
  return { ...report, findings, ...summarize(findings, report.figures.validator) }
}

/**
 * Writes the report's metrics to `path` atomically (mode 0644: node_exporter reads it as another
 * user). A failure is explained with the path (src/lib/fs/output-file.ts).
 */
export async function writePrometheusFile(path: string, report: NodeCheckReport): Promise<void> {
  await writeOutputFile(path, formatPrometheus(nodeCheckMetrics(report)), { flag: '--prometheus', mode: 0o644 })
}
