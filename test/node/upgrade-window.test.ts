/**
 * The safe-window rule (src/lib/node/upgrade-window.ts) against committee schedules built here:
 * seats in the current and next epochs, every position in the epoch, the margin and the slack.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { safeWindow } from '../../src/lib/node/upgrade-window.js'

const ME = `0x${'ab'.repeat(96)}`
const OTHER = `0x${'cd'.repeat(96)}`
const S = 1000
const epochMs = 600 * S
const base = { key: ME, epoch: 7, epochStartMs: 1_000_000, epochDurationMs: epochMs, budgetMs: 120 * S }
const schedule = (now: boolean, next: boolean) => ({
  7: now ? [OTHER, ME] : [OTHER],
  8: next ? [ME.toUpperCase().replace('0X', '0x')] : [OTHER],
})

describe('safe window for a restart', () => {
  it('outside both committees: at once, anywhere in the epoch', () => {
    for (let t = 0; t < epochMs; t += 37 * S) {
      const d = safeWindow({ ...base, committees: schedule(false, false), nowMs: base.epochStartMs + t })
      assert.equal(d.go, true, `t=${t}`)
    }
  })

  it('seated only next epoch: at once while the restart ends before the boundary, else just after it', () => {
    const early = safeWindow({ ...base, committees: schedule(false, true), nowMs: base.epochStartMs + 100 * S })
    assert.equal(early.go, true)
    const late = safeWindow({
      ...base,
      committees: schedule(false, true),
      nowMs: base.epochStartMs + epochMs - 119 * S,
    })
    assert.equal(late.go, false)
    assert.equal(late.go === false && late.waitUntilMs, base.epochStartMs + epochMs + 10 * S)
    assert.equal(late.go === false && late.afterBoundaryOfEpoch, 8)
    // exactly at the edge: the deadline ends at the boundary
    assert.equal(
      safeWindow({ ...base, committees: schedule(false, true), nowMs: base.epochStartMs + epochMs - 120 * S }).go,
      true,
    )
  })

  it('seated now: only from margin to margin + slack after the boundary; otherwise the next boundary', () => {
    for (const [t, go] of [
      [0, false],
      [9 * S, false],
      [10 * S, true],
      [40 * S, true],
      [70 * S, true],
      [71 * S, false],
      [599 * S, false],
    ] as const) {
      const d = safeWindow({ ...base, committees: schedule(true, false), nowMs: base.epochStartMs + t })
      assert.equal(d.go, go, `t=${t / S} s: ${d.reason}`)
      if (!d.go)
        assert.equal(d.waitUntilMs, t < 10 * S ? base.epochStartMs + 10 * S : base.epochStartMs + epochMs + 10 * S)
    }
  })

  it('margin and slack are the caller’s', () => {
    const d = safeWindow({
      ...base,
      committees: schedule(true, true),
      nowMs: base.epochStartMs + 3 * S,
      marginMs: 2 * S,
      slackMs: S,
    })
    assert.equal(d.go, true)
    assert.equal(
      safeWindow({
        ...base,
        committees: schedule(true, true),
        nowMs: base.epochStartMs + 4 * S,
        marginMs: 2 * S,
        slackMs: S,
      }).go,
      false,
    )
  })

  it('a committee schedule without the epoch counts as no seat', () => {
    assert.equal(safeWindow({ ...base, committees: {}, nowMs: base.epochStartMs }).go, true)
  })
})
