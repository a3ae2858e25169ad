/**
 * A small JSON-RPC server for the `rpc check` tests, driven by a plan from the resolver:
 * for each worker, HTTP and WS (one server when they share address and port) and IPC, each
 * serving exactly its plan's namespaces (-32601 `Method not found` for the rest), the plan's
 * `rpc_modules`, subscriptions on WS and IPC only, and JWT (HS256, iat ±60 s) on HTTP and WS
 * when the plan has --rpc.jwtsecret. Faults make it break one rule at a time, so the tests
 * prove `rpc check` notices. With `behaviour: 'released'` it serves the plan of the released
 * node's rules (real-network/node.md §4: tn everywhere, IPC with every reth module, rpc_modules
 * without tn), so `rpc check` can be tested against both behaviours.
 */
import { rmSync } from 'node:fs'
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http'
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { verifyAuthorizationHeader } from '../../../src/lib/rpc/jwt.js'
import { resolveRpcPlan } from '../../../src/lib/rpc/resolve.js'
import type { IpcTransportPlan, NetTransportPlan, RpcBehaviour, RpcPlan } from '../../../src/lib/rpc/types.js'

export type ServerFaults = {
  /** Answer eth_subscribe over HTTP (the spec says it must not work there). */
  subscribeOverHttp?: boolean
  /** Serve HTTP and WS without checking tokens although the plan has --rpc.jwtsecret. */
  ignoreJwt?: boolean
  /** Accept any well-formed bearer token, whatever its signature. */
  acceptAnyToken?: boolean
  /** Answer rpc_modules on this transport with this object. */
  rpcModules?: { transport: 'http' | 'ws' | 'ipc'; value: Record<string, string> }
  /** Refuse eth_subscribe on WS and IPC. */
  noSubscriptions?: boolean
  /** Whose namespace rules to serve (default: the specification's). */
  behaviour?: RpcBehaviour
}

export type TestRpcServer = {
  plan: RpcPlan
  close(): Promise<void>
}

type Kind = 'http' | 'ws' | 'ipc'
type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown }

const CHAIN_ID = '0x7e1'

