/**
 * Probes one open connection: `rpc_modules`, one harmless read per namespace, and
 * `eth_subscribe`. A namespace counts as served when its probe gets any JSON-RPC answer
 * except -32601 (the spec's "Namespace not served" code): a result, or another error such
 * as "not found" or invalid params, both prove the method exists.
 *
 * The probes read nothing costly: no block is re-executed (the debug and trace probes ask
 * for a transaction hash of zeros, which no chain holds).
 */
import { remoteText } from '../io/remote-text.js'
import type { CallOutcome, RpcConnection } from './connect.js'
import {
  type NamespaceCheck,
  PROBED_NAMESPACES,
  type ProbedNamespace,
  type ProbeStatus,
  type TransportCheck,
} from './types.js'

const ZERO_HASH = `0x${'0'.repeat(64)}`

/**
 * The method called to probe each namespace (docs/decisions.md, "`rpc check`"). admin and txpool are
 * probed too: the released node serves them over IPC (every reth module), which tells its
 * behaviour apart; both reads change nothing.
 */
export const NAMESPACE_PROBES: Record<ProbedNamespace, { method: string; params: unknown[] }> = {
  eth: { method: 'eth_chainId', params: [] },
  net: { method: 'net_version', params: [] },
  web3: { method: 'web3_clientVersion', params: [] },
  rpc: { method: 'rpc_modules', params: [] },
  tn: { method: 'tn_getCurrentEpoch', params: [] },
  debug: { method: 'debug_getRawTransaction', params: [ZERO_HASH] },
  trace: { method: 'trace_transaction', params: [ZERO_HASH] },
  admin: { method: 'admin_nodeInfo', params: [] },
  txpool: { method: 'txpool_status', params: [] },
}

/** JSON-RPC 2.0 "Method not found": the answer for every method of a namespace not served. */
export const METHOD_NOT_FOUND = -32601

export function probeStatus(outcome: CallOutcome): ProbeStatus {
  switch (outcome.kind) {
    case 'result':
      return 'served'
    case 'error':
      return outcome.code === METHOD_NOT_FOUND ? 'not-served' : 'served'
    case 'unauthorized':
      return 'unauthorized'
    case 'failed':
      return 'failed'
  }
}

export function outcomeDetail(outcome: CallOutcome): string | null {
  switch (outcome.kind) {
    case 'result':
      return null
    case 'error':
      return `${outcome.code} ${remoteText(outcome.message)}`
    case 'unauthorized':
      return `HTTP ${outcome.status}`
    case 'failed':
      return remoteText(outcome.message)
  }
}

export type TransportProbe = {
  rpcModules: Record<string, string> | null
  namespaces: NamespaceCheck[]
  subscriptions: TransportCheck['subscriptions']
}

/** Runs every probe on one connection (concurrently: socket transports multiplex by id). */
export async function probeTransport(conn: RpcConnection): Promise<TransportProbe> {
  const [probes, subscriptions] = await Promise.all([
    Promise.all(
      PROBED_NAMESPACES.map(async (namespace) => {
        const { method, params } = NAMESPACE_PROBES[namespace]
        return { namespace, method, outcome: await conn.call(method, params) }
      }),
    ),
    probeSubscription(conn),
  ])
  const rpcOutcome = probes.find((p) => p.namespace === 'rpc')?.outcome
  return {
    rpcModules: rpcOutcome?.kind === 'result' && isModules(rpcOutcome.result) ? rpcOutcome.result : null,
    namespaces: probes.map(({ namespace, method, outcome }) => ({
      namespace,
      method,
      status: probeStatus(outcome),
      detail: outcomeDetail(outcome),
      expected: null,
    })),
    subscriptions,
  }
}

async function probeSubscription(conn: RpcConnection): Promise<TransportCheck['subscriptions']> {
  const outcome = await conn.call('eth_subscribe', ['newHeads'])
  if (outcome.kind === 'result' && typeof outcome.result === 'string') {
    await conn.call('eth_unsubscribe', [outcome.result])
    return { status: 'works', detail: null }
  }
  if (outcome.kind === 'result')
    return { status: 'failed', detail: `unexpected result ${remoteText(outcome.result, 80)}` }
  return { status: outcome.kind === 'error' ? 'refused' : 'failed', detail: outcomeDetail(outcome) }
}

function isModules(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  )
}
