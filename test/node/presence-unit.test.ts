/**
 * The devnet's presence arithmetic (src/devnet/node/presence.ts) against a block-by-block count:
 * a member leads block x of an epoch starting at s when (x − s) mod n = its index, and is credited
 * only inside its spans.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ledInSpans, mergeSpans, presentAt } from '../../src/devnet/node/presence.js'

function byHand(spans: [number, number][], s: number, n: number, i: number, first: number, through: number): number {
  let c = 0
  for (let x = first; x <= through; x++) if ((x - s) % n === i && spans.some(([a, b]) => a <= x && x <= b)) c++
  return c
}

describe('devnet presence', () => {
  it('merges overlapping and adjacent spans (two copies of one key count once)', () => {
    assert.deepEqual(
      mergeSpans([
        [5, 9],
        [1, 3],
        [4, 4],
        [8, 20],
      ]),
      [[1, 20]],
    )
    assert.deepEqual(
      mergeSpans([
        [1, 2],
        [5, Number.POSITIVE_INFINITY],
      ]),
      [
        [1, 2],
        [5, Number.POSITIVE_INFINITY],
      ],
    )
  })

  it('counts led blocks inside spans as a block-by-block count does', () => {
    const cases: [[number, number][], number, number, number, number, number][] = []
    for (const n of [1, 3, 4, 5])
      for (let i = 0; i < n; i++)
        for (const s of [0, 1, 7])
          for (const spans of [
            [[1, 10]],
            [
              [3, 4],
              [9, 30],
            ],
            [[s, s]],
            [],
            [[12, 1000]],
          ] as [number, number][][])
            cases.push([spans, s, n, i, Math.max(s, 1), 40])
    for (const [spans, s, n, i, first, through] of cases)
      assert.equal(
        ledInSpans(spans, s, n, i, first, through),
        byHand(spans, s, n, i, first, through),
        JSON.stringify({ spans, s, n, i }),
      )
    assert.equal(ledInSpans([[1, Number.POSITIVE_INFINITY]], 0, 4, 0, 1, 20), 5) // 4, 8, 12, 16, 20
  })

  it('present at a block only inside a span', () => {
    assert.equal(presentAt([[3, 5]], 5), true)
    assert.equal(presentAt([[3, 5]], 6), false)
    assert.equal(presentAt(undefined, 1), false)
  })
})
