/**
 * The human rendering of an RpcPlan (`tnv rpc plan` without --json) and the redaction every
 * printed plan goes through. Pure: returns text, prints nothing.
 */
import { modules as modulesLine, type RpcPlans, served } from './behaviours.js'
import { LIMIT_SPECS } from './limits.js'
import { hostPort } from './resolve.js'
import type { IpcTransportPlan, NetTransportPlan, RpcBehaviour, RpcPlan, WorkerPlan } from './types.js'

/** How tnv names the two behaviours in plans and checks. */
export const BEHAVIOUR_LABEL: Record<RpcBehaviour, string> = {
  released: 'the released node (v0.14.0-adiri and main)',
  spec: "the specification's release (not released yet)",
}

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
      ? [label, hostPort(t.address, t.port), served(t), modulesText(t.rpcModules)]
      : [label, `off (${hostPort(t.address, t.port)})`, '', '']
  const ipc = (t: IpcTransportPlan): string[] =>
    t.enabled ? ['IPC', t.path, served(t), modulesText(t.rpcModules)] : ['IPC', `off (${t.path})`, '', '']
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
  const who = BEHAVIOUR_LABEL[plan.behaviour]
  lines.push(
    plan.ok
      ? `Under the rules of ${who}: the node starts with these flags.`
      : `Under the rules of ${who}: the node REFUSES TO START with these flags (see Errors).`,
  )
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
  const known = knownPassthrough(plan.passthrough, plan.errors)
  if (known.length) lines.push('', `Other node flags (passed through untouched): ${known.join(' ')}`)
  return lines.join('\n')
}

/**
 * Both behaviours of one flag set, side by side where they differ (`tnv rpc plan` by default).
 * A line that is the same on both releases is printed once, marked "both".
 */
export function formatPlans(plans: RpcPlans): string {
  const { released, spec } = plans
  const verdict = (p: RpcPlan) => (p.ok ? 'starts with these flags' : 'REFUSES TO START with these flags (see Errors)')
  const lines: string[] = [
    `Released node (v0.14.0-adiri and main): ${verdict(released)}.`,
    `Specification's release (not released yet): ${verdict(spec)}.`,
  ]
  for (const [index, worker] of spec.workers.entries())
    lines.push(...workerLines(index, released.workers[index], worker))
  lines.push(...accessAndLimitLines(spec))
  lines.push(...groupedSection('Errors (the node refuses to start)', released.errors, spec.errors))
  lines.push(...groupedSection('Warnings (the node logs these at startup)', released.warnings, spec.warnings))
  lines.push(...groupedSection('Advice (tnv)', released.advice, spec.advice))
  lines.push(...differenceLines(plans))
  const known = knownPassthrough(spec.passthrough, [...spec.errors, ...released.errors])
  if (known.length) lines.push('', `Other node flags (passed through untouched): ${known.join(' ')}`)
  return lines.join('\n')
}

/** One worker's transports: off, or where they listen, with namespaces and rpc_modules per release. */
function workerLines(index: number, rw: WorkerPlan | undefined, worker: WorkerPlan): string[] {
  const lines: string[] = [
    '',
    `Worker ${index}${rw ? '' : ' (specification only: the released node runs one worker)'}${worker.sharedServer ? ' (HTTP and WS share one server)' : ''}`,
  ]
  const pair = (label: string, r: string, s: string) => {
    if (r === s) lines.push(`    ${label.padEnd(12)} both: ${r}`)
    else {
      lines.push(`    ${label.padEnd(12)} released node: ${r}`)
      lines.push(`    ${' '.repeat(12)} specification: ${s}`)
    }
  }
  for (const t of ['http', 'ws', 'ipc'] as const) {
    const s = worker[t]
    const r = rw?.[t]
    const where =
      t === 'ipc'
        ? (s as IpcTransportPlan).path
        : hostPort((s as NetTransportPlan).address, (s as NetTransportPlan).port)
    const label = t === 'http' ? 'HTTP' : t === 'ws' ? 'WS' : 'IPC'
    if (!s.enabled && !r?.enabled) {
      lines.push(`  ${label} off (${where})`)
      continue
    }
    lines.push(`  ${label} ${where}`)
    if (r) {
      pair('namespaces', served(r), served(s))
      pair('rpc_modules', modulesLine(r.rpcModules), modulesLine(s.rpcModules))
    } else {
      lines.push(`    ${'namespaces'.padEnd(12)} specification: ${served(s)}`)
      lines.push(`    ${'rpc_modules'.padEnd(12)} specification: ${modulesLine(s.rpcModules)}`)
    }
  }
  return lines
}

