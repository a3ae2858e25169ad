/**
 * Judges what `tnv rpc check` found, against the spec and, with an expected plan, against the
 * plan of the node's flags. Pure (no I/O), so every rule is testable with made-up findings.
 *
 * First it tells which namespace behaviour the node shows (real-network/node.md §4): the
 * released node's (rpc_modules without tn while tn_* answer, rpc_modules listing admin or
 * txpool, IPC serving admin, txpool, debug or trace) or the specification's (rpc_modules
 * listing tn); with the expected flags, also which release's plan the answers match (for
 * example tn_* answering under --http.api none). Everything below is judged under that
 * behaviour's plan (when the answers fit both, under --behaviour, by default the released
 * node's: the one operators run).
 *
 * Spec rules checked on every run:
 * - eth_subscribe works on WS and IPC (where eth is served) and not on HTTP;
 * - every transport that serves `rpc` returns the same `rpc_modules` list, with version `1.0`
 *   for the default namespaces;
 * - with a JWT secret: HTTP and WS refuse a request without a token and one signed with
 *   another secret;
 * - exposure: debug or trace answering without authentication on a non-loopback address
 *   (the URL's host, or the expected plan's listen address).
 */
import type { RpcPlans } from './behaviours.js'
import { isLoopbackAddress } from './loopback.js'
import { hostPort } from './resolve.js'
import {
  type BehaviourVerdict,
  DEFAULT_NAMESPACES,
  type NetTransportPlan,
  RETH_ONLY_MODULES,
  type RpcBehaviour,
  type RpcCheckReport,
  type RpcPlan,
  type TransportCheck,
  type TransportName,
  type WorkerPlan,
} from './types.js'

const LABEL: Record<TransportName, string> = { http: 'HTTP', ws: 'WS', ipc: 'IPC' }

export type EvaluateCheckOptions = {
  /** The plans of the expected flags under both behaviours (resolveRpcPlans), or one plan, or null. */
  expect: RpcPlans | RpcPlan | null
  /** The behaviour to judge by when the answers fit both (default: the released node's). */
  behaviour?: RpcBehaviour
  /** A JWT secret was known (given, or taken from the expected flags), so the auth probes ran. */
  jwtSecretKnown: boolean
}

type Found = { http: TransportCheck | null; ws: TransportCheck | null; ipc: TransportCheck | null }

export function evaluateCheck(
  found: Found,
  { expect: expected, jwtSecretKnown, behaviour: fallback }: EvaluateCheckOptions,
): RpcCheckReport {
  const exposures: string[] = []
  const failures: string[] = []
  const notes: string[] = []
  const candidates: RpcPlan[] =
    expected === null ? [] : 'differences' in expected ? [expected.released, expected.spec] : [expected]
  const verdict = detectBehaviour(found, candidates, fallback)
  const expect = candidates.find((p) => p.behaviour === verdict.judgedAs) ?? null
  const mismatches = behaviourMismatches(candidates, verdict, expect)

  const transports = {
    http: found.http && withExpected(found.http, expect, notes),
    ws: found.ws && withExpected(found.ws, expect, notes),
    ipc: found.ipc && withExpected(found.ipc, expect, notes),
  }
  const checks = [transports.http, transports.ws, transports.ipc].filter((c): c is TransportCheck => c !== null)
  for (const c of checks) {
    if (c.failure) failures.push(c.failure)
    const judged = judgeTransport(c, expect, jwtSecretKnown)
    mismatches.push(...judged.mismatches)
    if (judged.exposure !== null) exposures.push(judged.exposure)
  }
  const ipcNote = transports.ipc && ipcAdminNote(transports.ipc)
  if (ipcNote) notes.push(ipcNote)
  const differing = rpcModulesDiffer(checks)
  if (differing) mismatches.push(differing)

  return {
    ok: mismatches.length === 0 && exposures.length === 0 && failures.length === 0,
    transports,
    mismatches,
    exposures,
    failures,
    notes,
    expected: expect ? { ok: expect.ok, errors: expect.errors, warnings: expect.warnings } : null,
    behaviour: verdict,
  }
}

