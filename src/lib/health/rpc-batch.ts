/**
 * One JSON-RPC batch in one round trip, over HTTP (fetch, injectable to count round trips) or an
 * IPC socket. Each call gets its own answer: a result, the node's error object, or nothing when
 * the whole batch found no answer (unreachable). A node that answers a batch with a single error
 * object (batches refused) is reported as such, never read as results.
 */
import { createConnection } from 'node:net'

export type BatchCall = { method: string; params?: unknown[] }

export type BatchAnswer = { ok: true; result: unknown } | { ok: false; code: number; message: string }

export type RpcBatchParameters = {
  endpoint: string
  calls: readonly BatchCall[]
  timeoutMs?: number
  headers?: Record<string, string>
  fetchFn?: typeof fetch
}

export type RpcBatchReturnType = { reachable: true; answers: BatchAnswer[] } | { reachable: false; error: string }

/**
 * @example
 * const r = await rpcBatch({ endpoint: 'http://127.0.0.1:8545', calls: [{ method: 'eth_chainId' }] })
 * if (r.reachable && r.answers[0].ok) console.log(r.answers[0].result)
 */
export async function rpcBatch({
  endpoint,
  calls,
  timeoutMs = 5_000,
  headers = {},
  fetchFn = fetch,
}: RpcBatchParameters): Promise<RpcBatchReturnType> {
  const body = JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params ?? [] })))
  let text: string
  try {
    text = /^https?:\/\//.test(endpoint)
      ? await httpPost(fetchFn, endpoint, body, timeoutMs, headers)
      : await ipcExchange(endpoint, body, timeoutMs)
  } catch (err) {
    return { reachable: false, error: (err as Error).message }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { reachable: false, error: `the answer is not JSON (${text.slice(0, 80)})` }
  }
  if (!Array.isArray(parsed)) {
    const error = (parsed as { error?: { message?: unknown } } | null)?.error
    return {
      reachable: false,
      error: `it answered the batch with ${error ? `an error: ${String(error.message).slice(0, 120)}` : 'something other than a list'} (JSON-RPC batches refused?)`,
    }
  }
  const byId = new Map<number, unknown>()
  for (const item of parsed) {
    const id = (item as { id?: unknown } | null)?.id
    if (typeof id === 'number') byId.set(id, item)
  }
  const answers = calls.map((_, id): BatchAnswer => {
    const item = byId.get(id) as { result?: unknown; error?: { code?: unknown; message?: unknown } } | undefined
    if (!item) return { ok: false, code: 0, message: 'no answer for this call in the batch' }
    if (item.error)
      return { ok: false, code: Number(item.error.code), message: String(item.error.message ?? '').slice(0, 200) }
    return { ok: true, result: item.result }
  })
  return { reachable: true, answers }
}

async function httpPost(
  fetchFn: typeof fetch,
  url: string,
  body: string,
  timeoutMs: number,
  headers: Record<string, string>,
): Promise<string> {
  let res: Response
  try {
    res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    const e = err as Error
    throw new Error(
      cause?.code ?? cause?.message ?? (e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : e.message),
    )
  }
  if (res.status === 429) throw new Error('rate limited (HTTP 429)')
  if (res.status === 401 || res.status === 403) throw new Error(`HTTP ${res.status}: a JWT is needed (--jwt-secret)`)
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  return res.text()
}

function ipcExchange(path: string, body: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = createConnection(path)
    let buf = ''
    const timer = setTimeout(() => {
      sock.destroy()
      reject(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    sock.on('connect', () => sock.write(body))
    sock.on('data', (d) => {
      buf += d
      try {
        JSON.parse(buf)
      } catch {
        return // not complete yet
      }
      clearTimeout(timer)
      sock.end()
      resolve(buf)
    })
    sock.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      reject(new Error(err.code ?? err.message))
    })
  })
}