/** Starts every worker's servers of the plan of `argv` (which must be ok). */
export async function startTestRpcServer(argv: string[], faults: ServerFaults = {}): Promise<TestRpcServer> {
  const plan = resolveRpcPlan(argv, { cpus: 4, behaviour: faults.behaviour ?? 'spec' })
  if (!plan.ok) throw new Error(`test server: the plan is not ok: ${plan.errors.join(' ')}`)
  const closers: (() => Promise<void>)[] = []
  let subscriptionId = 0

  const answer = (transport: NetTransportPlan | IpcTransportPlan, kind: Kind, req: JsonRpcRequest) => {
    const id = req.id ?? null
    const ok = (result: unknown) => ({ jsonrpc: '2.0', id, result })
    const notFound = { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }
    if (typeof req.method !== 'string')
      return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } }
    const namespace = req.method.split('_')[0] ?? ''
    if (!(transport.namespaces as string[]).includes(namespace) && !transport.otherModules.includes(namespace))
      return notFound
    switch (req.method) {
      case 'eth_chainId':
        return ok(CHAIN_ID)
      case 'net_version':
        return ok('2017')
      case 'web3_clientVersion':
        return ok('tnv-test-server/0.0.0')
      case 'rpc_modules':
        return ok(faults.rpcModules?.transport === kind ? faults.rpcModules.value : transport.rpcModules)
      case 'tn_getCurrentEpoch':
        return ok(0)
      case 'debug_getRawTransaction':
      case 'trace_transaction':
        return ok(null)
      case 'admin_nodeInfo':
        return ok({ name: 'tnv-test-server' })
      case 'txpool_status':
        return ok({ pending: '0x0', queued: '0x0' })
      case 'eth_subscribe':
        if (kind === 'http' && !faults.subscribeOverHttp) return notFound
        if (kind !== 'http' && faults.noSubscriptions)
          return { jsonrpc: '2.0', id, error: { code: -32000, message: 'subscriptions disabled' } }
        return ok(`0x${(++subscriptionId).toString(16)}`)
      case 'eth_unsubscribe':
        return kind === 'http' ? notFound : ok(true)
      default:
        return notFound
    }
  }
  const handle = (transport: NetTransportPlan | IpcTransportPlan, kind: Kind, text: string): unknown => {
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }
    }
    return Array.isArray(body)
      ? body.map((r) => answer(transport, kind, r))
      : answer(transport, kind, body as JsonRpcRequest)
  }
  const authorized = async (req: IncomingMessage): Promise<boolean> => {
    if (!plan.jwtSecret || faults.ignoreJwt) return true
    const header = req.headers.authorization
    if (faults.acceptAnyToken) return typeof header === 'string' && /^Bearer \S+\.\S+\.\S+$/.test(header)
    return (await verifyAuthorizationHeader(header, plan.jwtSecret)).valid
  }

  const listen = (server: Server, address: string, port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, address, () => resolve())
    })

  for (const worker of plan.workers) {
    const netServers: { http?: NetTransportPlan; ws?: NetTransportPlan; address: string; port: number }[] = []
    if (worker.http.enabled)
      netServers.push({ http: worker.http, address: worker.http.address, port: worker.http.port })
    if (worker.ws.enabled) {
      if (worker.sharedServer) (netServers[0] as { ws?: NetTransportPlan }).ws = worker.ws
      else netServers.push({ ws: worker.ws, address: worker.ws.address, port: worker.ws.port })
    }
    for (const spec of netServers) {
      const server = createHttpServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', async () => {
          if (!spec.http || req.method !== 'POST') {
            res.writeHead(405).end()
            return
          }
          if (!(await authorized(req))) {
            res.writeHead(401, { 'content-type': 'text/plain' }).end('missing or invalid JWT')
            return
          }
          const reply = handle(spec.http, 'http', Buffer.concat(chunks).toString('utf8'))
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply))
        })
      })
      const wss = new WebSocketServer({ noServer: true })
      server.on('upgrade', async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (!spec.ws || !(await authorized(req))) {
          socket.end(
            `HTTP/1.1 ${spec.ws ? '401 Unauthorized' : '404 Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
          )
          return
        }
        const wsPlan = spec.ws
        wss.handleUpgrade(req, socket, head, (client) => {
          client.on('message', (data) => client.send(JSON.stringify(handle(wsPlan, 'ws', data.toString()))))
        })
      })
      await listen(server, spec.address, spec.port)
      closers.push(
        () =>
          new Promise<void>((resolve) => {
            for (const client of wss.clients) client.terminate()
            server.closeAllConnections()
            server.close(() => resolve())
          }),
      )
    }
    if (worker.ipc.enabled) {
      const ipcPlan = worker.ipc
      rmSync(ipcPlan.path, { force: true })
      const sockets = new Set<Socket>()
      const server: NetServer = createNetServer((socket) => {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        let buffer = ''
        socket.on('data', (chunk) => {
          buffer += chunk.toString('utf8')
          const [messages, rest] = splitJsonStream(buffer)
          buffer = rest
          for (const m of messages) socket.write(`${JSON.stringify(handle(ipcPlan, 'ipc', m))}\n`)
        })
        socket.on('error', () => {})
      })
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(ipcPlan.path, () => resolve())
      })
      closers.push(
        () =>
          new Promise<void>((resolve) => {
            for (const s of sockets) s.destroy()
            server.close(() => resolve())
          }),
      )
    }
  }
  return {
    plan,
    async close() {
      await Promise.all(closers.map((c) => c()))
    },
  }
}

/**
 * Splits a stream of concatenated JSON values (IPC clients send objects back to back, with
 * or without newlines) into complete values and the unfinished rest.
 */
export function splitJsonStream(buffer: string): [string[], string] {
  const out: string[] = []
  let depth = 0
  let inString = false
  let escaped = false
  let start = -1
  for (let i = 0; i < buffer.length; i++) {
    const ch = buffer[i]
    if (inString) {
      if (escaped) escaped = false
      else if (ch === '\\') escaped = true
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{' || ch === '[') {
      if (depth === 0) start = i
      depth++
    } else if (ch === '}' || ch === ']') {
      depth--
      if (depth === 0 && start !== -1) {
        out.push(buffer.slice(start, i + 1))
        start = -1
      }
    }
  }
  // depth > 0: a value has started (at `start`) and is not complete yet
  return [out, depth > 0 ? buffer.slice(start) : '']
}
