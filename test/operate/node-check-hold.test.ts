/**
 * Hysteresis of `tnv node check --watch` (src/lib/health/hold-levels.ts): a finding's reported
 * level changes only after the new level has held over the window; a level that comes and goes
 * inside it is shown as pending and changes neither the exit code nor the summary. Checks are
 * constructed reports at given instants: no clock is read.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { holdLevels } from '../../src/lib/health/hold-levels.js'
import type { FindingLevel, NodeCheckReport } from '../../src/lib/health/types.js'

function report(levels: Record<string, FindingLevel>): NodeCheckReport {
  const findings = Object.entries(levels).map(([id, level]) => ({
    id,
    area: 'validator' as const,
    level,
    message: `${id} is ${level}`,
    fix: level === 'ok' ? null : `fix ${id}`,
  }))
  return {
    level: 'ok',
    worst: null,
    exitCode: 0,
    checkedAt: '2026-11-28T00:00:00.000Z',
    targets: { node: null, network: null, validator: null, datadir: '/srv/tn' },
    findings,
    next: '',
    figures: {
      local: null,
      network: null,
      lagBlocks: null,
      lagSeconds: null,
      advancing: null,
      validator: null,
      host: { diskFreeBytes: null, diskTotalBytes: null, udpPorts: [], process: null, restarts: null },
    },
    roundTrips: { local: 0, network: 0, registry: 0, total: 0, exposureProbes: 0 },
    wallMs: 0,
  }
}

describe('node check --watch: levels held over a window', () => {
  it('the first check reports what it sees', () => {
    const r = holdLevels(30_000).settle(report({ a: 'warn' }), 0)
    assert.equal(r.findings[0]?.level, 'warn')
    assert.equal(r.exitCode, 1)
    assert.equal(r.worst, 'a')
  })

  it('a warning every other check (every 5 s) never shows: pending, exit 0 throughout', () => {
    const hold = holdLevels(30_000)
    for (let i = 0; i < 24; i++) {
      const r = hold.settle(report({ a: 'ok', b: i % 2 ? 'warn' : 'ok' }), i * 5_000)
      assert.equal(r.exitCode, 0, `check ${i}`)
      assert.equal(r.findings[1]?.level, 'ok')
      if (i % 2) assert.deepEqual(r.findings[1]?.pending, { level: 'warn', sinceSeconds: 0 })
    }
  })

  it('a level that holds for the window is reported then, and back to ok only after ok has held as long', () => {
    const hold = holdLevels(30_000)
    hold.settle(report({ a: 'ok' }), 0)
    assert.equal(hold.settle(report({ a: 'fail' }), 5_000).exitCode, 0)
    const held = hold.settle(report({ a: 'fail' }), 30_000)
    assert.equal(held.findings[0]?.pending?.sinceSeconds, 25)
    assert.equal(held.exitCode, 0)
    const shown = hold.settle(report({ a: 'fail' }), 35_000)
    assert.equal(shown.exitCode, 2)
    assert.equal(shown.findings[0]?.pending, undefined)
    assert.equal(hold.settle(report({ a: 'ok' }), 40_000).exitCode, 2)
    assert.equal(hold.settle(report({ a: 'ok' }), 70_000).exitCode, 0)
  })

  it('a hold of 0 reports every level at once (a single check, or --hold 0)', () => {
    const hold = holdLevels(0)
    hold.settle(report({ a: 'ok' }), 0)
    assert.equal(hold.settle(report({ a: 'warn' }), 1).exitCode, 1)
    assert.equal(hold.settle(report({ a: 'ok' }), 2).exitCode, 0)
  })
})
