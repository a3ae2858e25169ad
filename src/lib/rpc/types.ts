/**
 * The RPC plan: what a node started with a given argument list serves, per transport and
 * per worker (spec: node-rpc-namespaces.md). Produced by `resolveRpcPlan` (./resolve.ts),
 * the project's only implementation of the namespace rules; consumed by `tnv rpc plan`,
 * `tnv rpc check --expect`, the reference node (src/devnet/node) and the node driver.
 * The JSON of `tnv rpc plan --json` is this object (documented in docs/rpc-plan.md).
 */

/** Namespace names the node serves (spec: lowercase, case-sensitive). */
export const NAMESPACES = ['eth', 'net', 'web3', 'rpc', 'tn', 'debug', 'trace'] as const
export type Namespace = (typeof NAMESPACES)[number]

/** The default set: flag not given, `all`, and always IPC. */
export const DEFAULT_NAMESPACES: readonly Namespace[] = ['eth', 'net', 'web3', 'rpc', 'tn']

/**
 * Which release's namespace rules a plan follows (real-network/node.md §4):
 * - `spec`: the specification (node-rpc-namespaces.md), not released yet;
 * - `released`: the node operators run today (v0.14.0-adiri and main), which is the spec's
 *   "earlier releases": `tn` on every enabled transport whatever the selection; `all` adds
 *   debug and trace; HTTP/WS default eth, net, web3 (no rpc); IPC serves every reth module;
 *   only admin and txpool are warned about.
 */
export type RpcBehaviour = 'spec' | 'released'

/** The modules of reth that the released node serves over IPC besides the seven above (node.md §4). */
export const RETH_ONLY_MODULES = ['admin', 'txpool', 'reth', 'ots', 'flashbots', 'miner', 'mev', 'testing'] as const

/** What `rpc check` probes: the seven namespaces, plus admin and txpool (served only over the released node's IPC). */
export const PROBED_NAMESPACES = [...NAMESPACES, 'admin', 'txpool'] as const
export type ProbedNamespace = (typeof PROBED_NAMESPACES)[number]

export type TransportName = 'http' | 'ws' | 'ipc'

export type NetTransportPlan = {
  enabled: boolean
  address: string
  port: number
  /** Served namespaces, in the spec's order (eth, net, web3, rpc, tn, debug, trace). Empty when disabled. */
  namespaces: Namespace[]
  /** Modules served besides those seven (only the released node's IPC: admin, txpool, reth, …); else empty. */
  otherModules: string[]
  /** What `rpc_modules` returns here (name -> "1.0"), or null where `rpc` is not served (-32601). */
  rpcModules: Record<string, string> | null
}

export type IpcTransportPlan = {
  enabled: boolean
  path: string
  namespaces: Namespace[]
  /** Modules served besides the seven (the released node: every other reth module); else empty. */
  otherModules: string[]
  rpcModules: Record<string, string> | null
}

export type TransportsPlan = { http: NetTransportPlan; ws: NetTransportPlan; ipc: IpcTransportPlan }

export type WorkerPlan = TransportsPlan & {
  index: number
  /** True when HTTP and WS of this worker share address and port (one server answers both). */
  sharedServer: boolean
}

export type RpcLimits = {
  maxTracingRequests: number
  maxTraceFilterBlocks: number
  /** 0 = no limit */
  maxBlocksPerFilter: number
  /** 0 = no limit */
  maxLogsPerResponse: number
  /** A plain number (JSON friendly); values are validated up to Number.MAX_SAFE_INTEGER. */
  gasCap: number
  /** megabytes */
  maxResponseSizeMb: number
  maxConnections: number
  /** megabytes (reference: --rpc.max-request-size, 15) */
  maxRequestSizeMb: number
}

export type JwtPlan = {
  /** True when --rpc.jwtsecret is set: HTTP requests and WS upgrades need `Authorization: Bearer <JWT>`. IPC never does. */
  required: boolean
  /**
   * `hex`: the secret itself was given; `file`: the value is not hex (a file path?), which the
   * node refuses: it parses --rpc.jwtsecret as hex only (the plan then has an error); null: no JWT.
   */
  source: 'hex' | 'file' | null
  /** The value when `source` is `file`, else null. */
  path: string | null
}

