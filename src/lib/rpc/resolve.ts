/**
 * The project's one implementation of the node's JSON-RPC namespace rules
 * (shared/spec/node-rpc-namespaces.md). Input: the node's own argument list. Output: the
 * RpcPlan (./types.ts): per transport and per worker whether it is on, where it listens, the
 * namespaces served, what `rpc_modules` returns there, the startup warnings and errors, the
 * limits, and tnv's safety advice.
 *
 * Used by `tnv rpc plan`, `tnv rpc check --expect`, the reference node (src/devnet/node) and
 * the node driver (which refuses to start a node whose plan is not `ok`).
 *
 * Pure apart from reading the CPU count when `options.cpus` is not given. Never throws for
 * bad node flags: everything the node would refuse to start with is an entry in `errors`
 * (and `ok` is false), so one run reports every problem at once.
 */
import { availableParallelism } from 'node:os'
import { checkNodeCommandLine, type NodeCommandLine } from '../node/released-flags.js'
import { resolveLimits } from './limits.js'
import { isLoopbackAddress, isWildcardAddress } from './loopback.js'
import {
  type NamespaceSelection,
  parseNamespaceSelection,
  parseReleasedSelection,
  RELEASED_WARNED,
  suggestNamespace,
} from './namespaces.js'
import { parseNodeFlags, type RpcValueFlag } from './node-flags.js'
import {
  DEFAULT_NAMESPACES,
  type IpcTransportPlan,
  type JwtPlan,
  NAMESPACES,
  type Namespace,
  type NetTransportPlan,
  RETH_ONLY_MODULES,
  type RpcBehaviour,
  type RpcPlan,
  type WorkerPlan,
} from './types.js'
import { type Checked, parseIntegerValue, parseListenAddress, parsePort } from './values.js'
import { MAX_WORKERS, workerIpcPath, workerPorts } from './workers.js'

export const DEFAULT_HTTP_ADDR = '127.0.0.1'
export const DEFAULT_HTTP_PORT = 8545
export const DEFAULT_WS_ADDR = '127.0.0.1'
export const DEFAULT_WS_PORT = 8546
export const DEFAULT_IPC_PATH = '/tmp/tn.ipc'
/** Longest Unix socket path Linux can bind (sun_path is 108 bytes with the terminating NUL). */
export const MAX_IPC_PATH_BYTES = 107
/** The version string `rpc_modules` gives every namespace (spec: `1.0` for the default set; tnv uses it for all). */
export const RPC_MODULE_VERSION = '1.0'

export type ResolveRpcPlanOptions = {
  /** CPU cores of the host the node will run on (default: this host's, os.availableParallelism()). */
  cpus?: number
  /**
   * Whose namespace rules to apply: `spec` (default: the specification, which tnv's reference
   * node implements) or `released` (the node operators run today; real-network/node.md §4).
   */
  behaviour?: RpcBehaviour
  /**
   * Also check the node flags the resolver does not interpret (unknown flags, `--chain`
   * values) against a node command line (src/lib/node/released-flags.ts): `true` = the one of
   * `behaviour`, or `reference` for tnv's reference node (its devnet flags). Off by default:
   * tnv's reference node reads its own extra flags from the passthrough list.
   */
  checkCommandLine?: boolean | NodeCommandLine
}

type NetName = 'http' | 'ws'
const LABEL = { http: 'HTTP', ws: 'WS', ipc: 'IPC' } as const
const SUPPORTED = NAMESPACES.join(', ')

/** What the steps of one resolution share: the parsed flags, and the findings in the order the node reports them. */
type Resolution = {
  released: boolean
  parsed: ReturnType<typeof parseNodeFlags>
  given: (flag: RpcValueFlag) => string | undefined
  /** A checked value, or the fallback with its error recorded. */
  take: <T>(checked: Checked<T> | undefined, fallback: T) => T
  errors: string[]
  warnings: string[]
  advice: string[]
}

type Listeners = {
  on: Record<'http' | 'ws' | 'ipc', boolean>
  httpAddress: string
  httpPort: number
  wsAddress: string
  wsPort: number
  ipcPath: string
}

type Served = {
  selection: Record<NetName, NamespaceSelection>
  served: Record<NetName | 'ipc', Namespace[]>
  otherModules: Record<NetName | 'ipc', string[]>
  rpcModulesOf: (t: NetName | 'ipc') => Record<string, string> | null
}

