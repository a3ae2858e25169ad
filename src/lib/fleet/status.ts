/**
 * `tnv fleet status`: one row per validator of an inventory, each from one `node check`
 * (checkNode, RPC exposure probes off), read in parallel with at most `concurrency` checks at a
 * time. Rows that need attention come first (fail, then warn, then ok; inventory order within a
 * level), and the fleet's exit code is the worst row's (0 ok, 1 warn, 2 fail: node check's).
 *
 * A validator whose check cannot run at all (a bad inventory value, a wrong chain) is a `fail`
 * row with the error's message and fix, never a crash of the whole status. A row without a local
 * data directory (a node named only by its RPC URL) drops the `host.*` findings: they would
 * describe this machine, not the validator's host.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { CHAIN_NAMES } from '../chain/presets.js'
import { BadInputError, TnvError } from '../errors.js'
import { checkNode } from '../health/check-node.js'
import type { CheckExitCode, NodeCheckReport } from '../health/types.js'
import type { InventoryValidator } from './inventory.js'

export type FleetRow = {
  name: string
  datadir: string | null
  node: string | null
  validator: string | null
  level: 'ok' | 'warn' | 'fail'
  exitCode: CheckExitCode
  status: string | null
  nodeMode: string | null
  blockNumber: string | null
  lagBlocks: number | null
  inCommittee: boolean | null
  epoch: number | null
  /** The findings at warn or fail, as `id: message`. */
  problems: string[]
  next: string
  roundTrips: number
  wallMs: number
}

export type FleetStatus = {
  checkedAt: string
  rows: FleetRow[]
  counts: { ok: number; warn: number; fail: number }
  exitCode: CheckExitCode
  concurrency: number
  roundTrips: number
  wallMs: number
}

export type FleetStatusParameters = {
  validators: readonly InventoryValidator[]
  /** At most this many checks at a time (default 8). */
  concurrency?: number
  timeoutMs?: number
  /** Chain settings for validators whose inventory names none (the command's flags), and where the devnet runs. */
  defaults: { chain?: string | undefined; rpcUrl?: string | undefined; devnetDir: string }
}

const RANK = { fail: 0, warn: 1, ok: 2 } as const

/** Runs `work` over `items`, at most `limit` at a time; results in the items' order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await work(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return out
}

function rowOf(v: InventoryValidator, report: NodeCheckReport, started: number): FleetRow {
  const local = v.datadir !== null
  const findings = local ? report.findings : report.findings.filter((f) => f.area !== 'host')
  // without the host findings, the level is the worst of the rest (skip counts as ok, as in node check)
  const worst = findings.some((f) => f.level === 'fail')
    ? 'fail'
    : findings.some((f) => f.level === 'warn')
      ? 'warn'
      : 'ok'
  const level = local ? report.level : worst
  const exitCode: CheckExitCode = level === 'fail' ? 2 : level === 'warn' ? 1 : 0
  const next =
    local || level === report.level ? report.next : (findings.find((f) => f.level === level)?.fix ?? report.next)
  const val = report.figures.validator
  return {
    name: v.name,
    datadir: v.datadir,
    node: report.targets.node,
    validator: report.targets.validator,
    level,
    exitCode,
    status: val?.status ?? null,
    nodeMode: report.figures.local?.nodeMode ?? null,
    blockNumber: report.figures.local?.blockNumber ?? null,
    lagBlocks: report.figures.lagBlocks,
    inCommittee: val ? val.inCommittee : null,
    epoch: val?.currentEpoch ?? null,
    problems: findings.filter((f) => f.level === 'warn' || f.level === 'fail').map((f) => `${f.id}: ${f.message}`),
    next,
    roundTrips: report.roundTrips.total,
    wallMs: Date.now() - started,
  }
}

function errorRow(v: InventoryValidator, err: unknown, started: number): FleetRow {
  const message =
    err instanceof TnvError
      ? `${err.message}${err.fix ? ` ${err.fix}` : ''}`
      : err instanceof Error
        ? err.message
        : String(err)
  return {
    name: v.name,
    datadir: v.datadir,
    node: v.nodeRpcUrl,
    validator: v.address,
    level: 'fail',
    exitCode: 2,
    status: null,
    nodeMode: null,
    blockNumber: null,
    lagBlocks: null,
    inCommittee: null,
    epoch: null,
    problems: [`check: ${message}`],
    next: message,
    roundTrips: 0,
    wallMs: Date.now() - started,
  }
}

/**
 * @example const fleet = await fleetStatus({ validators: await readInventory('hosts.ini'), concurrency: 8, defaults: { devnetDir } })
 * process.exitCode = fleet.exitCode
 */
export async function fleetStatus({
  validators,
  concurrency = 8,
  timeoutMs = 5_000,
  defaults,
}: FleetStatusParameters): Promise<FleetStatus> {
  const started = Date.now()
  const rows = await mapBounded(validators, concurrency, async (v) => {
    const t0 = Date.now()
    try {
      const chainName = v.chain ?? defaults.chain
      const chain = CHAIN_NAMES.find((c) => c === chainName)
      if (chainName !== undefined && chain === undefined)
        throw new BadInputError(
          `tnv_chain ${chainName} of ${v.name} is not a network tnv knows (${CHAIN_NAMES.join(', ')}).`,
        )
      const report = await checkNode({
        // a node named only by its URL: a data directory that holds nothing, so no local file is read as its own
        datadir: v.datadir ?? join(tmpdir(), 'tnv-fleet-no-datadir'),
        nodeUrl: v.nodeRpcUrl ?? undefined,
        address: (v.address ?? undefined) as Address | undefined,
        chain: {
          chain,
          'rpc-url': v.rpcUrl ?? defaults.rpcUrl,
          'chain-id': v.chainId ?? undefined,
          'devnet-dir': defaults.devnetDir,
        },
        exposure: false,
        timeoutMs,
      })
      return rowOf(v, report, t0)
    } catch (err) {
      return errorRow(v, err, t0)
    }
  })
  const order = rows.map((r, i) => [r, i] as const)
  order.sort(([a, i], [b, j]) => RANK[a.level] - RANK[b.level] || i - j)
  const sorted = order.map(([r]) => r)
  const counts = { ok: 0, warn: 0, fail: 0 }
  for (const r of sorted) counts[r.level]++
  const exitCode: CheckExitCode = counts.fail ? 2 : counts.warn ? 1 : 0
  return {
    checkedAt: new Date(started).toISOString(),
    rows: sorted,
    counts,
    exitCode,
    concurrency,
    roundTrips: sorted.reduce((n, r) => n + r.roundTrips, 0),
    wallMs: Date.now() - started,
  }
}
