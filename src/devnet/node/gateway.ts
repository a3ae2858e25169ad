/**
 * The reference node's RPC gateway: every worker's servers as the plan says (worker 0 on
 * the configured ports and path, the others on the resolver's derived ones, all serving the
 * same selection), in front of one engine, with one tracing semaphore for the whole node.
 * The plan (src/lib/rpc/resolve.ts) is the only source of what is served where.
 */
import { promises as fs } from 'node:fs'
import type { Server } from 'node:http'
import type { Server as NetServer } from 'node:net'
import type { Address } from 'viem'
import type { Namespace, RpcPlan } from '../../lib/rpc/types.js'
import { createJwtGate } from './access.js'
import { Dispatcher } from './dispatch.js'
import { EngineClient } from './engine-client.js'
import { EngineSwap } from './engine-subscriptions.js'
import { createIpcServer, prepareIpcPath } from './ipc-server.js'
import { createNetServer, type RpcServer, type ServedProtocol, type ServerTimeouts } from './net-server.js'
import { Semaphore } from './semaphore.js'
import { createTnMethods, type TnContext } from './tn-methods.js'

export type GatewayParameters = {
  plan: RpcPlan
  /** The engine's IPC socket (`DevnetChain.engineIpcPath`, or the runtime file's `engine.ipcPath`). */
  engine: { ipcPath: string }
  chainId: number
  registry: Address
  issuance: Address
  /** The JWT secret (64 hex digits) read from --rpc.jwtsecret, or null. */
  jwtSecretHex: string | null
  /** --rpc.max-subscriptions-per-connection (reference default 1024). */
  maxSubscriptions: number
  clientVersion: string
  /** What the tn_* methods need beyond the above: registry generation, node identity, genesis file. */
  tn?: Pick<TnContext, 'generation' | 'identity' | 'genesisFile' | 'presence' | 'neverCatchUp'>
  /** The HTTP servers' slow- and idle-client timeouts (default SERVER_TIMEOUTS; tests shorten them). */
  timeouts?: Partial<ServerTimeouts> | undefined
}

export type WorkerEndpoints = { worker: number; http: string | null; ws: string | null; ipc: string | null }

export type Gateway = {
  endpoints: WorkerEndpoints[]
  /** The node-wide tracing semaphore (observable for tests and logs). */
  tracing: Semaphore
  /** Connection slots of every server (open, evicted, refused), for tests and the benchmark. */
  slotStats(): { open: number; max: number; evicted: number; refused: number }[]
  /**
   * Announces a planned engine restart and holds requests to the engine (they wait) once those
   * under way are answered; call the result once the new engine is up or the restart failed: it
   * restores the clients' subscriptions on the engine, then lets the held requests go on.
   */
  pauseEngine(): Promise<() => Promise<void>>
  close(): Promise<void>
}

/** A server could not listen where the plan says (port taken, socket path in use, ...). */
export class GatewayListenError extends Error {}

function urlHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address
}

function protocolOf(
  namespaces: Namespace[],
  rpcModules: Record<string, string> | null,
  origins: string[] | null,
): ServedProtocol {
  return { served: new Set(namespaces), rpcModules: rpcModules ? JSON.stringify(rpcModules) : null, origins }
}

function listenTcp(server: Server, port: number, address: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(
        new GatewayListenError(
          `${what} cannot listen on ${urlHost(address)}:${port}: ${err.code === 'EADDRINUSE' ? 'the port is in use' : err.message}`,
        ),
      )
    server.once('error', onError)
    server.listen({ port, host: address, exclusive: true }, () => {
      server.off('error', onError)
      resolve()
    })
  })
}

function listenIpc(server: NetServer, path: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(new GatewayListenError(`${what} cannot listen on ${path}: ${err.message}`))
    server.once('error', onError)
    server.listen(path, () => {
      server.off('error', onError)
      resolve()
    })
  })
}

