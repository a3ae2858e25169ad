/** Endpoints of a planned node, and the worker endpoints the node itself logs at start-up. */
import type { RpcPlan } from '../rpc/types.js'

/** The marker line the node logs once its per-worker RPC endpoints are known (spec). */
export const WORKER_ENDPOINTS_MARKER = 'worker rpc endpoints resolved'

function reachableHost(address: string): string {
  if (address === '0.0.0.0' || address === '') return '127.0.0.1'
  if (address === '::' || address === '[::]') return '[::1]'
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address
}

/** Worker 0's endpoints as tnv should dial them (wildcard listen addresses become loopback). */
export function planEndpoints(plan: RpcPlan): { http: string | null; ws: string | null; ipc: string | null } {
  const { http, ws, ipc } = plan.transports
  return {
    http: http.enabled ? `http://${reachableHost(http.address)}:${http.port}` : null,
    ws: ws.enabled ? `ws://${reachableHost(ws.address)}:${ws.port}` : null,
    ipc: ipc.enabled ? ipc.path : null,
  }
}

/**
 * Extracts the endpoints from a `worker rpc endpoints resolved` log line, whatever the log
 * format around them (plain text or JSON): URLs and absolute IPC paths, in order.
 */
export function parseWorkerEndpointsLine(line: string): string[] | null {
  if (!line.includes(WORKER_ENDPOINTS_MARKER)) return null
  const found = line.match(/(?:https?|wss?):\/\/[^\s",'}\]]+|\/[^\s",'}\]]+\.ipc/g)
  return found ? [...new Set(found)] : []
}
