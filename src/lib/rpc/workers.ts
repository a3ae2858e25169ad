/**
 * Where each worker's RPC server listens (spec: "A node with more than one worker starts one
 * RPC server per worker"; worker 0 uses the configured ports and IPC path). tnv's rule for the
 * other workers, i = 1, 2, ... (docs/rpc.md, docs/decisions.md):
 *
 * - Ports are taken above the highest configured port B = max(--http.port, --ws.port):
 *   - HTTP and WS on separate servers: HTTP = B + 2i - 1, WS = B + 2i
 *     (defaults 8545/8546: worker 1 gets 8547/8548, worker 2 gets 8549/8550);
 *   - one shared server (HTTP and WS on the same address and port): B + i for both.
 * - IPC path: `-worker<i>` goes before the extension: /tmp/tn.ipc → /tmp/tn-worker1.ipc.
 *
 * Every derived port is above both configured ports and all derived ports differ, so no
 * worker's port collides with another worker's or with the other transport's. A derived port
 * above 65535 cannot be bound: the resolver reports it as an error (the node refuses).
 * The rule depends only on the two port flags and on sharing, not on which transports are on,
 * so turning WS on later does not move the HTTP ports. Pure.
 */

/** The node takes 1 to 4 workers (reference-facts: "it accepts 1..4"). */
export const MAX_WORKERS = 4

export type WorkerPortBase = {
  httpPort: number
  wsPort: number
  /** HTTP and WS of worker 0 share one server (same address and port, both on). */
  shared: boolean
}

/** The HTTP and WS ports of worker `index` (worker 0: the configured ones). May exceed 65535: check. */
export function workerPorts(base: WorkerPortBase, index: number): { http: number; ws: number } {
  if (index === 0) return { http: base.httpPort, ws: base.wsPort }
  const top = Math.max(base.httpPort, base.wsPort)
  if (base.shared) return { http: top + index, ws: top + index }
  return { http: top + 2 * index - 1, ws: top + 2 * index }
}

/**
 * The IPC path of worker `index`.
 * @example workerIpcPath('/tmp/tn.ipc', 2) // '/tmp/tn-worker2.ipc'
 * @example workerIpcPath('/run/tn/socket', 1) // '/run/tn/socket-worker1'
 */
export function workerIpcPath(path: string, index: number): string {
  if (index === 0) return path
  const slash = path.lastIndexOf('/')
  const dir = path.slice(0, slash + 1)
  const name = path.slice(slash + 1)
  const dot = name.lastIndexOf('.')
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
  return `${dir}${stem}-worker${index}${ext}`
}
