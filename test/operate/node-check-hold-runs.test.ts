/**
 * `tnv node check --hold` as a systemd timer or cron runs it: single runs, each a new process,
 * the held levels carried in the data directory's state file (src/lib/health/hold-state.ts).
 * The local node is a fake JSON-RPC endpoint that can be made to fail its answers; node.rpc is
 * the finding that flaps. Three runs where the node fails once: node.rpc stays ok (pending) in
 * the report and in the textfile; three runs where it keeps failing: the third reports the fail.
 * The runs are at least --hold (1 s) apart where a level must have held (a wait, never a
 * measured time: a slower machine only makes the held level surer).
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import type { NodeCheckReport } from '../../src/lib/health/types.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'

type Rpc = { id: number; method: string }

describe('node check --hold: single runs hold levels over the state file', () => {
  const tmp = tempDir('tnv-check-hold-')
  let server: Server
  let url = ''
  /** While true the fake node answers every call with a server error. */
  let failing = false

  before(async () => {
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => {
        body += c
      })
      req.on('end', () => {
        if (failing) {
          res.writeHead(503).end()
          return
        }
        // chain id 31337 is no network tnv knows: nothing to compare with, no request leaves the host
        const answer = (r: Rpc) =>
          r.method === 'eth_chainId'
            ? { jsonrpc: '2.0', id: r.id, result: '0x7a69' }
            : r.method === 'eth_getBlockByNumber'
              ? {
                  jsonrpc: '2.0',
                  id: r.id,
                  result: { number: '0x10', timestamp: `0x${Math.floor(Date.now() / 1000).toString(16)}` },
                }
              : { jsonrpc: '2.0', id: r.id, error: { code: -32601, message: 'method not found' } }
        const parsed = JSON.parse(body) as Rpc | Rpc[]
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const a = server.address()
    url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`
  })
  after(() => {
    server.close()
    tmp.cleanup()
  })

  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))
  const check = async (name: string, fail: boolean) => {
    failing = fail
    const datadir = join(tmp.dir, name)
    const prom = join(tmp.dir, `${name}.prom`)
    mkdirSync(datadir, { recursive: true })
    const r = await runCli(
      [
        'node',
        'check',
        '--datadir',
        datadir,
        '--node-rpc-url',
        url,
        '--no-exposure',
        '--min-free-gib',
        '0',
        '--hold',
        '1',
        '--prometheus',
        prom,
        '--json',
      ],
      { env: { TNV_DEVNET_DIR: join(tmp.dir, 'no-devnet') } },
    )
    const report = parseJson<NodeCheckReport>(r)
    const rpc = report.findings.find((f) => f.id === 'node.rpc')
    const families = parsePrometheusTextFormat(readFileSync(prom, 'utf8')) as {
      name: string
      metrics: { labels?: Record<string, string>; value: string }[]
    }[]
    const gauge = families
      .find((f) => f.name === 'tnv_node_check_finding')
      ?.metrics.find((m) => m.labels?.id === 'node.rpc')?.value
    return { r, report, rpc, gauge, datadir }
  }

  it('a node that fails one check of three: node.rpc is never reported failing', async () => {
    const first = await check('once', false)
    assert.equal(first.rpc?.level, 'ok')
    // the first run says once that it starts the state file (a `warning` line with --json)
    assert.match(first.r.stderr, /"event":"warning".*No earlier check at/)
    assert.ok(existsSync(join(first.datadir, 'tnv-check-state.json')))
    await wait(1_100)
    const flap = await check('once', true)
    assert.equal(flap.rpc?.level, 'ok', 'held: the fail has not held 1 s')
    assert.equal(flap.rpc?.pending?.level, 'fail')
    assert.equal(flap.gauge, '0')
    assert.doesNotMatch(flap.r.stderr, /No earlier check/)
    await wait(1_100)
    const back = await check('once', false)
    assert.equal(back.rpc?.level, 'ok')
    assert.equal(back.rpc?.pending, undefined)
    assert.equal(back.gauge, '0')
    assert.equal(back.r.code, flap.r.code, 'the exit code never moved')
  })

  it('a node that keeps failing: the third run reports node.rpc fail and exits 2', async () => {
    const first = await check('persists', false)
    assert.equal(first.rpc?.level, 'ok')
    const down = await check('persists', true)
    assert.equal(down.rpc?.level, 'ok')
    assert.equal(down.rpc?.pending?.level, 'fail')
    await wait(1_100)
    const raised = await check('persists', true)
    assert.equal(raised.rpc?.level, 'fail')
    assert.equal(raised.rpc?.pending, undefined)
    assert.equal(raised.gauge, '2')
    assert.equal(raised.report.exitCode, 2)
    assert.equal(raised.r.code, 2)
  })
})
