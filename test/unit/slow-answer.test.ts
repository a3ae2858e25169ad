/**
 * watchedFetch (src/lib/chain/slow-answer.ts): an attempt unanswered after the notice delay is
 * announced once with the endpoint, methods and attempt; a retry (new JSON-RPC ids, same calls)
 * counts as the next attempt; an answered attempt is never announced. The fetch is a stand-in
 * that answers when the test says so; the delays are a few milliseconds and never asserted.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { onSlowAnswer, type SlowAnswer, slowAnswerLine, watchedFetch } from '../../src/lib/chain/slow-answer.js'

const body = (id: number) =>
  JSON.stringify([
    { jsonrpc: '2.0', id, method: 'eth_chainId' },
    { jsonrpc: '2.0', id: id + 1, method: 'eth_getCode', params: ['0x07e1', 'latest'] },
  ])

describe('slow answers are announced', () => {
  it('one notice per unanswered attempt, numbered across retries; none for a quick answer', async () => {
    const heard: SlowAnswer[] = []
    const off = onSlowAnswer((s) => heard.push(s))
    let answer: (r: Response) => void = () => {}
    const never = (() => new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch
    const f = watchedFetch({ endpoint: 'http://x', fetchFn: never, timeoutMs: 15_000, attempts: 4, noticeMs: 5 })
    try {
      for (const id of [1, 3]) {
        const pending = f('http://x', { method: 'POST', body: body(id) })
        await new Promise((r) => setTimeout(r, 30))
        answer(new Response('{}', { status: 504 }))
        await pending
      }
      assert.deepEqual(
        heard.map((h) => [h.endpoint, h.methods, h.attempt, h.attempts, h.timeoutSeconds]),
        [
          ['http://x', ['eth_chainId', 'eth_getCode'], 1, 4, 15],
          ['http://x', ['eth_chainId', 'eth_getCode'], 2, 4, 15],
        ],
      )
      const quick = watchedFetch({
        endpoint: 'http://y',
        fetchFn: (async () => new Response('{}')) as typeof fetch,
        timeoutMs: 15_000,
        attempts: 4,
        noticeMs: 5,
      })
      await quick('http://y', { method: 'POST', body: body(5) })
      await new Promise((r) => setTimeout(r, 30))
      assert.equal(heard.length, 2)
    } finally {
      off()
    }
  })

  it('the line names the endpoint, the methods, the attempt and the flag', () => {
    assert.equal(
      slowAnswerLine({
        endpoint: 'https://rpc.adiri.tel',
        methods: ['eth_chainId'],
        attempt: 2,
        attempts: 4,
        waitedSeconds: 5,
        timeoutSeconds: 15,
      }),
      'Waiting for https://rpc.adiri.tel (eth_chainId): no answer after 5 s, attempt 2 of 4; each attempt waits up to 15 s (--rpc-timeout).',
    )
  })
})
