/**
 * One HTTP server of a worker: JSON-RPC over HTTP POST, WebSocket upgrades, or both when
 * HTTP and WS share an address and port (spec rule 7: one server answers both protocols).
 * Access (JWT, CORS, WS origins), the Content-Type, the connection slots and the request-size
 * limit are checked here, before a request reaches the dispatcher.
 *
 * Slow and idle clients: request headers must arrive within 10 s (WebSocket handshakes
 * included) and a whole request within 30 s; an idle keep-alive connection is closed after
 * 10 s; the timeouts are checked every second. Connection slots: ./connection-slots.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import WebSocket, { WebSocketServer } from 'ws'
import type { Namespace } from '../../lib/rpc/types.js'
import { type JwtGate, originAllowed } from './access.js'
import { ConnectionSlots, type Slot } from './connection-slots.js'
import type { ConnectionContext, Dispatcher } from './dispatch.js'
import { EngineSubscriptions, type EngineSwap } from './engine-subscriptions.js'

/** What one protocol serves on this server. */
export type ServedProtocol = {
  served: ReadonlySet<Namespace>
  /** JSON text of the rpc_modules result, or null where rpc is not served. */
  rpcModules: string | null
  /** Browser origins allowed (--http.corsdomain / --ws.origins); null = none. */
  origins: readonly string[] | null
}

export type NetServerParameters = {
  dispatcher: Dispatcher
  /** HTTP on this server, or null (a WebSocket-only server). */
  http: ServedProtocol | null
  /** WebSocket on this server, or null (an HTTP-only server). */
  ws: ServedProtocol | null
  jwt: JwtGate | null
  maxConnections: number
  maxRequestBytes: number
  /** The engine's IPC socket (subscriptions). */
  engineIpcPath: string
  /** Planned engine restarts, which subscriptions survive. */
  engineSwap: EngineSwap
  maxSubscriptions: number
  /** The slow- and idle-client timeouts (tests shorten them). */
  timeouts?: Partial<ServerTimeouts>
}

export type ServerTimeouts = {
  /** Request headers (and WebSocket handshakes) must arrive within this. */
  headersMs: number
  /** A whole request (headers and body) must arrive within this. */
  requestMs: number
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number
  /** How often the timeouts are checked. */
  checkIntervalMs: number
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 10_000,
  checkIntervalMs: 1_000,
}

/** jsonrpsee's answer to a POST whose Content-Type is not JSON (the reference node's server). */
const UNSUPPORTED_CONTENT_TYPE = 'Supplied content type is not allowed. Content-Type: application/json is required\n'

/**
 * The Content-Types the real node's server (jsonrpsee, in reth) takes for JSON-RPC over HTTP,
 * compared without regard to case: `application/json` and `application/json-rpc`, bare or with
 * `charset=utf-8` (with or without a space after the `;`). Anything else (`application/jsonx`,
 * another charset, no Content-Type) gets its 415.
 */
const JSON_CONTENT_TYPES = new Set(
  ['application/json', 'application/json-rpc'].flatMap((t) => [t, `${t}; charset=utf-8`, `${t};charset=utf-8`]),
)

/** Whether the real node would take a request with this Content-Type (JSON_CONTENT_TYPES). */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && JSON_CONTENT_TYPES.has(value.toLowerCase())
}

/** A WebSocket client that lets this much unsent data pile up is too slow and is dropped. */
const MAX_WS_BUFFERED_BYTES = 256 * 1024 * 1024
const WS_HEARTBEAT_MS = 30_000

/** A listening-ready server and the way to end it with every client connection. */
export type RpcServer<S> = {
  server: S
  /** Stops listening and ends every connection (WebSocket and keep-alive clients included). */
  shutdown(): Promise<void>
  /** The connection slots (for tests and the benchmark). */
  slots: ConnectionSlots
}

