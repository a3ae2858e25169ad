/** Issue 16 item 7: a failing sync wait names the end that failed, not always "the node". */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { waitForSync } from '../../src/lib/node/sync.js'

describe('node sync blames the right endpoint', () => {
  let server: Server
  let live: string
  before(async () => {
    // a node that answers eth_blockNumber (and nothing of the tn namespace)
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (d) => {
        body += d
      })
      req.on('end', () => {
        const { id, method } = JSON.parse(body) as { id: number; method: string }
        res.setHeader('content-type', 'application/json')
        res.end(
          JSON.stringify(
            method === 'eth_blockNumber'
              ? { jsonrpc: '2.0', id, result: '0x10' }
              : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } },
          ),
        )
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    live = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })
  after(() => server.close())

  it("the network's endpoint failing: says so, and that the node is not the problem", async () => {
    await assert.rejects(waitForSync({ localUrl: live, networkUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 }), (err) => {
      const e = err as Error & { fix?: string }
      assert.match(
        e.message,
        /^The network's endpoint \(compared with your node\) http:\/\/127\.0\.0\.1:9 did not answer/,
      )
      assert.match(e.fix ?? '', /Your node is not the problem/)
      return true
    })
  })

  it("your node's endpoint failing: names your node", async () => {
    await assert.rejects(waitForSync({ localUrl: 'http://127.0.0.1:9', networkUrl: live, timeoutMs: 2_000 }), (err) => {
      const e = err as Error & { fix?: string }
      assert.match(e.message, /^Your node's RPC endpoint http:\/\/127\.0\.0\.1:9 did not answer/)
      assert.match(e.fix ?? '', /tnv node status/)
      return true
    })
  })
})