/**
 * @example
 * const plan = resolveRpcPlan(['--http', '--http.api', 'eth,net,web3'])
 * plan.transports.http.namespaces // ['eth', 'net', 'web3']   (rule 1: no tn)
 * plan.transports.ipc.rpcModules  // { eth: '1.0', net: '1.0', web3: '1.0', rpc: '1.0', tn: '1.0' }
 */
export function resolveRpcPlan(argv: readonly string[], options: ResolveRpcPlanOptions = {}): RpcPlan {
  const behaviour = options.behaviour ?? 'spec'
  const r = startResolution(argv, behaviour, options)
  const listeners = resolveListeners(r)
  const served = resolveNamespaces(r, listeners.on)
  const server = checkSharedServer(r, listeners, served.selection)
  const jwtSecret = r.given('--rpc.jwtsecret') ?? null
  const jwt = describeJwtSecret(jwtSecret, r.errors)
  const cpus = options.cpus ?? availableParallelism()
  const resolvedLimits = resolveLimits(r.parsed.values, cpus)
  r.errors.push(...resolvedLimits.errors)
  const workers = planWorkers(r, listeners, served, server.shared)
  adviseSafety(r, listeners, served.served, jwt, resolvedLimits, cpus)
  const [first] = workers as [WorkerPlan]
  return {
    behaviour,
    ok: r.errors.length === 0,
    errors: r.errors,
    warnings: r.warnings,
    advice: r.advice,
    transports: { http: first.http, ws: first.ws, ipc: first.ipc },
    workers,
    limits: resolvedLimits.limits,
    jwtSecret,
    jwt,
    httpCorsDomain: server.httpCorsDomain === null ? null : splitList(server.httpCorsDomain),
    wsOrigins: server.wsOrigins === null ? null : splitList(server.wsOrigins),
    passthrough: r.parsed.passthrough,
  }
}

/** The node's flags parsed, and the command-line checks the options ask for. */
function startResolution(argv: readonly string[], behaviour: RpcBehaviour, options: ResolveRpcPlanOptions): Resolution {
  const released = behaviour === 'released'
  const parsed = parseNodeFlags(argv)
  const errors = [...parsed.errors]
  if (options.checkCommandLine)
    errors.push(
      ...checkNodeCommandLine(
        parsed.passthrough,
        options.checkCommandLine === true ? behaviour : options.checkCommandLine,
      ),
    )
  // --workers is interpreted here (the specification's flag), so it is never in the passthrough
  if (released && parsed.values['--workers'] !== undefined)
    errors.push(...checkNodeCommandLine(['--workers', parsed.values['--workers']], 'released'))
  const take = <T>(checked: Checked<T> | undefined, fallback: T): T => {
    if (checked === undefined) return fallback
    if (checked.error !== null) {
      errors.push(checked.error)
      return fallback
    }
    return checked.value
  }
  return { released, parsed, given: (flag) => parsed.values[flag], take, errors, warnings: [], advice: [] }
}

/** Transports on, addresses, ports and the IPC path. */
function resolveListeners({ parsed, given, take, errors }: Resolution): Listeners {
  const { switches } = parsed
  const ipcPath = given('--ipcpath') ?? DEFAULT_IPC_PATH
  const listeners: Listeners = {
    on: { http: switches['--http'] === true, ws: switches['--ws'] === true, ipc: switches['--ipcdisable'] !== true },
    httpAddress: take(
      mapDefined(given('--http.addr'), (v) => parseListenAddress('--http.addr', v)),
      DEFAULT_HTTP_ADDR,
    ),
    httpPort: take(
      mapDefined(given('--http.port'), (v) => parsePort('--http.port', v)),
      DEFAULT_HTTP_PORT,
    ),
    wsAddress: take(
      mapDefined(given('--ws.addr'), (v) => parseListenAddress('--ws.addr', v)),
      DEFAULT_WS_ADDR,
    ),
    wsPort: take(
      mapDefined(given('--ws.port'), (v) => parsePort('--ws.port', v)),
      DEFAULT_WS_PORT,
    ),
    ipcPath,
  }
  if (ipcPath === '')
    errors.push('--ipcpath is empty. Give the socket path, for example --ipcpath /tmp/tn.ipc, or leave the flag out.')
  return listeners
}

