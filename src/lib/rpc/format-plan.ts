/**
 * The human rendering of an RpcPlan (`tnv rpc plan` without --json) and the redaction every
 * printed plan goes through. Pure: returns text, prints nothing.
 */
import { LIMIT_SPECS } from './limits.js'
import { hostPort } from './resolve.js'
import type { IpcTransportPlan, NetTransportPlan, RpcPlan, WorkerPlan } from './types.js'

/** What `jwtSecret` shows when the secret itself was given on the command line. */
export const REDACTED = '<redacted>'

/** The plan as it may be printed: a hex `jwtSecret` is replaced by `<redacted>` (a file path stays). */
export function redactPlan(plan: RpcPlan): RpcPlan {
  return { ...plan, jwtSecret: plan.jwt.source === 'hex' ? REDACTED : plan.jwtSecret }
}

/**
 * The node's flags as they may be printed or stored: when the plan says `--rpc.jwtsecret` holds
 * the secret itself (not a file path), its value is replaced by `<redacted>`.
 */
export function redactNodeFlags(flags: readonly string[], plan: RpcPlan): string[] {
  if (plan.jwt.source !== 'hex') return [...flags]
  return flags.map((f, i) => {
    if (f.startsWith('--rpc.jwtsecret=')) return `--rpc.jwtsecret=${REDACTED}`
    return i > 0 && flags[i - 1] === '--rpc.jwtsecret' ? REDACTED : f
  })
}

function modulesText(modules: Record<string, string> | null): string {
  if (modules === null) return '-32601 (rpc not served)'
  const names = Object.keys(modules)
  if (names.length === 0) return '(empty)'
  const versions = new Set(Object.values(modules))
  return versions.size === 1
    ? `${names.join(' ')} (all ${[...versions][0]})`
    : Object.entries(modules)
        .map(([n, v]) => `${n}@${v}`)
        .join(' ')
}

function row(cells: string[], widths: number[]): string {
  return cells
    .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
    .join('  ')
    .trimEnd()
}

function transportRows(worker: WorkerPlan): string[][] {
  const net = (label: string, t: NetTransportPlan): string[] =>
    t.enabled
      ? [label, hostPort(t.address, t.port), t.namespaces.join(' ') || '(nothing)', modulesText(t.rpcModules)]
      : [label, `off (${hostPort(t.address, t.port)})`, '', '']
  const ipc = (t: IpcTransportPlan): string[] =>
    t.enabled ? ['IPC', t.path, t.namespaces.join(' '), modulesText(t.rpcModules)] : ['IPC', `off (${t.path})`, '', '']
  return [net('HTTP', worker.http), net('WS', worker.ws), ipc(worker.ipc)]
}

/**
 * @example
 * formatPlan(resolveRpcPlan(['--http']))
 * // The node starts with these flags.
 * //
 * // Worker 0
 * //   transport  listens on      namespaces           rpc_modules
 * //   HTTP       127.0.0.1:8545  eth net web3 rpc tn  eth net web3 rpc tn (all 1.0)
 * // ...
 */
export function formatPlan(plan: RpcPlan): string {
  const lines: string[] = []
  lines.push(plan.ok ? 'The node starts with these flags.' : 'The node REFUSES TO START with these flags (see Errors).')
  const header = ['transport', 'listens on', 'namespaces', 'rpc_modules']
  const tables = plan.workers.map((worker) => ({ worker, rows: [header, ...transportRows(worker)] }))
  // one set of column widths for every worker, so the tables line up
  const widths = header.map((_, i) => Math.max(...tables.flatMap((t) => t.rows.map((r) => (r[i] ?? '').length))))
  for (const { worker, rows } of tables) {
    lines.push('', `Worker ${worker.index}${worker.sharedServer ? ' (HTTP and WS share one server)' : ''}`)
    for (const r of rows) lines.push(`  ${row(r, widths)}`)
  }
  lines.push('', 'Access')
  lines.push(
    `  JWT: ${plan.jwt.required ? `required on HTTP and WS (--rpc.jwtsecret, ${plan.jwt.source === 'file' ? `file ${plan.jwt.path}` : 'hex secret'}); IPC needs none` : 'off (no --rpc.jwtsecret): HTTP and WS need no token'}`,
  )
  lines.push(`  HTTP CORS domains: ${plan.httpCorsDomain?.join(', ') || 'none'}`)
  lines.push(`  WS origins: ${plan.wsOrigins?.join(', ') || 'none'}`)
  lines.push('', 'Limits')
  const limitRows = LIMIT_SPECS.map((spec) => {
    const unit = spec.unit ? ` ${spec.unit}` : ''
    const value = plan.limits[spec.key]
    const noLimit = spec.min === 0 && value === 0
    const note = noLimit
      ? `(no limit; default: ${spec.defaultText})`
      : `(default: ${spec.defaultText}${unit}${spec.min === 0 ? '; 0 = no limit' : ''})`
    return [spec.flag, noLimit ? '0' : `${value}${unit}`, note]
  })
  const limitWidths = [0, 1].map((i) => Math.max(...limitRows.map((r) => (r[i] ?? '').length)))
  for (const r of limitRows) lines.push(`  ${row(r, limitWidths)}`)
  const section = (title: string, items: string[]) => {
    if (items.length === 0) return
    lines.push('', title)
    for (const item of items) lines.push(`  - ${item}`)
  }
  section('Errors (the node refuses to start)', plan.errors)
  section('Warnings (the node logs these at startup)', plan.warnings)
  section('Advice (tnv)', plan.advice)
  if (plan.passthrough.length)
    lines.push('', `Other node flags (passed through untouched): ${plan.passthrough.join(' ')}`)
  return lines.join('\n')
}
