/**
 * One JSON-RPC connection to a node endpoint for `tnv rpc check`, over viem's transports:
 * HTTP with viem's `http` transport (the bearer token in `fetchOptions.headers`), IPC with
 * viem's IPC client (`viem/node`), WebSocket with viem's socket RPC client (the machinery of
 * its `webSocket` transport) over a `ws` socket, because a JWT must travel in the upgrade
 * request's `Authorization` header and viem's `webSocket()` cannot set headers.
 *
 * Calls never throw: each gives a CallOutcome, so a probe can tell a served namespace (any
 * JSON-RPC answer except -32601), an unserved one (-32601), a refused token (HTTP 401/403 or
 * a refused WS upgrade) and an unreachable endpoint apart.
 */

import { HttpRequestError, http, RpcRequestError, TimeoutError } from 'viem'
import { getIpcRpcClient } from 'viem/node'
import { getSocketRpcClient, type SocketRpcClient } from 'viem/utils'
import WebSocket from 'ws'
import { remoteText } from '../io/remote-text.js'
import { httpFailureText } from '../net/http-failure.js'

export type RpcTarget =
  | { transport: 'http'; url: string }
  | { transport: 'ws'; url: string }
  | { transport: 'ipc'; path: string }

export type CallOutcome =
  /** A JSON-RPC result. */
  | { kind: 'result'; result: unknown }
  /** A JSON-RPC error object. */
  | { kind: 'error'; code: number; message: string }
  /** The server refused the request or the upgrade before JSON-RPC (HTTP 401/403): a token is missing or bad. */
  | { kind: 'unauthorized'; status: number }
  /** No answer: cannot connect, timed out, connection closed, or an HTTP status other than 401/403. */
  | { kind: 'failed'; message: string }

export type RpcConnection = {
  call(method: string, params?: unknown[]): Promise<CallOutcome>
  /** Closes sockets and timers. Safe to call twice. */
  close(): void
}

export type OpenRpcConnectionOptions = {
  /** A bearer token for HTTP and WS (ignored for IPC). */
  token?: string | null
  /** Per-call timeout in milliseconds. */
  timeoutMs: number
}

/**
 * @example
 * const conn = openRpcConnection({ transport: 'http', url: 'http://127.0.0.1:8545' }, { timeoutMs: 5000 })
 * await conn.call('rpc_modules') // { kind: 'result', result: { eth: '1.0', ... } }
 * conn.close()
 */
export function openRpcConnection(
  target: RpcTarget,
  { token = null, timeoutMs }: OpenRpcConnectionOptions,
): RpcConnection {
  if (target.transport === 'http') return httpConnection(target.url, token, timeoutMs)
  const open =
    target.transport === 'ws'
      ? () => openWebSocketClient(target.url, token, timeoutMs)
      : () => getIpcRpcClient(target.path, { reconnect: false })
  return socketConnection(open, timeoutMs)
}

function httpConnection(url: string, token: string | null, timeoutMs: number): RpcConnection {
  const transport = http(url, {
    retryCount: 0,
    timeout: timeoutMs,
    ...(token ? { fetchOptions: { headers: { authorization: `Bearer ${token}` } } } : {}),
  })({ retryCount: 0 })
  return {
    async call(method, params = []) {
      try {
        return { kind: 'result', result: await transport.request({ method, params }) }
      } catch (err) {
        return classify(err)
      }
    },
    close() {},
  }
}

type AnySocketClient = SocketRpcClient<object>

function socketConnection(open: () => Promise<AnySocketClient>, timeoutMs: number): RpcConnection {
  let client: Promise<AnySocketClient> | null = null
  let closed = false
  return {
    async call(method, params = []) {
      client ??= open()
      let c: AnySocketClient
      try {
        c = await client
      } catch (err) {
        return classify(err)
      }
      try {
        const response = await c.requestAsync({ body: { method, params }, timeout: timeoutMs })
        if (response.error)
          return { kind: 'error', code: Number(response.error.code), message: remoteText(response.error.message) }
        return { kind: 'result', result: response.result }
      } catch (err) {
        return classify(err)
      }
    },
    close() {
      if (closed || client === null) return
      closed = true
      client.then((c) => c.close()).catch(() => {})
    },
  }
}

/** A WS upgrade the server answered with an HTTP status instead of 101. */
class UpgradeRefused extends Error {
  constructor(readonly status: number) {
    super(`the server answered the WebSocket upgrade with HTTP ${status}`)
  }
}

let wsClients = 0

function openWebSocketClient(url: string, token: string | null, timeoutMs: number): Promise<AnySocketClient> {
  return getSocketRpcClient({
    // a key per connection: viem caches socket clients by key and URL, and the check opens
    // the same URL with and without a token
    key: `tnv-rpc-check-${++wsClients}`,
    url,
    reconnect: false,
    keepAlive: false,
    async getSocket({ onClose, onError, onOpen, onResponse }) {
      const socket = new WebSocket(url, {
        handshakeTimeout: timeoutMs,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      })
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve())
        socket.once('unexpected-response', (_req, res) => {
          reject(new UpgradeRefused(res.statusCode ?? 0))
          socket.terminate()
        })
        socket.on('error', reject)
      })
      socket.removeAllListeners('error')
      socket.on('error', (err) => onError(err))
      socket.on('close', () => onClose())
      socket.on('message', (data) => {
        try {
          onResponse(JSON.parse(data.toString()))
        } catch (err) {
          onError(err instanceof Error ? err : new Error(String(err)))
        }
      })
      onOpen()
      return {
        close: () => socket.terminate(),
        request: ({ body }) => socket.send(JSON.stringify(body)),
      }
    },
  })
}

/** Reads an outcome out of whatever a call threw (viem errors carry the JSON-RPC code or HTTP status in their cause chain). */
function classify(err: unknown): CallOutcome {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    if (e instanceof UpgradeRefused) return refusal(e.status, e.message)
    if (e instanceof RpcRequestError) return { kind: 'error', code: e.code, message: remoteText(e.details) }
    if (e instanceof HttpRequestError && e.status !== undefined) {
      const { message, fix } = httpFailureText({ url: e.url, status: e.status, body: e.details })
      // "<label> did not answer: <this>" — the status, one line of the answer, what to check
      return refusal(
        e.status,
        `${message.replace(/^The endpoint \S+ answered /, '').replace(/\.$/, '')}; ${fix.replace(/\.$/, '')}`,
      )
    }
    if (e instanceof TimeoutError) return { kind: 'failed', message: 'timed out' }
  }
  return { kind: 'failed', message: rootMessage(err) }
}

function refusal(status: number, message: string): CallOutcome {
  return status === 401 || status === 403 ? { kind: 'unauthorized', status } : { kind: 'failed', message }
}

const SYSTEM_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOENT: 'no socket at this path',
  EACCES: 'permission denied',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENOTFOUND: 'host name not found',
  ECONNRESET: 'connection reset',
}

/** The most specific reason in a cause chain: a system error code (ECONNREFUSED, ENOENT) when there is one. */
function rootMessage(err: unknown): string {
  let message = err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err)
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return `${SYSTEM_ERRORS[code] ?? 'system error'} (${code})`
    message = e.message.split('\n')[0] ?? message
  }
  return remoteText(message)
}
