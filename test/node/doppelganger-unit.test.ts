/**
 * The doppelganger check's reading of headers (src/lib/node/doppelganger.ts) against a scripted
 * endpoint: a rising score or a header it leads is evidence, a score that falls (a new epoch) or a
 * header committed before the check began is not, an unregistered or unseated key is not watched,
 * a network that makes too few headers is inconclusive.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, describe, it } from 'node:test'
import { authorityIdOf } from '../../src/lib/health/read-validator-health.js'
import { checkDoppelganger } from '../../src/lib/node/doppelganger.js'

const KEY = `0x${'a1'.repeat(96)}` as const
const ID = authorityIdOf(KEY)
const now = () => Math.floor(Date.now() / 1000)

type Script = { registered?: boolean; seated?: boolean; headers: (() => unknown)[] }

const servers: Server[] = []
after(() => {
  for (const s of servers) s.close()
})

async function endpoint(script: Script): Promise<string> {
  let i = 0
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string }
      const result =
        method === 'tn_isValidator'
          ? (script.registered ?? true)
          : method === 'tn_getCurrentEpoch'
            ? 3
            : method === 'tn_getCommitteeBlsPubkeys'
              ? script.seated === false
                ? [`0x${'b2'.repeat(96)}`]
                : [`0x${'b2'.repeat(96)}`, KEY.toUpperCase().replace('0X', '0x')]
              : method === 'tn_latestConsensusHeader'
                ? (script.headers[Math.min(i++, script.headers.length - 1)] as () => unknown)()
                : null
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }))
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const header =
  (number: number, score: number, leader: string | null = null, at = now()) =>
  () => ({
    number,
    sub_dag: {
      leader: leader ? { author: leader } : null,
      commit_timestamp: at,
      reputation_score: { scores_per_authority: { [ID]: score } },
    },
  })
const run = (url: string, extra: Partial<Parameters<typeof checkDoppelganger>[0]> = {}) =>
  checkDoppelganger({ endpoint: url, blsPublicKey: KEY, windowSeconds: 0, pollMs: 5, maxWaitSeconds: 2, ...extra })

describe('doppelganger check: what counts as activity', () => {
  it('a score that rises in a header committed during the check: active', async () => {
    const r = await run(await endpoint({ headers: [header(10, 4), header(11, 4), header(12, 5)] }))
    assert.equal(r.verdict, 'active')
    assert.deepEqual(
      r.evidence.map((e) => [e.kind, e.header, e.previousScore, e.score]),
      [['score', 12, 4, 5]],
    )
  })

  it('a header it leads: active', async () => {
    const r = await run(await endpoint({ headers: [header(10, 4), header(11, 4, ID)] }))
    assert.equal(r.verdict, 'active')
    assert.equal(r.evidence[0]?.kind, 'led')
  })

  it('a falling score (a new epoch), other leaders, and history before the check: silent', async () => {
    const old = now() - 3600
    const r = await run(
      await endpoint({
        headers: [header(10, 9), header(11, 2, 'someone'), header(12, 2), header(13, 7, ID, old), header(14, 7)],
      }),
      { minHeaders: 4 },
    )
    assert.equal(r.verdict, 'silent', JSON.stringify(r.evidence))
    assert.equal(r.headersSeen, 4)
  })

  it('unregistered or outside the committee: not watched, at once', async () => {
    assert.equal((await run(await endpoint({ registered: false, headers: [] }))).verdict, 'not-registered')
    const r = await run(await endpoint({ seated: false, headers: [] }))
    assert.equal(r.verdict, 'not-in-committee')
    assert.equal(r.headersSeen, 0)
  })

  it('headers that do not advance: inconclusive after the longest wait', async () => {
    const r = await run(await endpoint({ headers: [header(10, 1)] }), { maxWaitSeconds: 0.3 })
    assert.equal(r.verdict, 'inconclusive')
    assert.equal(r.minHeaders, 3)
  })
})