/** The single expected plan follows another behaviour than the node shows; the plan would not start. */
function behaviourMismatches(candidates: RpcPlan[], verdict: BehaviourVerdict, expect: RpcPlan | null): string[] {
  const mismatches: string[] = []
  if (candidates.length === 1 && verdict.detected !== 'undetermined' && verdict.detected !== verdict.judgedAs)
    mismatches.push(
      `The node shows ${verdict.detected === 'released' ? "the released node's" : "the specification's"} namespace behaviour (${verdict.evidence[0]}), but the expected plan follows ${verdict.judgedAs === 'released' ? "the released node's" : "the specification's"}.`,
    )
  if (expect && !expect.ok)
    mismatches.push(
      `The expected flags would not start ${expect.behaviour === 'released' ? 'the released node' : "the specification's release"}: ${expect.errors.join(' ')}`,
    )
  return mismatches
}

/**
 * One transport against the spec rules and the expected plan, in order: on or off as expected,
 * subscriptions, rpc_modules, JWT, expected namespaces; and its exposure, if any.
 */
function judgeTransport(
  c: TransportCheck,
  expect: RpcPlan | null,
  jwtSecretKnown: boolean,
): { mismatches: string[]; exposure: string | null } {
  const where = `${LABEL[c.transport]} ${c.target}`
  const net = c.transport !== 'ipc'
  const unauthorized = c.namespaces.some((n) => n.status === 'unauthorized')
  const exp = c.expected
  if (exp && !exp.enabled && (c.reachable || unauthorized))
    return { mismatches: [`${where} answers, but the expected flags leave ${LABEL[c.transport]} off.`], exposure: null }
  const mismatches: string[] = []
  if (exp?.enabled && !c.reachable && !unauthorized)
    mismatches.push(`${where} did not answer, but the expected flags turn ${LABEL[c.transport]} on.`)
  if (exp && net && unauthorized && !c.auth.tokenSent && !exp.jwtRequired) {
    mismatches.push(`${where} needs a JWT, but the expected flags set no --rpc.jwtsecret.`)
  }
  if (!c.reachable) return { mismatches, exposure: null }
  mismatches.push(
    ...subscriptionMismatches(c, where),
    ...rpcModulesMismatches(c, where),
    ...(net && jwtSecretKnown ? jwtMismatches(c, where) : []),
    ...(exp ? expectedNamespaceMismatches(c, exp, where) : []),
  )
  return { mismatches, exposure: exposureOf(c, expect, where) }
}

/** Spec: "Subscriptions (eth_subscribe) need a WebSocket or IPC connection". */
function subscriptionMismatches(c: TransportCheck, where: string): string[] {
  const ethServed = c.served.includes('eth')
  if (c.transport === 'ipc' || c.transport === 'ws') {
    if (ethServed && c.subscriptions.status !== 'works')
      return [
        `${where}: eth_subscribe did not work (${c.subscriptions.detail ?? c.subscriptions.status}) although eth is served; subscriptions must work over WebSocket and IPC.`,
      ]
  } else if (c.subscriptions.status === 'works') {
    return [
      `${where}: eth_subscribe returned a subscription id over HTTP; subscriptions need WebSocket or IPC, so HTTP must refuse it.`,
    ]
  }
  return []
}

/** rpc_modules is an object of namespace → version, with version 1.0 for the default namespaces. */
function rpcModulesMismatches(c: TransportCheck, where: string): string[] {
  const mismatches: string[] = []
  const rpcProbe = c.namespaces.find((n) => n.namespace === 'rpc')
  if (rpcProbe?.status === 'served' && c.rpcModules === null) {
    mismatches.push(
      `${where}: rpc_modules answered ${rpcProbe.detail ?? 'something'} instead of an object of namespace → version.`,
    )
  }
  for (const [name, version] of Object.entries(c.rpcModules ?? {})) {
    if ((DEFAULT_NAMESPACES as readonly string[]).includes(name) && version !== '1.0') {
      mismatches.push(
        `${where}: rpc_modules gives ${name} version "${version}"; the spec's version for the default namespaces is "1.0".`,
      )
    }
  }
  return mismatches
}

