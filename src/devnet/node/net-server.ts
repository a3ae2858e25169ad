/**
 * One HTTP server of a worker: JSON-RPC over HTTP POST, WebSocket upgrades, or both when
 * HTTP and WS share an address and port (spec rule 7: one server answers both protocols).
 * Access (JWT, CORS, WS origins), the connection limit and the request-size limit are
 * checked here, before a request reaches the dispatcher.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import WebSocket, { WebSocketServer } from 'ws'
import type { Namespace } from '../../lib/rpc/types.js'
import { type JwtGate, originAllowed } from './access.js'
import type { ConnectionContext, Dispatcher } from './dispatch.js'
import { EngineSubscriptions } from './engine-subscriptions.js'

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
  engineWsUrl: string
  maxSubscriptions: number
}

/** A WebSocket client that lets this much unsent data pile up is too slow and is dropped. */
const MAX_WS_BUFFERED_BYTES = 256 * 1024 * 1024
const WS_HEARTBEAT_MS = 30_000

/** A listening-ready server and the way to end it with every client connection. */
export type RpcServer<S> = {
  server: S
  /** Stops listening and ends every connection (WebSocket and keep-alive clients included). */
  shutdown(): Promise<void>
}

export function createNetServer(p: NetServerParameters): RpcServer<Server> {
  const server = createServer({ keepAliveTimeout: 60_000, headersTimeout: 20_000, requestTimeout: 120_000 })
  const overLimit = new WeakSet<object>()
  let connections = 0
  server.on('connection', (socket) => {
    connections++
    if (connections > p.maxConnections) overLimit.add(socket)
    socket.once('close', () => connections--)
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
    const type = req.headers['content-type']
    if (type === undefined || !type.toLowerCase().startsWith('application/json')) {
      return refuse(res, 415, 'the Content-Type must be application/json')
    }
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
      const accept = () => wss.handleUpgrade(req, socket, head, (client) => serveWebSocket(client, ws, p))
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

function serveWebSocket(client: WebSocket, protocol: ServedProtocol, p: NetServerParameters): void {
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
    engineWsUrl: p.engineWsUrl,
    notify: send,
    onLost: (reason) => client.close(1011, reason.slice(0, 120)),
    maxSubscriptions: p.maxSubscriptions,
  })
  const ctx: ConnectionContext = {
    transport: 'ws',
    served: protocol.served,
    rpcModules: protocol.rpcModules,
    subscriptions,
    gone: () => gone,
  }
  client.on('message', (data: Buffer) => {
    p.dispatcher.handle(data, ctx).then(
      (answer) => {
        if (answer !== null) send(answer)
      },
      () => client.close(1011, 'internal error'),
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