/**
 * The namespaces each transport serves (values table, rules 1-6; IPC: always the default set)
 * and what `rpc_modules` returns there: built once from the first transport serving rpc (HTTP,
 * WS, IPC). The released node's list never contains tn (merged in outside reth's module registry).
 */
function resolveNamespaces(r: Resolution, on: Listeners['on']): Served {
  const { released, given, errors, warnings, advice } = r
  const select = released ? parseReleasedSelection : parseNamespaceSelection
  const selection = {
    http: select(given('--http.api'), '--http.api'),
    ws: select(given('--ws.api'), '--ws.api'),
  }
  for (const sel of Object.values(selection)) if (sel.error) errors.push(sel.error)
  for (const name of ['http', 'ws'] as const) {
    if (!on[name]) continue
    if (released) describeReleasedSelection(name, selection[name], warnings, advice)
    else describeSelection(name, selection[name], warnings, advice)
  }
  const served: Served['served'] = {
    http: on.http ? selection.http.namespaces : [],
    ws: on.ws ? selection.ws.namespaces : [],
    // IPC: the spec's default set; the released node serves every reth module there (+ tn).
    ipc: on.ipc ? (released ? [...NAMESPACES] : [...DEFAULT_NAMESPACES]) : [],
  }
  const otherModules: Served['otherModules'] = {
    http: [],
    ws: [],
    ipc: on.ipc && released ? [...RETH_ONLY_MODULES] : [],
  }
  adviseFlagsWithoutTransport(r.parsed.values, on, advice)
  if (released && on.ipc)
    advice.push(
      `IPC (${given('--ipcpath') ?? DEFAULT_IPC_PATH}) serves every reth module on the released node, admin, txpool, debug and trace included, to any local process that can open the socket: keep its directory private, or pass --ipcdisable when nothing on this host needs it.`,
    )
  const source = (['http', 'ws', 'ipc'] as const).find((t) => served[t].includes('rpc'))
  const modules = source
    ? Object.fromEntries(
        [...served[source].filter((n) => !(released && n === 'tn')), ...otherModules[source]].map((n) => [
          n,
          RPC_MODULE_VERSION,
        ]),
      )
    : null
  const rpcModulesOf = (t: NetName | 'ipc') => (served[t].includes('rpc') && modules ? { ...modules } : null)
  return { selection, served, otherModules, rpcModulesOf }
}

/** One server for HTTP and WS on the same address and port (rules 7-8): what it requires. */
function checkSharedServer(
  { given, errors }: Resolution,
  { on, httpAddress, httpPort, wsAddress, wsPort }: Listeners,
  selection: Served['selection'],
): { shared: boolean; httpCorsDomain: string | null; wsOrigins: string | null } {
  const shared = on.http && on.ws && httpAddress === wsAddress && httpPort === wsPort
  const httpCorsDomain = given('--http.corsdomain') ?? null
  const wsOrigins = given('--ws.origins') ?? null
  if (shared) {
    const where = hostPort(httpAddress, httpPort)
    if (!sameNamespaces(selection.http.namespaces, selection.ws.namespaces)) {
      errors.push(
        `HTTP and WS share ${where}, so one server answers both and their namespace selections must be identical, but ${describeValue('--http.api', selection.http)} and ${describeValue('--ws.api', selection.ws)}. The RPC server refuses to start. Give both flags the same list or omit both (a missing flag counts as the default set), or put WS on another port (--ws.port ${DEFAULT_WS_PORT}).`,
      )
    }
    if (httpCorsDomain !== null && wsOrigins !== null && httpCorsDomain !== wsOrigins) {
      errors.push(
        `HTTP and WS share ${where}, and --http.corsdomain "${httpCorsDomain}" differs from --ws.origins "${wsOrigins}". The RPC server refuses to start. Give both the same value, or put WS on another port.`,
      )
    }
  } else if (on.http && on.ws && httpPort === wsPort && bindsOverlap(httpAddress, wsAddress)) {
    errors.push(
      `HTTP listens on ${hostPort(httpAddress, httpPort)} and WS on ${hostPort(wsAddress, wsPort)}: a wildcard address takes the port on every interface, so the second server cannot bind it and the node fails to start. Give both the same --http.addr/--ws.addr (one shared server) or different ports.`,
    )
  }
  return { shared, httpCorsDomain, wsOrigins }
}