/** With a JWT secret known: HTTP or WS refuses a request without a token and one with another secret. */
function jwtMismatches(c: TransportCheck, where: string): string[] {
  const mismatches: string[] = []
  const exp = c.expected
  if (c.auth.withoutToken === 'accepted')
    mismatches.push(
      `${where} answered a request without a token although a JWT secret is configured: JWT is not enforced.`,
    )
  if (c.auth.wrongToken === 'accepted')
    mismatches.push(`${where} accepted a token signed with a different secret: JWT is not checked.`)
  if (exp && !exp.jwtRequired && c.auth.withoutToken === 'refused') {
    mismatches.push(`${where} refuses requests without a token, but the expected flags set no --rpc.jwtsecret.`)
  }
  return mismatches
}

/** The namespaces served, and rpc_modules, are those of the expected plan. */
function expectedNamespaceMismatches(
  c: TransportCheck,
  exp: NonNullable<TransportCheck['expected']>,
  where: string,
): string[] {
  const mismatches: string[] = []
  for (const n of c.namespaces) {
    if (n.expected === null || (n.status !== 'served' && n.status !== 'not-served')) continue
    const served = n.status === 'served'
    if (served && !n.expected)
      mismatches.push(
        `${where}: ${n.namespace} is served (${n.method} answered), but the expected flags do not serve it there.`,
      )
    if (!served && n.expected)
      mismatches.push(
        `${where}: ${n.namespace} is not served (${n.method}: -32601), but the expected flags serve it there.`,
      )
  }
  const rpcProbe = c.namespaces.find((n) => n.namespace === 'rpc')
  if (
    rpcProbe &&
    (rpcProbe.status === 'served' || rpcProbe.status === 'not-served') &&
    !sameModules(c.rpcModules, exp.rpcModules)
  ) {
    mismatches.push(
      `${where}: rpc_modules gives ${modulesText(c.rpcModules)}, but the expected plan gives ${modulesText(exp.rpcModules)}.`,
    )
  }
  return mismatches
}

/** Spec, Authentication 3: debug or trace answering without authentication on a non-loopback address. */
function exposureOf(c: TransportCheck, expect: RpcPlan | null, where: string): string | null {
  if (c.transport === 'ipc') return null
  const exp = c.expected
  const tracing = c.namespaces.filter(
    (n) => (n.namespace === 'debug' || n.namespace === 'trace') && n.status === 'served',
  )
  const withoutAuth = !c.auth.tokenSent || c.auth.withoutToken === 'accepted' || c.auth.wrongToken === 'accepted'
  const planAddress = exp && expect ? netPlan(expect, c.transport, exp.worker)?.address : undefined
  const nonLoopback = !c.loopback || (planAddress !== undefined && !isLoopbackAddress(planAddress))
  if (!(tracing.length && withoutAuth && nonLoopback)) return null
  const on = !c.loopback ? 'a non-loopback address' : `a node listening on ${planAddress} (non-loopback)`
  return `${where} answers ${tracing.map((n) => n.method).join(' and ')} without authentication on ${on}: anyone who reaches it can make the node re-execute blocks. Set --rpc.jwtsecret or put a proxy that allows only the needed methods in front, and run debug and trace on a node separate from the public RPC node and from any validator.`
}

/** IPC answering admin_* or txpool_*: any local process that opens the socket can call them. */
function ipcAdminNote(ipc: TransportCheck): string | null {
  const ipcAdmin = ipc.namespaces.filter(
    (n) => (n.namespace === 'admin' || n.namespace === 'txpool') && n.status === 'served',
  )
  if (ipcAdmin.length === 0) return null
  return `IPC ${ipc.target} answers ${ipcAdmin.map((n) => n.method).join(' and ')} (the released node serves every reth module over IPC): any local process that can open the socket can call admin_* and txpool_*. Keep the socket's directory private, or start the node with --ipcdisable when nothing on this host needs IPC.`
}

/** Spec: rpc_modules is built once, so every transport serving rpc returns the same list. */
function rpcModulesDiffer(checks: TransportCheck[]): string | null {
  const lists = checks.filter((c) => c.rpcModules !== null)
  if (lists.length > 1 && lists.some((c) => !sameModules(c.rpcModules, lists[0]?.rpcModules ?? null)))
    return `rpc_modules differs between transports (${lists.map((c) => `${LABEL[c.transport]}: ${modulesText(c.rpcModules)}`).join('; ')}); the node builds it once, so every transport serving rpc returns the same list.`
  return null
}

/**
 * Which behaviour the answers show. Intrinsic signs first (they need no flags); then, with the
 * expected flags under both behaviours, which plan the answers match.
 */
