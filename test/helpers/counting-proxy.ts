/**
 * A JSON-RPC proxy on a free loopback port that forwards every HTTP request to `upstream` and
 * records the methods of each one: one HTTP request is one round trip, a batch counts once.
 * For counting what a CLI process (which has its own transport) sends to its endpoint.
 */
import { createServer } from 'node:http'

export type CountingProxy = {
  url: string
  /** Methods of each round trip, in order. */
  trips: string[][]
  reset(): void
  close(): Promise<void>
}

/** @example const proxy = await startCountingProxy(engine.httpUrl); …; proxy.trips.length */
export async function startCountingProxy(upstream: string): Promise<CountingProxy> {
  const trips: string[][] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => {
      body += d
    })
    req.on('end', async () => {
      const parsed = JSON.parse(body) as { method: string } | { method: string }[]
      trips.push((Array.isArray(parsed) ? parsed : [parsed]).map((r) => r.method))
      try {
        const r = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        res.writeHead(r.status, { 'content-type': 'application/json' })
        res.end(await r.text())
      } catch {
        res.writeHead(502)
        res.end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    trips,
    reset: () => {
      trips.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