/** Every worker's transports (the released node has no --workers, an error above, and one RPC server). */
function planWorkers(r: Resolution, l: Listeners, s: Served, shared: boolean): WorkerPlan[] {
  const workerCount = r.released
    ? 1
    : r.take(
        mapDefined(r.given('--workers'), (v) => parseIntegerValue('--workers', v, 1, MAX_WORKERS)),
        1,
      )
  const workers: WorkerPlan[] = []
  for (let index = 0; index < workerCount; index++) {
    const ports = workerPorts({ httpPort: l.httpPort, wsPort: l.wsPort, shared }, index)
    const net = (name: NetName, address: string, port: number): NetTransportPlan => ({
      enabled: l.on[name],
      address,
      port,
      namespaces: [...s.served[name]],
      otherModules: [...s.otherModules[name]],
      rpcModules: s.rpcModulesOf(name),
    })
    const http = net('http', l.httpAddress, ports.http)
    const ws = net('ws', l.wsAddress, ports.ws)
    const ipc: IpcTransportPlan = {
      enabled: l.on.ipc,
      path: workerIpcPath(l.ipcPath, index),
      namespaces: [...s.served.ipc],
      otherModules: [...s.otherModules.ipc],
      rpcModules: s.rpcModulesOf('ipc'),
    }
    checkWorker(r.errors, index, { http, ws, ipc }, l.ipcPath)
    workers.push({ index, sharedServer: shared, http, ws, ipc })
  }
  return workers
}

/** A worker's ports within 65535 and its socket path within what a Unix socket can bind. */
function checkWorker(
  errors: string[],
  index: number,
  plan: { http: NetTransportPlan; ws: NetTransportPlan; ipc: IpcTransportPlan },
  ipcPath: string,
): void {
  for (const name of ['http', 'ws'] as const) {
    const t = plan[name]
    if (t.enabled && t.port > 65535) {
      errors.push(
        `Worker ${index}'s ${LABEL[name]} port would be ${t.port} (worker i > 0 gets ports above max(--http.port, --ws.port); see docs/rpc.md), which is above 65535. Lower --http.port/--ws.port or use fewer --workers.`,
      )
    }
  }
  const { path } = plan.ipc
  const pathBytes = Buffer.byteLength(path)
  if (plan.ipc.enabled && ipcPath !== '' && pathBytes > MAX_IPC_PATH_BYTES) {
    errors.push(
      `${index === 0 ? 'The IPC path' : `Worker ${index}'s IPC path`} "${path}" is ${pathBytes} bytes; a Unix socket path can be at most ${MAX_IPC_PATH_BYTES} bytes, so the node cannot bind it. Give a shorter --ipcpath.`,
    )
  }
}

/** Safety advice beyond the node's own warnings. */
function adviseSafety(
  r: Resolution,
  l: Listeners,
  served: Served['served'],
  jwt: JwtPlan,
  resolvedLimits: ReturnType<typeof resolveLimits>,
  cpus: number,
): void {
  const { advice } = r
  const { limits } = resolvedLimits
  adviseExposure({ http: l.httpAddress, ws: l.wsAddress }, { http: l.httpPort, ws: l.wsPort }, served, jwt, advice)
  const tracing = served.http.some(isTracing) || served.ws.some(isTracing)
  if (tracing && limits.maxTracingRequests > 4) {
    advice.push(
      `Up to ${limits.maxTracingRequests} tracing requests run at once (--rpc.max-tracing-requests${resolvedLimits.given.includes('maxTracingRequests') ? '' : `, default for ${cpus} CPU cores`}). On a host shared with other services 2 to 4 is advised: --rpc.max-tracing-requests 4.`,
    )
  }
  const ethInPublic = (['http', 'ws'] as const).some(
    (t) => served[t].includes('eth') && !isLoopbackAddress(t === 'http' ? l.httpAddress : l.wsAddress),
  )
  for (const [key, flag] of [
    ['maxBlocksPerFilter', '--rpc.max-blocks-per-filter'],
    ['maxLogsPerResponse', '--rpc.max-logs-per-response'],
  ] as const) {
    if (limits[key] === 0 && ethInPublic) {
      advice.push(
        `${flag} 0 removes the limit while eth is served on a non-loopback address: one eth_getLogs call can scan the whole chain. Keep a limit on a public endpoint.`,
      )
    }
  }
  if (!l.on.http && !l.on.ws && !l.on.ipc)
    advice.push('No RPC transport is on (no --http, no --ws, and --ipcdisable): the node serves no JSON-RPC at all.')
  const { passthrough } = r.parsed
  if (passthrough.some((t) => t === '--instance' || t.startsWith('--instance='))) {
    advice.push(
      "--instance offsets the node's ports and IPC path; this plan shows them without that offset. Give explicit --http.port, --ws.port and --ipcpath instead.",
    )
  }
  if (passthrough.includes('--with-unused-ports')) {
    advice.push(
      "--with-unused-ports makes the node pick random free ports; this plan shows the configured ones. Read the real endpoints from the node's log.",
    )
  }
}