export function detectBehaviour(found: Found, candidates: RpcPlan[], chosen?: RpcBehaviour): BehaviourVerdict {
  const fallback: RpcBehaviour = chosen ?? 'released'
  const checks = [found.http, found.ws, found.ipc].filter((c): c is TransportCheck => c?.reachable === true)
  const { released, spec } = intrinsicSigns(checks, rpcModulesSource(found))
  const fixed = candidates.length === 1 ? (candidates[0] as RpcPlan).behaviour : null
  if (released.length > 0 && spec.length > 0)
    return verdictOf('undetermined', [...released, ...spec, 'these signs contradict each other'], fixed ?? fallback)
  if (released.length > 0) return verdictOf('released', released, fixed ?? 'released')
  if (spec.length > 0) return verdictOf('spec', spec, fixed ?? 'spec')
  if (candidates.length === 2) return verdictFromPlans(checks, candidates, chosen)
  return verdictOf(
    'undetermined',
    [
      'nothing in the answers tells the two apart (give the node flags with --expect -- …, or probe IPC and a transport that serves rpc)',
    ],
    fixed ?? fallback,
  )
}

function verdictOf(
  detected: RpcBehaviour | 'undetermined',
  evidence: string[],
  judgedAs: RpcBehaviour,
): BehaviourVerdict {
  return { detected, evidence, judgedAs }
}

/**
 * The transport rpc_modules is built from: the first serving rpc in the order HTTP, WS, IPC.
 * It is known only when every transport before it was probed too; else null.
 */
function rpcModulesSource(probed: Found): TransportCheck | null {
  const servesRpc = (c: TransportCheck | null) =>
    c?.namespaces.some((n) => n.namespace === 'rpc' && n.status === 'served') === true
  for (const t of ['http', 'ws', 'ipc'] as const) {
    const c = probed[t]
    if (c === null || !c.reachable) break // unknown whether this one serves rpc
    if (servesRpc(c)) return c
  }
  return null
}

/** The signs that need no flags (real-network/node.md §4), as evidence for each behaviour. */
function intrinsicSigns(
  checks: TransportCheck[],
  source: TransportCheck | null,
): { released: string[]; spec: string[] } {
  const released: string[] = []
  const spec: string[] = []
  for (const c of checks) {
    const where = `${LABEL[c.transport]} ${c.target}`
    const modules = c.rpcModules ? Object.keys(c.rpcModules) : null
    if (modules) {
      const rethOnly = modules.filter((m) => (RETH_ONLY_MODULES as readonly string[]).includes(m))
      if (rethOnly.length > 0)
        released.push(
          `${where}: rpc_modules lists ${rethOnly.join(', ')} (the released node's IPC serves every reth module)`,
        )
      if (modules.includes('tn')) spec.push(`${where}: rpc_modules lists tn (the released node's list never does)`)
      else if (c === source && c.namespaces.some((n) => n.namespace === 'tn' && n.status === 'served'))
        released.push(
          `${where}: tn_* answer, but rpc_modules (built from this transport) does not list tn (the released node serves tn outside its module list)`,
        )
    }
    if (c.transport === 'ipc') {
      const extra = c.namespaces.filter(
        (n) => ['admin', 'txpool', 'debug', 'trace'].includes(n.namespace) && n.status === 'served',
      )
      if (extra.length > 0)
        released.push(
          `${where}: IPC answers ${extra.map((n) => n.namespace).join(', ')} (the specification's IPC serves only eth, net, web3, rpc, tn; the released node's serves every module)`,
        )
    }
  }
  return { released, spec }
}

