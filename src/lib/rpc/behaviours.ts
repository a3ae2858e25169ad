/**
 * One flag set under both namespace behaviours (real-network/node.md §4): the released node
 * (v0.14.0-adiri and main, the specification's "earlier releases") and the specification's
 * release. `resolveRpcPlans` resolves both and lists where they differ, with, for a selection
 * flag whose meaning differs, the explicit list that means the same on both releases (policy:
 * never hand the node a flag whose meaning differs between releases when such a list exists).
 * Pure.
 */
import { type ResolveRpcPlanOptions, resolveRpcPlan } from './resolve.js'
import type { NetTransportPlan, RpcPlan, TransportName } from './types.js'

export type PlanDifference = {
  /** What differs, e.g. `HTTP namespaces`, `starts`, `workers`. */
  topic: string
  released: string
  spec: string
}

/** For a `--http.api`/`--ws.api` whose meaning differs: explicit lists meaning the same on both releases. */
export type SelectionEquivalent = {
  flag: '--http.api' | '--ws.api'
  /** The list that serves on both releases what the released node serves now (always exists). */
  releasedMeaning: string
  /** The list that serves on both what the specification's release serves now; null when none can (no tn). */
  specMeaning: string | null
}

export type RpcPlans = {
  released: RpcPlan
  spec: RpcPlan
  /** Empty when the flags mean the same on both releases. */
  differences: PlanDifference[]
  equivalents: SelectionEquivalent[]
}

const LABEL: Record<TransportName, string> = { http: 'HTTP', ws: 'WS', ipc: 'IPC' }

/**
 * @example
 * const { differences } = resolveRpcPlans(['--http'])
 * // [{ topic: 'HTTP namespaces', released: 'eth net web3 tn', spec: 'eth net web3 rpc tn' }, …]
 */
export function resolveRpcPlans(
  argv: readonly string[],
  options: Omit<ResolveRpcPlanOptions, 'behaviour'> = {},
): RpcPlans {
  const released = resolveRpcPlan(argv, { ...options, behaviour: 'released' })
  const spec = resolveRpcPlan(argv, { ...options, behaviour: 'spec' })
  const differences: PlanDifference[] = []
  const add = (topic: string, r: string, s: string) => {
    if (r !== s) differences.push({ topic, released: r, spec: s })
  }
  add('starts', verdict(released), verdict(spec))
  add('workers (RPC servers)', String(released.workers.length), String(spec.workers.length))
  for (const t of ['http', 'ws', 'ipc'] as const) {
    const r = released.transports[t]
    const s = spec.transports[t]
    if (!r.enabled && !s.enabled) continue
    add(`${LABEL[t]} namespaces`, served(r), served(s))
    add(`${LABEL[t]} rpc_modules`, modules(r.rpcModules), modules(s.rpcModules))
  }
  const equivalents: SelectionEquivalent[] = []
  for (const t of ['http', 'ws'] as const) {
    const r = released.transports[t]
    const s = spec.transports[t]
    if (!r.enabled || served(r) === served(s)) continue
    equivalents.push({
      flag: t === 'http' ? '--http.api' : '--ws.api',
      releasedMeaning: r.namespaces.join(','),
      specMeaning: s.namespaces.includes('tn') ? s.namespaces.join(',') : null,
    })
  }
  return { released, spec, differences, equivalents }
}

function verdict(plan: RpcPlan): string {
  return plan.ok ? 'yes' : `no (${plan.errors.length} error${plan.errors.length === 1 ? '' : 's'})`
}

/** The served modules of a transport as one line. */
export function served(t: Pick<NetTransportPlan, 'enabled' | 'namespaces' | 'otherModules'>): string {
  if (!t.enabled) return 'off'
  const all = [...t.namespaces, ...t.otherModules]
  return all.length ? all.join(' ') : '(nothing)'
}

export function modules(m: Record<string, string> | null): string {
  if (m === null) return '-32601 (rpc not served)'
  const names = Object.keys(m)
  if (names.length === 0) return '(empty)'
  const versions = new Set(Object.values(m))
  return versions.size === 1
    ? `${names.join(' ')} (all ${[...versions][0]})`
    : Object.entries(m)
        .map(([n, v]) => `${n}@${v}`)
        .join(' ')
}