function mapDefined<T>(value: string | undefined, fn: (v: string) => Checked<T>): Checked<T> | undefined {
  return value === undefined ? undefined : fn(value)
}

const isTracing = (n: Namespace) => n === 'debug' || n === 'trace'

function sameNamespaces(a: readonly Namespace[], b: readonly Namespace[]): boolean {
  return a.length === b.length && a.every((n) => b.includes(n))
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '')
}

export function hostPort(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`
}

/** Two different addresses on one port conflict when one is a wildcard covering the other. */
function bindsOverlap(a: string, b: string): boolean {
  if (a === b) return false
  const covers = (wild: string, other: string) =>
    isWildcardAddress(wild) && (wild.includes(':') || !other.includes(':'))
  return covers(a, b) || covers(b, a)
}

function describeValue(flag: string, sel: NamespaceSelection): string {
  const list = sel.namespaces.length ? sel.namespaces.join(',') : 'nothing'
  if (sel.kind === 'default') return `${flag} is not given (the default set, ${list})`
  return `${flag} gives ${list}`
}

/** The node's startup warnings (rules 2 and 4) and tnv's advice (rules 1, 3, 5) for one transport's selection. */
function describeSelection(name: NetName, sel: NamespaceSelection, warnings: string[], advice: string[]): void {
  const flag = `--${name}.api`
  const label = LABEL[name]
  for (const entry of sel.unsupported) {
    warnings.push(
      `${label}: namespace "${entry}" in ${flag} is not supported and is dropped. Supported names: ${SUPPORTED}.`,
    )
    const suggestion = suggestNamespace(entry)
    if (entry.toLowerCase() === 'all' || entry.toLowerCase() === 'none') {
      advice.push(
        `${flag}: "${entry}" must be the whole value (or its first entry); inside a list it is an unknown name.`,
      )
    } else if (suggestion) {
      advice.push(
        `${flag}: namespace names are lowercase and case-sensitive: "${entry}" is not recognised; write ${suggestion}.`,
      )
    }
  }
  for (const ns of sel.namespaces.filter(isTracing)) {
    warnings.push(
      `${label} serves ${ns} (named in ${flag}): ${ns === 'debug' ? 'debug_trace*' : 'trace_*'} methods re-execute blocks, can take seconds of CPU time and return large responses.`,
    )
  }
  if (sel.ignored.length > 0) {
    const head = sel.kind === 'all' ? 'all' : 'none'
    const dropped = sel.ignored.join(',')
    const wanted = sel.ignored.filter(
      (e) => (NAMESPACES as readonly string[]).includes(e) && !sel.namespaces.includes(e as Namespace),
    )
    const it = wanted.length === 1 ? 'it' : 'them'
    const fix =
      head === 'all'
        ? `To serve ${it}, list every namespace: ${[...DEFAULT_NAMESPACES, ...wanted].join(',')}`
        : `To serve ${it}, list the namespaces: ${wanted.join(',')}`
    advice.push(
      `${flag} "${head},${dropped}": everything after "${head}" is ignored (${head} must be the whole value)${wanted.length ? `, so ${wanted.join(' and ')} ${wanted.length === 1 ? 'is' : 'are'} not served. ${fix}` : ''}.`,
    )
  }
  if (sel.kind === 'list') {
    if (!sel.namespaces.includes('tn')) {
      advice.push(
        `${label} does not serve tn (${flag} does not name it): tn_* methods answer -32601 there. Add tn to the list to keep them.`,
      )
    }
    if (!sel.namespaces.includes('eth')) {
      advice.push(
        `${label} does not serve eth: observer nodes forward eth_sendRawTransaction to a committee validator's advertised RPC endpoint, so a validator keeps eth served.`,
      )
    }
  }
}