export function createNetServer(p: NetServerParameters): RpcServer<Server> {
  const t = { ...SERVER_TIMEOUTS, ...p.timeouts }
  const server = createServer({
    keepAliveTimeout: t.keepAliveMs,
    headersTimeout: t.headersMs,
    requestTimeout: t.requestMs,
    connectionsCheckingInterval: t.checkIntervalMs,
  })
  const overLimit = new WeakSet<object>()
  const slots = new ConnectionSlots(p.maxConnections)
  const slotOf = new WeakMap<object, Slot>()
  server.on('connection', (socket: Duplex) => {
    const slot: Slot = { busy: 0, since: Date.now(), pinned: () => false, evict: () => socket.destroy() }
    if (!slots.admit(slot)) {
      overLimit.add(socket)
      return
    }
    slotOf.set(socket, slot)
    socket.once('close', () => slots.release(slot))
  })

  const httpCtx: Omit<ConnectionContext, 'gone'> | null = p.http
    ? { transport: 'http', served: p.http.served, rpcModules: p.http.rpcModules, subscriptions: null }
    : null

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (overLimit.has(req.socket)) return refuse(res, 429, 'too many connections (--rpc.max-connections)', true)
    const origin = req.headers.origin
    const protocol = p.http ?? p.ws
    const allowed = origin !== undefined && protocol !== null && originAllowed(origin, protocol.origins)
    if (req.method === 'OPTIONS') return preflight(req, res, origin, allowed)
    if (!httpCtx) return refuse(res, 400, 'this port serves JSON-RPC over WebSocket only: connect with ws://')
    if (req.method !== 'POST')
      return refuse(res, 405, 'use POST with a JSON-RPC body', false, ['Allow', 'POST, OPTIONS'])
    if (origin !== undefined && !allowed) return refuse(res, 403, `origin ${origin} is not allowed (--http.corsdomain)`)
    if (!isJsonContentType(req.headers['content-type'])) return refuseText(res, 415, UNSUPPORTED_CONTENT_TYPE)
    const length = req.headers['content-length']
    if (length !== undefined && Number(length) > p.maxRequestBytes) return refuseTooLarge(req, res, p.maxRequestBytes)
    if (p.jwt) {
      p.jwt(req.headers.authorization).then(
        (verdict) =>
          verdict.ok
            ? readBody(req, res, origin, allowed)
            : refuse(res, 401, `JWT bearer token refused: ${verdict.reason}`),
        () => refuse(res, 500, 'JWT check failed'),
      )
    } else readBody(req, res, origin, allowed)
  })

  function readBody(req: IncomingMessage, res: ServerResponse, origin: string | undefined, allowed: boolean): void {
    const chunks: Buffer[] = []
    let size = 0
    let aborted = false
    req.on('data', (chunk: Buffer) => {
      if (aborted) return
      size += chunk.length
      if (size > p.maxRequestBytes) {
        aborted = true
        refuseTooLarge(req, res, p.maxRequestBytes)
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (aborted) return
      // the request is complete: the connection is at work until its answer is sent
      const slot = slotOf.get(req.socket)
      if (slot) {
        ConnectionSlots.begin(slot)
        res.once('close', () => ConnectionSlots.end(slot))
      }
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)
      const base = httpCtx as Omit<ConnectionContext, 'gone'>
      const ctx: ConnectionContext = {
        transport: 'http',
        served: base.served,
        rpcModules: base.rpcModules,
        subscriptions: null,
        gone: () => res.destroyed,
      }
      p.dispatcher.handle(body, ctx).then(
        (answer) => {
          if (res.destroyed) return
          const headers: string[] = ['Content-Type', 'application/json']
          if (origin !== undefined && allowed) headers.push('Access-Control-Allow-Origin', origin, 'Vary', 'Origin')
          if (answer === null) {
            res.writeHead(204, headers)
            res.end()
            return
          }
          if (typeof answer === 'string') {
            headers.push('Content-Length', String(Buffer.byteLength(answer)))
            res.writeHead(200, headers)
            res.end(answer)
            return
          }
          headers.push('Content-Length', String(answer.length))
          res.writeHead(200, headers)
          // A small body as latin1 text goes out in one write with the head (byte for byte).
          if (answer.length <= 16 * 1024) res.end(answer.toString('latin1'), 'latin1')
          else res.end(answer)
        },
        () => refuse(res, 500, 'internal error'),
      )
    })
  }

  let terminateWebSockets = () => {}
  if (p.ws) {
    const ws = p.ws
    const wss = new WebSocketServer({ noServer: true, maxPayload: p.maxRequestBytes, perMessageDeflate: false })
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (overLimit.has(req.socket)) return refuseUpgrade(socket, 429, 'too many connections (--rpc.max-connections)')
      const origin = req.headers.origin
      if (!originAllowed(origin, ws.origins))
        return refuseUpgrade(socket, 403, `origin ${origin} is not allowed (--ws.origins)`)
      const accept = () =>
        wss.handleUpgrade(req, socket, head, (client) => serveWebSocket(client, ws, p, slotOf.get(req.socket)))
      if (!p.jwt) return accept()
      p.jwt(req.headers.authorization).then(
        (verdict) =>
          verdict.ok ? accept() : refuseUpgrade(socket, 401, `JWT bearer token refused: ${verdict.reason}`),
        () => refuseUpgrade(socket, 500, 'JWT check failed'),
      )
    })
    terminateWebSockets = () => {
      for (const client of wss.clients) client.terminate()
      wss.close()
    }
  } else {
    server.on('upgrade', (_req: IncomingMessage, socket: Duplex) =>
      refuseUpgrade(socket, 400, 'WebSocket is not served on this port'),
    )
  }
  return {
    server,
    slots,
    shutdown: () =>
      new Promise<void>((resolve) => {
        // upgraded sockets still count as the server's connections: end them, or close waits for them
        terminateWebSockets()
        if (!server.listening) return resolve()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function serveWebSocket(
  client: WebSocket,
  protocol: ServedProtocol,
  p: NetServerParameters,
  slot: Slot | undefined,
): void {
  let gone = false
  let alive = true
  const send = (text: string | Buffer) => {
    if (client.readyState !== WebSocket.OPEN) return
    if (client.bufferedAmount > MAX_WS_BUFFERED_BYTES) {
      client.terminate()
      return
    }
    client.send(text, { binary: false })
  }
  const subscriptions = new EngineSubscriptions({
    engineIpcPath: p.engineIpcPath,
    swap: p.engineSwap,
    notify: send,
    onLost: (reason) => client.close(1011, reason.slice(0, 120)),
    maxSubscriptions: p.maxSubscriptions,
  })
  if (slot) {
    // a WebSocket holding a subscription keeps its slot; an idle one can be closed for a new client
    slot.pinned = () => subscriptions.active > 0
    slot.evict = () => client.terminate()
    slot.since = Date.now()
  }
  const ctx: ConnectionContext = {
    transport: 'ws',
    served: protocol.served,
    rpcModules: protocol.rpcModules,
    subscriptions,
    gone: () => gone,
  }
  client.on('message', (data: Buffer) => {
    if (slot) ConnectionSlots.begin(slot)
    p.dispatcher.handle(data, ctx).then(
      (answer) => {
        if (slot) ConnectionSlots.end(slot)
        if (answer !== null) send(answer)
      },
      () => {
        if (slot) ConnectionSlots.end(slot)
        client.close(1011, 'internal error')
      },
    )
  })
  client.on('pong', () => {
    alive = true
  })
  const heartbeat = setInterval(() => {
    if (!alive) {
      client.terminate()
      return
    }
    alive = false
    client.ping()
  }, WS_HEARTBEAT_MS)
  heartbeat.unref()
  client.on('error', () => client.terminate())
  client.on('close', () => {
    gone = true
    clearInterval(heartbeat)
    subscriptions.close()
  })
}

function refuse(res: ServerResponse, status: number, text: string, close = false, extra: string[] = []): void {
  if (res.headersSent || res.destroyed) return
  const body = `${status} ${STATUS_CODES[status]}: ${text}\n`
  const headers = [
    'Content-Type',
    'text/plain; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(body)),
    ...extra,
  ]
  if (close) headers.push('Connection', 'close')
  res.writeHead(status, headers)
  res.end(body)
}

/** A refusal with exactly this plain-text body (the reference server's own words). */
function refuseText(res: ServerResponse, status: number, body: string): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, ['Content-Type', 'text/plain', 'Content-Length', String(Buffer.byteLength(body))])
  res.end(body)
}

function refuseTooLarge(req: IncomingMessage, res: ServerResponse, max: number): void {
  refuse(res, 413, `the request is larger than ${max} bytes (--rpc.max-request-size)`, true)
  // stop reading the rest of an oversized body
  res.once('finish', () => req.socket.destroy())
}

function preflight(req: IncomingMessage, res: ServerResponse, origin: string | undefined, allowed: boolean): void {
  if (origin === undefined || !allowed) {
    refuse(
      res,
      403,
      origin === undefined
        ? 'a CORS preflight needs an Origin header'
        : `origin ${origin} is not allowed (--http.corsdomain)`,
    )
    return
  }
  const requested = req.headers['access-control-request-headers']
  res.writeHead(204, [
    'Access-Control-Allow-Origin',
    origin,
    'Access-Control-Allow-Methods',
    'POST, OPTIONS',
    'Access-Control-Allow-Headers',
    typeof requested === 'string' && requested.length > 0 ? requested : 'content-type, authorization',
    'Access-Control-Max-Age',
    '600',
    'Vary',
    'Origin',
  ])
  res.end()
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  const body = `${status} ${STATUS_CODES[status]}: ${text}\n`
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}
