/**
 * A scriptable JSON-RPC endpoint on a free loopback port, for the faults a real node shows
 * rarely and on its own schedule: rate limits, pool refusals, lost answers, dropped
 * transactions. Counts HTTP requests and calls per method.
 */
import { createServer, type Server } from 'node:http'
import { freePort } from '../helpers/ports.js'

export type RpcReply =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } }
  | { http: number }
  | { hang: true }
export type RpcHandler = (method: string, params: unknown[], n: number) => RpcReply

export type FakeRpc = {
  url: string
  httpRequests: number
  calls: Record<string, number>
  close(): Promise<void>
}

export async function startFakeRpc(handler: RpcHandler): Promise<FakeRpc> {
  const port = await freePort()
  const fake: FakeRpc = { url: `http://127.0.0.1:${port}`, httpRequests: 0, calls: {}, close: async () => {} }
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => {
      body += d
    })
    req.on('end', () => {
      fake.httpRequests++
      const parsed = JSON.parse(body) as
        | { id: number; method: string; params?: unknown[] }
        | { id: number; method: string; params?: unknown[] }[]
      const list = Array.isArray(parsed) ? parsed : [parsed]
      const out: unknown[] = []
      for (const r of list) {
        fake.calls[r.method] = (fake.calls[r.method] ?? 0) + 1
        const reply = handler(r.method, r.params ?? [], fake.calls[r.method] as number)
        if ('hang' in reply) return // never answer
        if ('http' in reply) {
          res.writeHead(reply.http, { 'content-type': 'text/plain' })
          res.end('refused')
          return
        }
        out.push({ jsonrpc: '2.0', id: r.id, ...reply })
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(Array.isArray(parsed) ? out : out[0]))
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return fake
}