/**
 * The released node's startup warnings and tnv's advice for one transport's selection: the
 * node warns only about admin and txpool ("Attempted to configure unsupported admin RPC
 * module!"); every other dropped name (TN, ots, typos) goes silently, and naming debug or trace
 * is not warned about at all.
 */
function describeReleasedSelection(name: NetName, sel: NamespaceSelection, warnings: string[], advice: string[]): void {
  const flag = `--${name}.api`
  const label = LABEL[name]
  for (const entry of sel.unsupported) {
    if ((RELEASED_WARNED as readonly string[]).includes(entry)) {
      warnings.push(`${label}: Attempted to configure unsupported ${entry} RPC module! (${flag}; it is dropped)`)
      continue
    }
    const suggestion = suggestNamespace(entry)
    advice.push(
      `${flag}: "${entry}" is dropped silently by the released node (no warning in its log)${suggestion && suggestion !== entry ? `; names are case-sensitive: write ${suggestion}` : entry.toLowerCase() === 'all' || entry.toLowerCase() === 'none' ? `; "${entry}" must be the whole value` : ''}.`,
    )
  }
  for (const ns of sel.namespaces.filter(isTracing)) {
    advice.push(
      `${label} serves ${ns}${sel.kind === 'all' ? ` (the released node's "all" includes it)` : ''}: ${ns === 'debug' ? 'debug_trace*' : 'trace_*'} methods re-execute blocks, can take seconds of CPU time and return large responses. The released node logs no warning about it.`,
    )
  }
  if (sel.ignored.length > 0)
    advice.push(`${flag} "${sel.kind},${sel.ignored.join(',')}": everything after "${sel.kind}" is ignored.`)
}

/** Flags for a transport that is off have no effect: say so (the operator probably forgot --http or --ws). */
function adviseFlagsWithoutTransport(
  values: Partial<Record<RpcValueFlag, string>>,
  on: { http: boolean; ws: boolean; ipc: boolean },
  advice: string[],
): void {
  const groups = [
    ['http', ['--http.addr', '--http.port', '--http.api', '--http.corsdomain'], '--http is not given'],
    ['ws', ['--ws.addr', '--ws.port', '--ws.api', '--ws.origins'], '--ws is not given'],
    ['ipc', ['--ipcpath'], '--ipcdisable is given'],
  ] as const
  for (const [name, flags, reason] of groups) {
    if (on[name]) continue
    const set = flags.filter((f) => values[f] !== undefined)
    if (set.length)
      advice.push(
        `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but ${reason}: ${LABEL[name]} is off, so ${set.length === 1 ? 'it has' : 'they have'} no effect.`,
      )
  }
}

function describeJwtSecret(value: string | null, errors: string[]): JwtPlan {
  if (value === null) return { required: false, source: null, path: null }
  if (!/^(0x)?[0-9a-fA-F]*$/.test(value)) {
    errors.push(
      `--rpc.jwtsecret "${value}" is not hex: the node parses this flag as the 32-byte secret in hex (64 digits) and does not read a file, so it refuses to start. Keep the secret in a file and let tnv hand it over: \`tnv node start --jwt-secret-file ${value}\` (or TNV_JWT_SECRET).`,
    )
    return { required: true, source: 'file', path: value }
  }
  const digits = value.replace(/^0x/, '').length
  if (digits !== 64) {
    errors.push(
      `--rpc.jwtsecret is not a valid secret: expected 32 bytes (64 hex digits), got ${digits === 0 ? 'an empty value' : `${digits} hex digit${digits === 1 ? '' : 's'}`}. Make one with \`openssl rand -hex 32\`.`,
    )
  }
  return { required: true, source: 'hex', path: null }
}

function adviseExposure(
  address: Record<NetName, string>,
  port: Record<NetName, number>,
  served: Record<NetName | 'ipc', Namespace[]>,
  jwt: JwtPlan,
  advice: string[],
): void {
  if (jwt.required) return
  for (const name of ['http', 'ws'] as const) {
    const tracing = served[name].filter(isTracing)
    if (tracing.length === 0 || isLoopbackAddress(address[name])) continue
    advice.push(
      `${LABEL[name]} serves ${tracing.join(' and ')} on ${hostPort(address[name], port[name])}, a non-loopback address, without --rpc.jwtsecret: anyone who reaches the port can make the node re-execute blocks. Keep the endpoint behind --rpc.jwtsecret or a proxy that allows only the needed methods, and run debug and trace on a node separate from the public RPC node and from any validator.`,
    )
  }
}