export type RpcPlan = {
  /** Whose rules this plan follows: the specification's release or the released node. */
  behaviour: RpcBehaviour
  /** False when the node would refuse to start (see `errors`). */
  ok: boolean
  /** Reasons the node refuses to start. */
  errors: string[]
  /** Startup warnings the node logs (unsupported names dropped, debug/trace named). */
  warnings: string[]
  /** Safety advice beyond the node's own warnings (e.g. debug exposed without JWT). */
  advice: string[]
  /** Worker 0's transports (the configured addresses). */
  transports: TransportsPlan
  /** One entry per worker, index 0 first (same as `transports`). */
  workers: WorkerPlan[]
  limits: RpcLimits
  /**
   * The value of --rpc.jwtsecret as given (hex secret or a file path), or null. This can be a
   * SECRET: print a plan only through `redactPlan` (./format-plan.ts); `jwt` says the same without it.
   */
  jwtSecret: string | null
  /** Whether HTTP and WS need a JWT bearer token, and where the secret comes from (never the secret). */
  jwt: JwtPlan
  httpCorsDomain: string[] | null
  wsOrigins: string[] | null
  /** Node flags the resolver does not interpret, passed through untouched. */
  passthrough: string[]
}

/*
 * The report of `tnv rpc check` (checkRpcEndpoints in ./check.ts). The JSON of
 * `tnv rpc check --json` is this object (documented in docs/rpc-plan.md).
 */

/** How one probe call went: any JSON-RPC answer but -32601 means served; -32601 means not served. */
export type ProbeStatus = 'served' | 'not-served' | 'unauthorized' | 'failed'

export type NamespaceCheck = {
  namespace: ProbedNamespace
  /** The harmless method called to probe the namespace. */
  method: string
  status: ProbeStatus
  /** The JSON-RPC error or the failure, when the call did not return a result; else null. */
  detail: string | null
  /** Whether the expected plan serves the namespace here, or null without --expect. */
  expected: boolean | null
}

/** How the endpoint treated a request: `accepted` (answered), `refused` (HTTP 401/403), `failed`, or `not-tested`. */
export type AuthOutcome = 'accepted' | 'refused' | 'failed' | 'not-tested'

export type TransportCheck = {
  transport: TransportName
  /** The URL or IPC path checked. */
  target: string
  /** True when the target can be reached only from this host (IPC; a host resolving only to loopback). */
  loopback: boolean
  /** False when no JSON-RPC answer came back at all. */
  reachable: boolean
  /** Why the transport could not be checked (unreachable, a token is needed), or null. */
  failure: string | null
  auth: {
    /** A token made from the JWT secret was sent with the probes. */
    tokenSent: boolean
    /** A request without a token (tested when a JWT secret is known; HTTP and WS only). */
    withoutToken: AuthOutcome
    /** A request with a token signed by another secret (tested when a JWT secret is known). */
    wrongToken: AuthOutcome
  }
  /** The `rpc_modules` answer: the object, or null when not served or not answered. */
  rpcModules: Record<string, string> | null
  namespaces: NamespaceCheck[]
  /** The namespaces found served, in the spec's order (then admin, txpool). */
  served: ProbedNamespace[]
  /** eth_subscribe: `works` (a subscription id came back), `refused` (a JSON-RPC error), `failed`. */
  subscriptions: { status: 'works' | 'refused' | 'failed'; detail: string | null }
  /** What the expected plan says about this endpoint (matched by port or path), or null without --expect. */
  expected: {
    worker: number
    enabled: boolean
    namespaces: Namespace[]
    otherModules: string[]
    rpcModules: Record<string, string> | null
    jwtRequired: boolean
  } | null
}

/** Which namespace behaviour a live node shows (`rpc check`). */
export type BehaviourVerdict = {
  /** `released` or `spec` when the answers show it; `undetermined` when they fit both. */
  detected: RpcBehaviour | 'undetermined'
  /** What showed it (or why nothing did). */
  evidence: string[]
  /** The behaviour the report judges the node by (detected, else --behaviour, else the released node's). */
  judgedAs: RpcBehaviour
}

export type RpcCheckReport = {
  /** False when anything below is non-empty: mismatches, exposures or failures. */
  ok: boolean
  transports: { http: TransportCheck | null; ws: TransportCheck | null; ipc: TransportCheck | null }
  /** Differences from the spec or from the expected plan (exit code 25). */
  mismatches: string[]
  /** debug or trace answering without authentication on a non-loopback address (exit code 25). */
  exposures: string[]
  /** Endpoints that could not be checked: unreachable, token needed or refused (exit code 10). */
  failures: string[]
  /** Facts worth knowing that are not failures. */
  notes: string[]
  /** The expected plan's verdict (--expect) under the behaviour judged, or null. */
  expected: { ok: boolean; errors: string[]; warnings: string[] } | null
  /** Which behaviour the node shows, and which one the findings are judged by. */
  behaviour: BehaviourVerdict
}