export async function startGateway(p: GatewayParameters): Promise<Gateway> {
  const { plan } = p
  const { limits } = plan
  const maxRequestBytes = limits.maxRequestSizeMb * 1024 * 1024
  const engine = new EngineClient({ path: p.engine.ipcPath, maxResponseBytes: limits.maxResponseSizeMb * 1024 * 1024 })
  let engineCallGas: bigint | null = null
  try {
    const block = (await engine.call('eth_getBlockByNumber', ['latest', false])) as { gasLimit?: string } | null
    if (block?.gasLimit) engineCallGas = BigInt(block.gasLimit)
  } catch {
    // unknown: every call without gas then gets the cap explicitly
  }
  const tracing = new Semaphore(limits.maxTracingRequests)
  const dispatcher = new Dispatcher({
    engine,
    tracing,
    limits,
    engineCallGas,
    clientVersion: p.clientVersion,
    tn: createTnMethods({
      engine,
      chainId: p.chainId,
      registry: p.registry,
      issuance: p.issuance,
      clientVersion: p.clientVersion,
      ...p.tn,
    }),
  })
  const jwt = createJwtGate(p.jwtSecretHex)
  const engineSwap = new EngineSwap()
  const common = {
    dispatcher,
    jwt,
    maxConnections: limits.maxConnections,
    maxRequestBytes,
    engineIpcPath: p.engine.ipcPath,
    engineSwap,
    maxSubscriptions: p.maxSubscriptions,
    timeouts: p.timeouts,
  }

  const servers: RpcServer<Server | NetServer>[] = []
  const ipcPaths: string[] = []
  const endpoints: WorkerEndpoints[] = []
  const close = async () => {
    await Promise.all(servers.map((s) => s.shutdown()))
    await Promise.all(ipcPaths.map((path) => fs.rm(path, { force: true })))
    engine.close()
  }

  try {
    for (const worker of plan.workers) {
      const { http, ws, ipc, index } = worker
      const label = (t: string) => `The ${t} server of worker ${index}`
      // One server for both on a shared address and port: one origin list for both (spec rule 7).
      const sharedOrigins = plan.wsOrigins ?? plan.httpCorsDomain
      const httpProtocol = http.enabled
        ? protocolOf(http.namespaces, http.rpcModules, worker.sharedServer ? sharedOrigins : plan.httpCorsDomain)
        : null
      const wsProtocol = ws.enabled
        ? protocolOf(ws.namespaces, ws.rpcModules, worker.sharedServer ? sharedOrigins : plan.wsOrigins)
        : null
      const endpoint: WorkerEndpoints = { worker: index, http: null, ws: null, ipc: null }
      if (worker.sharedServer && httpProtocol && wsProtocol) {
        const rpc = createNetServer({ ...common, http: httpProtocol, ws: wsProtocol })
        servers.push(rpc)
        await listenTcp(rpc.server, http.port, http.address, label('HTTP and WS'))
        endpoint.http = `http://${urlHost(http.address)}:${http.port}`
        endpoint.ws = `ws://${urlHost(ws.address)}:${ws.port}`
      } else {
        if (httpProtocol) {
          const rpc = createNetServer({ ...common, http: httpProtocol, ws: null })
          servers.push(rpc)
          await listenTcp(rpc.server, http.port, http.address, label('HTTP'))
          endpoint.http = `http://${urlHost(http.address)}:${http.port}`
        }
        if (wsProtocol) {
          const rpc = createNetServer({ ...common, http: null, ws: wsProtocol })
          servers.push(rpc)
          await listenTcp(rpc.server, ws.port, ws.address, label('WS'))
          endpoint.ws = `ws://${urlHost(ws.address)}:${ws.port}`
        }
      }
      if (ipc.enabled) {
        try {
          await prepareIpcPath(ipc.path)
        } catch (err) {
          throw new GatewayListenError(`${label('IPC')} cannot listen on ${ipc.path}: ${(err as Error).message}`)
        }
        const rpc = createIpcServer({ ...common, protocol: protocolOf(ipc.namespaces, ipc.rpcModules, null) })
        servers.push(rpc)
        ipcPaths.push(ipc.path)
        await listenIpc(rpc.server, ipc.path, label('IPC'))
        await fs.chmod(ipc.path, 0o600)
        endpoint.ipc = ipc.path
      }
      endpoints.push(endpoint)
    }
  } catch (err) {
    await close()
    throw err
  }
  return {
    endpoints,
    tracing,
    close,
    slotStats: () => servers.map((s) => s.slots.stats()),
    pauseEngine: async () => {
      // announced first: subscription connections that close from now on are restored, not ended
      engineSwap.begin()
      const resume = await engine.pause()
      return async () => {
        // the subscriptions are back on the new engine before the held requests go on
        await engineSwap.end()
        resume()
      }
    },
  }
}
