/**
 * A minimal JSON-RPC 2.0 call over HTTP (fetch) or a Unix socket (IPC). The node driver
 * needs only eth_blockNumber / eth_chainId, so it stays free of viem's start-up cost.
 */
import { createConnection } from 'node:net'
import { ExitCode, TnvError, type TnvErrorOptions } from '../errors.js'
import { remoteText } from '../io/remote-text.js'
import { httpFailureText } from '../net/http-failure.js'

/** The largest answer read from an endpoint: the driver's answers are a few hundred bytes. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024

export class RpcCallError extends TnvError {
  override readonly code: string = 'RpcCall'
  readonly endpoint: string
  readonly reason: string
  constructor(
    endpoint: string,
    reason: string,
    options: Pick<TnvErrorOptions, 'fix'> & { message?: string; what?: string } = {},
  ) {
    super(options.message ?? `${options.what ?? 'The RPC endpoint'} ${endpoint} did not answer: ${reason}.`, {
      fix: options.fix ?? 'Check that the node is running and the URL or IPC path is right.',
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
    throw new RpcCallError(endpoint, `the answer is not JSON ("${remoteText(text, 80)}")`)
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
    throw new RpcCallError(endpoint, 'the answer is not a JSON-RPC object')
  if (msg.error !== undefined && msg.error !== null) {
    const error = msg.error as unknown as { code?: unknown; message?: unknown }
    return {
      ok: false,
      code: typeof error.code === 'number' ? error.code : Number.NaN,
      message: remoteText(typeof error === 'object' ? error.message : error, 200),
    }
  }
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
    if (!res.ok) {
      const text = await readBounded(res, 16 * 1024).catch(() => '')
      const { message, fix } = httpFailureText({ url, status: res.status, body: text })
      throw new RpcCallError(url, `HTTP ${res.status}`, { message, fix })
    }
    return await readBounded(res, MAX_ANSWER_BYTES)
  } catch (err) {
    if (err instanceof RpcCallError) throw err
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    const e = err as Error
    throw new RpcCallError(
      url,
      remoteText(
        cause?.code ?? cause?.message ?? (e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : e.message),
      ),
    )
  }
}

/** The response body as text, refused beyond `max` bytes (a huge answer is not read whole). */
async function readBounded(res: Response, max: number): Promise<string> {
  const length = Number(res.headers.get('content-length') ?? Number.NaN)
  if (length > max) {
    await res.body?.cancel().catch(() => {})
    throw new Error(`the answer is ${length} bytes, more than the ${max} tnv reads`)
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      if (!res.ok) break // an error page: its beginning is enough
      throw new Error(`the answer is more than the ${max} bytes tnv reads`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
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
      if (buf.length > MAX_ANSWER_BYTES) {
        clearTimeout(timer)
        sock.destroy()
        reject(new RpcCallError(path, `the answer is more than the ${MAX_ANSWER_BYTES} bytes tnv reads`))
        return
      }
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