/** No intrinsic sign: which of the two plans of the expected flags the answers match. */
function verdictFromPlans(checks: TransportCheck[], candidates: RpcPlan[], chosen?: RpcBehaviour): BehaviourVerdict {
  const fallback: RpcBehaviour = chosen ?? 'released'
  const scored = candidates.map((plan) => ({ plan, differences: planDifferences(checks, plan) }))
  const matching = scored.filter((x) => x.differences.length === 0)
  const name = (b: RpcBehaviour) => (b === 'released' ? "the released node's" : "the specification's")
  if (matching.length === 1) {
    const hit = matching[0] as (typeof scored)[number]
    const miss = scored.find((x) => x !== hit) as (typeof scored)[number]
    return verdictOf(
      hit.plan.behaviour,
      [
        `the answers match ${name(hit.plan.behaviour)} plan of the expected flags, not ${name(miss.plan.behaviour)}: ${miss.differences[0]}`,
      ],
      hit.plan.behaviour,
    )
  }
  if (matching.length === 2)
    return verdictOf('undetermined', ['both releases give the same answers for these flags'], fallback)
  const best = [...scored].sort((a, b) => a.differences.length - b.differences.length)
  const judged =
    chosen ??
    ((best[0] as (typeof scored)[number]).differences.length < (best[1] as (typeof scored)[number]).differences.length
      ? (best[0] as (typeof scored)[number]).plan.behaviour
      : fallback)
  return verdictOf(
    'undetermined',
    [
      `the answers match neither release's plan of the expected flags (${scored.map((x) => `${name(x.plan.behaviour)}: ${x.differences.length} difference${x.differences.length === 1 ? '' : 's'}`).join('; ')})`,
    ],
    judged,
  )
}

/** How the namespaces found differ from a plan (per matched worker), one line each. */
function planDifferences(checks: TransportCheck[], plan: RpcPlan): string[] {
  const out: string[] = []
  for (const c of checks) {
    const w = withExpected(c, plan, [])
    const tp = w.expected
    if (!tp) continue
    for (const n of w.namespaces) {
      if (n.status !== 'served' && n.status !== 'not-served') continue
      if ((n.status === 'served') !== n.expected)
        out.push(`${LABEL[c.transport]} ${n.status === 'served' ? 'serves' : 'does not serve'} ${n.namespace}`)
    }
    const rpc = w.namespaces.find((n) => n.namespace === 'rpc')
    if (rpc && (rpc.status === 'served' || rpc.status === 'not-served') && !sameModules(c.rpcModules, tp.rpcModules))
      out.push(`${LABEL[c.transport]} rpc_modules is ${modulesText(c.rpcModules)}`)
  }
  return out
}

function netPlan(plan: RpcPlan, transport: 'http' | 'ws', worker: number): NetTransportPlan | undefined {
  return plan.workers[worker]?.[transport]
}

/** The port a URL connects to (the scheme's default when the URL names none). */
function urlPort(url: string): number | null {
  try {
    const u = new URL(url)
    if (u.port) return Number(u.port)
    return u.protocol === 'https:' || u.protocol === 'wss:' ? 443 : 80
  } catch {
    return null
  }
}

/** Matches the endpoint to the expected plan's worker (by port, or IPC path) and fills in `expected`. */
function withExpected(c: TransportCheck, expect: RpcPlan | null, notes: string[]): TransportCheck {
  if (!expect) return c
  const match = (w: WorkerPlan) => {
    if (c.transport === 'ipc') return w.ipc.path === c.target
    return w[c.transport].port === urlPort(c.target)
  }
  const found = expect.workers.find(match)
  const worker = found ?? (expect.workers[0] as WorkerPlan)
  if (!found) {
    const t = c.transport
    const known =
      t === 'ipc' ? expect.workers.map((w) => w.ipc.path) : expect.workers.map((w) => hostPort(w[t].address, w[t].port))
    notes.push(
      `${LABEL[c.transport]} ${c.target} is not one of the expected plan's ${LABEL[c.transport]} endpoints (${known.join(', ')}); compared with worker 0's (a proxy in front?).`,
    )
  }
  const tp = worker[c.transport]
  return {
    ...c,
    expected: {
      worker: worker.index,
      enabled: tp.enabled,
      namespaces: tp.namespaces,
      otherModules: tp.otherModules,
      rpcModules: tp.rpcModules,
      jwtRequired: c.transport !== 'ipc' && expect.jwt.required,
    },
    namespaces: c.namespaces.map((n) => ({
      ...n,
      expected:
        tp.enabled &&
        ((tp.namespaces as readonly string[]).includes(n.namespace) || tp.otherModules.includes(n.namespace)),
    })),
  }
}

function sameModules(a: Record<string, string> | null, b: Record<string, string> | null): boolean {
  if (a === null || b === null) return a === b
  const ka = Object.keys(a)
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k])
}

function modulesText(m: Record<string, string> | null): string {
  if (m === null) return '-32601 (rpc not served)'
  return `{${Object.entries(m)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')}}`
}