/** JWT, CORS, WS origins and the limits: the same on both releases. */
function accessAndLimitLines(spec: RpcPlan): string[] {
  const lines: string[] = ['', 'Access (both)']
  lines.push(
    `  JWT: ${spec.jwt.required ? `required on HTTP and WS (--rpc.jwtsecret, ${spec.jwt.source === 'file' ? 'NOT hex: refused' : 'hex secret'}); IPC needs none` : 'off (no --rpc.jwtsecret): HTTP and WS need no token'}`,
  )
  lines.push(`  HTTP CORS domains: ${spec.httpCorsDomain?.join(', ') || 'none'}`)
  lines.push(`  WS origins: ${spec.wsOrigins?.join(', ') || 'none'}`)
  lines.push('', 'Limits (both)')
  const limitRows = LIMIT_SPECS.map((l) => {
    const unit = l.unit ? ` ${l.unit}` : ''
    const value = spec.limits[l.key]
    const noLimit = l.min === 0 && value === 0
    return [l.flag, noLimit ? '0' : `${value}${unit}`, noLimit ? '(no limit)' : `(default: ${l.defaultText}${unit})`]
  })
  const limitWidths = [0, 1].map((i) => Math.max(...limitRows.map((r) => (r[i] ?? '').length)))
  for (const r of limitRows) lines.push(`  ${row(r, limitWidths)}`)
  return lines
}

/** A section's items marked both, released node or specification; nothing when both lists are empty. */
function groupedSection(title: string, r: string[], s: string[]): string[] {
  const both = r.filter((x) => s.includes(x))
  const onlyR = r.filter((x) => !s.includes(x))
  const onlyS = s.filter((x) => !r.includes(x))
  if (both.length + onlyR.length + onlyS.length === 0) return []
  return [
    '',
    title,
    ...both.map((x) => `  - (both) ${x}`),
    ...onlyR.map((x) => `  - (released node) ${x}`),
    ...onlyS.map((x) => `  - (specification) ${x}`),
  ]
}

/** Where the releases differ, and for each flag that means different things, how to mean the same on both. */
function differenceLines(plans: RpcPlans): string[] {
  if (plans.differences.length === 0) return ['', 'These flags mean the same on both releases.']
  return [
    '',
    `Where the two releases differ (${plans.differences.length})`,
    ...plans.differences.map((d) => `  - ${d.topic}: released node ${d.released}; specification ${d.spec}`),
    ...plans.equivalents.map(
      (e) =>
        `  - ${e.flag} means different things on the two releases. To mean the same on both, write ${e.flag} ${e.releasedMeaning} (what the released node serves now)${e.specMeaning ? ` or ${e.flag} ${e.specMeaning} (what the specification's release serves now)` : "; what the specification's release serves now cannot be had on the released node, which always serves tn"}.`,
    ),
  ]
}

/**
 * The pass-through flags without those the Errors section reports as unknown to the node (with
 * their value): a flag the node refuses is not "passed through untouched" (issue 16).
 */
function knownPassthrough(passthrough: readonly string[], errors: readonly string[]): string[] {
  const unknown = new Set(
    errors
      .filter((e) => e.includes('not a flag of the node'))
      .map((e) => /(--[\w.-]+)/.exec(e)?.[1])
      .filter((f): f is string => f !== undefined),
  )
  const out: string[] = []
  for (let i = 0; i < passthrough.length; i++) {
    const t = passthrough[i] as string
    if (unknown.has(t.split('=')[0] as string)) {
      if (!t.includes('=') && passthrough[i + 1] !== undefined && !passthrough[i + 1]?.startsWith('-')) i++
      continue
    }
    out.push(t)
  }
  return out
}
