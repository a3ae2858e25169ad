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

export type TransportName = 'http' | 'ws' | 'ipc'

export type NetTransportPlan = {
  enabled: boolean
  address: string
  port: number
  /** Served namespaces, in the spec's order (eth, net, web3, rpc, tn, debug, trace). Empty when disabled. */
  namespaces: Namespace[]
  /** What `rpc_modules` returns here (name -> "1.0"), or null where `rpc` is not served (-32601). */
  rpcModules: Record<string, string> | null
}

export type IpcTransportPlan = {
  enabled: boolean
  path: string
  namespaces: Namespace[]
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
  gasCap: bigint | number
  /** megabytes */
  maxResponseSizeMb: number
  maxConnections: number
  /** megabytes (reference: --rpc.max-request-size, 15) */
  maxRequestSizeMb: number
}

export type RpcPlan = {
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
  /** Hex secret given by --rpc.jwtsecret (a file path or hex, as the node takes it), or null. */
  jwtSecret: string | null
  httpCorsDomain: string[] | null
  wsOrigins: string[] | null
  /** Node flags the resolver does not interpret, passed through untouched. */
  passthrough: string[]
}
