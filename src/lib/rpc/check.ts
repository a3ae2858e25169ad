/**
 * `tnv rpc check`: live verification of a running node on HTTP, WebSocket and IPC (any
 * subset). Per transport: `rpc_modules`, one harmless probe per namespace, `eth_subscribe`,
 * and, when a JWT secret is known, that a request without a token and one with a token
 * signed by another secret are refused while a good token is served. The findings are judged
 * by evaluateCheck (./evaluate-check.ts) against the spec and, with an expected plan,
 * against the plan of the node's flags.
 */
import { randomBytes } from 'node:crypto'
import { lookup } from 'node:dns/promises'
import type { RpcPlans } from './behaviours.js'
import { type CallOutcome, openRpcConnection, type RpcConnection, type RpcTarget } from './connect.js'
import { evaluateCheck } from './evaluate-check.js'
import { createJwt } from './jwt.js'
import { isLoopbackAddress, isWildcardAddress } from './loopback.js'
import { inProbeOrder } from './namespaces.js'
import { probeTransport } from './probe.js'
import type { AuthOutcome, RpcBehaviour, RpcCheckReport, RpcPlan, TransportCheck, TransportName } from './types.js'

export type CheckRpcEndpointsParameters = {
  http?: string | undefined
  ws?: string | undefined
  ipc?: string | undefined
  /** The node's JWT secret (normalised hex, see readJwtSecret), or null when none is known. */
  jwtSecretHex?: string | null
  /**
   * The plans of the flags the node is expected to run with, under both behaviours
   * (resolveRpcPlans), or one plan (resolveRpcPlan), or null.
   */
  expect?: RpcPlans | RpcPlan | null
  /** The behaviour to judge by when the answers fit both (default: the released node's). */
  behaviour?: RpcBehaviour
  /** Per-call timeout, milliseconds. */
  timeoutMs?: number
}

/**
 * @example
 * const report = await checkRpcEndpoints({ http: 'http://127.0.0.1:8545', expect: resolveRpcPlan(['--http']) })
 * report.ok // true when everything matches
 */
export async function checkRpcEndpoints({
  http,
  ws,
  ipc,
  jwtSecretHex = null,
  expect = null,
  behaviour,
  timeoutMs = 5000,
}: CheckRpcEndpointsParameters): Promise<RpcCheckReport> {
  const targets: RpcTarget[] = []
  if (http !== undefined) targets.push({ transport: 'http', url: http })
  if (ws !== undefined) targets.push({ transport: 'ws', url: ws })
  if (ipc !== undefined) targets.push({ transport: 'ipc', path: ipc })
  const checks = await Promise.all(targets.map((t) => checkTransport(t, jwtSecretHex, timeoutMs)))
  const byName = (name: TransportName) => checks.find((c) => c.transport === name) ?? null
  return evaluateCheck(
    { http: byName('http'), ws: byName('ws'), ipc: byName('ipc') },
    { expect, jwtSecretKnown: jwtSecretHex !== null, ...(behaviour ? { behaviour } : {}) },
  )
}

async function checkTransport(target: RpcTarget, secret: string | null, timeoutMs: number): Promise<TransportCheck> {
  const net = target.transport !== 'ipc'
  const label = target.transport === 'ipc' ? target.path : target.url
  const useToken = net && secret !== null
  const token = useToken ? await createJwt(secret) : null
  const connections: RpcConnection[] = []
  const open = (tok: string | null) => {
    const conn = openRpcConnection(target, { token: tok, timeoutMs })
    connections.push(conn)
    return conn
  }
  try {
    const [loopback, probe, withoutToken, wrongToken] = await Promise.all([
      target.transport === 'ipc' ? true : hostIsLoopback(new URL(target.url).hostname),
      probeTransport(open(token)),
      useToken ? authProbe(open(null)) : ('not-tested' as const),
      useToken ? createJwt(randomBytes(32).toString('hex')).then((t) => authProbe(open(t))) : ('not-tested' as const),
    ])
    const statuses = probe.namespaces.map((n) => n.status)
    const reachable = statuses.some((s) => s === 'served' || s === 'not-served')
    const unauthorized = statuses.includes('unauthorized')
    const failedProbe = probe.namespaces.find((n) => n.status === 'failed')
    const failure = unauthorized
      ? useToken
        ? `${label} refused the token made from the JWT secret (HTTP 401/403): the secret is not the node's --rpc.jwtsecret, or this host's clock is more than 60 s off.`
        : `${label} needs a JWT (HTTP 401/403). Pass --jwt-secret @FILE (the node's --rpc.jwtsecret secret in a file) or set TNV_JWT_SECRET.`
      : !reachable
        ? `${label} did not answer: ${failedProbe?.detail ?? 'no response'}.`
        : null
    return {
      transport: target.transport,
      target: label,
      loopback,
      reachable,
      failure,
      auth: { tokenSent: useToken, withoutToken, wrongToken },
      rpcModules: probe.rpcModules,
      namespaces: probe.namespaces,
      served: inProbeOrder(probe.namespaces.filter((n) => n.status === 'served').map((n) => n.namespace)),
      subscriptions: probe.subscriptions,
      expected: null,
    }
  } finally {
    for (const c of connections) c.close()
  }
}

/** One request without (or with a bad) token: did the endpoint answer it? */
async function authProbe(conn: RpcConnection): Promise<AuthOutcome> {
  const outcome: CallOutcome = await conn.call('eth_chainId', [])
  if (outcome.kind === 'unauthorized') return 'refused'
  return outcome.kind === 'failed' ? 'failed' : 'accepted'
}

/** True when every address the host name resolves to is loopback (an IP literal resolves to itself). */
async function hostIsLoopback(hostname: string): Promise<boolean> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
  if (isLoopbackAddress(host)) return true
  try {
    const addresses = await lookup(host, { all: true })
    return addresses.length > 0 && addresses.every((a) => isLoopbackAddress(a.address))
  } catch {
    return false
  }
}

/** Worker 0's endpoints of a plan as a client dials them (a wildcard listen address is dialled on loopback). */
export function planTargets(plan: RpcPlan): { http?: string; ws?: string; ipc?: string } {
  const dial = (address: string) => {
    const host = isWildcardAddress(address) ? (address.includes(':') ? '::1' : '127.0.0.1') : address
    return host.includes(':') ? `[${host}]` : host
  }
  const { http, ws, ipc } = plan.transports
  return {
    ...(http.enabled ? { http: `http://${dial(http.address)}:${http.port}` } : {}),
    ...(ws.enabled ? { ws: `ws://${dial(ws.address)}:${ws.port}` } : {}),
    ...(ipc.enabled ? { ipc: ipc.path } : {}),
  }
}
