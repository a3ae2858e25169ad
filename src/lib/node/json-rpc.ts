/**
 * A minimal JSON-RPC 2.0 call over HTTP (fetch) or a Unix socket (IPC). The node driver
 * needs only eth_blockNumber / eth_chainId, so it stays free of viem's start-up cost.
 */
import { createConnection } from 'node:net'
import { ExitCode, TnvError } from '../errors.js'

export class RpcCallError extends TnvError {
  override readonly code: string = 'RpcCall'
  readonly endpoint: string
  readonly reason: string
  constructor(endpoint: string, reason: string, what = 'The RPC endpoint', fix?: string) {
    super(`${what} ${endpoint} did not answer: ${reason}.`, {
      fix: fix ?? 'Check that the node is running and the URL or IPC path is right.',
      exitCode: ExitCode.RpcUnreachable,
    })
    this.endpoint = endpoint
    this.reason = reason
  }
}

export type JsonRpcCallParameters = {
  endpoint: string
  method: string
  params?: unknown[]
  timeoutMs?: number
  headers?: Record<string, string>
}

/** A JSON-RPC answer: the result, or the error object the node returned. */
export type JsonRpcAnswer<T> = { ok: true; result: T } | { ok: false; code: number; message: string }

/** JSON-RPC "Method not found": what a node answers for a method (or namespace) it does not serve. */
export const METHOD_NOT_FOUND = -32601

/**
 * Calls `method` and returns the node's answer, a JSON-RPC error included.
 * @throws RpcCallError when there is no JSON-RPC answer at all (unreachable, HTTP error, not JSON)
 */
export async function jsonRpcRequest<T = unknown>({
  endpoint,
  method,
  params = [],
  timeoutMs = 5_000,
  headers = {},
}: JsonRpcCallParameters): Promise<JsonRpcAnswer<T>> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  const text = /^https?:\/\//.test(endpoint)
    ? await httpPost(endpoint, body, timeoutMs, headers)
    : await ipcCall(endpoint, body, timeoutMs)
  let msg: { result?: T; error?: { code: number; message: string } }
  try {
    msg = JSON.parse(text)
  } catch {
    throw new RpcCallError(endpoint, `the answer is not JSON (${text.slice(0, 80)})`)
  }
  if (typeof msg !== 'object' || msg === null) throw new RpcCallError(endpoint, 'the answer is not a JSON-RPC object')
  if (msg.error)
    return { ok: false, code: Number(msg.error.code), message: String(msg.error.message ?? '').slice(0, 200) }
  return { ok: true, result: msg.result as T }
}

/** Calls `method` on an http(s):// URL or an IPC socket path and returns `result`. */
export async function jsonRpcCall<T = unknown>(parameters: JsonRpcCallParameters): Promise<T> {
  const answer = await jsonRpcRequest<T>(parameters)
  if (!answer.ok)
    throw new RpcCallError(parameters.endpoint, `${parameters.method} failed with ${answer.code} ${answer.message}`)
  return answer.result
}

async function httpPost(
  url: string,
  body: string,
  timeoutMs: number,
  headers: Record<string, string>,
): Promise<string> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (res.status === 429) throw new RpcCallError(url, 'rate limited (HTTP 429)')
    if (!res.ok) throw new RpcCallError(url, `HTTP ${res.status}`)
    return await res.text()
  } catch (err) {
    if (err instanceof RpcCallError) throw err
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    const e = err as Error
    throw new RpcCallError(
      url,
      cause?.code ?? cause?.message ?? (e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : e.message),
    )
  }
}

function ipcCall(path: string, body: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = createConnection(path)
    let buf = ''
    const timer = setTimeout(() => {
      sock.destroy()
      reject(new RpcCallError(path, 'timed out'))
    }, timeoutMs)
    sock.on('connect', () => sock.write(body))
    sock.on('data', (d) => {
      buf += d
      try {
        JSON.parse(buf)
        clearTimeout(timer)
        sock.end()
        resolve(buf)
      } catch {
        // not complete yet
      }
    })
    sock.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      reject(new RpcCallError(path, err.code ?? err.message))
    })
  })
}

/** eth_blockNumber as a bigint. */
export async function blockNumber(endpoint: string, timeoutMs?: number): Promise<bigint> {
  const result = await jsonRpcCall<unknown>({
    endpoint,
    method: 'eth_blockNumber',
    ...(timeoutMs ? { timeoutMs } : {}),
  })
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(result))
    throw new RpcCallError(
      endpoint,
      `eth_blockNumber answered ${JSON.stringify(result)?.slice(0, 60)}, not a hex quantity`,
    )
  return BigInt(result)
}
