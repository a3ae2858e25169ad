/**
 * Hysteresis of `tnv node check` (src/lib/health/hold-levels.ts): a finding's reported level
 * changes only after the new level has held over the window; a level that comes and goes inside
 * it is shown as pending and changes neither the exit code nor the summary. Under --watch the
 * holds live in memory; single runs with --hold carry them in a state file
 * (src/lib/health/hold-state.ts), which starts fresh, with one notice, when it is missing,
 * damaged, stale or another check's. Checks are constructed reports at given instants: no clock
 * is read.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { holdLevels } from '../../src/lib/health/hold-levels.js'
import { HOLD_STATE_FILE, holdAcrossRuns, STALE_AFTER_MS } from '../../src/lib/health/hold-state.js'
import type { FindingLevel, NodeCheckReport } from '../../src/lib/health/types.js'
import { renderUnits } from '../../src/lib/node/unit-files.js'

function report(
  levels: Record<string, FindingLevel>,
  datadir = '/srv/tn',
  validator: string | null = null,
): NodeCheckReport {
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
    targets: { node: null, network: null, validator, datadir },
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

describe('node check --hold, single runs: levels held across runs in a state file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tnv-hold-state-'))
  after(() => rmSync(dir, { recursive: true, force: true }))
  let n = 0
  const fresh = () => join(dir, `${n++}-${HOLD_STATE_FILE}`)
  const run = (path: string, levels: Record<string, FindingLevel>, nowMs: number, r = report(levels)) =>
    holdAcrossRuns({ path, holdMs: 30_000, report: r, nowMs })

  it('a first run (no file) reports what it sees, says so, and writes the file', async () => {
    const path = fresh()
    const first = await run(path, { a: 'warn' }, 1_000)
    assert.equal(first.report.exitCode, 1)
    assert.equal(first.notices.length, 1)
    assert.match(first.notices[0] as string, /No earlier check at .*: this check reports the levels it observes/)
    const state = JSON.parse(readFileSync(path, 'utf8'))
    assert.equal(state.datadir, '/srv/tn')
    assert.deepEqual(state.held.a, { shown: 'warn', observed: 'warn', sinceMs: 1_000 })
    // the notice comes once: the next run reads the file it wrote
    assert.deepEqual((await run(path, { a: 'warn' }, 61_000)).notices, [])
  })

  it('a finding seen in one run of three (a timer every 60 s) is not raised; one that persists is', async () => {
    const once = fresh()
    await run(once, { a: 'ok' }, 0)
    const flap = await run(once, { a: 'warn' }, 60_000)
    assert.equal(flap.report.exitCode, 0)
    assert.deepEqual(flap.report.findings[0]?.pending, { level: 'warn', sinceSeconds: 0 })
    assert.equal((await run(once, { a: 'ok' }, 120_000)).report.exitCode, 0)

    const persists = fresh()
    await run(persists, { a: 'ok' }, 0)
    assert.equal((await run(persists, { a: 'warn' }, 60_000)).report.exitCode, 0)
    const raised = await run(persists, { a: 'warn' }, 120_000)
    assert.equal(raised.report.exitCode, 1)
    assert.equal(raised.report.worst, 'a')
    // recovery is held the same way: ok must hold too before it is reported
    assert.equal((await run(persists, { a: 'ok' }, 180_000)).report.exitCode, 1)
    assert.equal((await run(persists, { a: 'ok' }, 240_000)).report.exitCode, 0)
  })

  it('a damaged file (not JSON, another shape, an unknown level) starts fresh with one notice', async () => {
    for (const [text, why] of [
      ['{"format": "tnv-node-check-hold/1", "datadir": "/srv', /not valid JSON/],
      ['[]', /not in this tnv's format/],
      [
        JSON.stringify({
          format: 'tnv-node-check-hold/1',
          datadir: '/srv/tn',
          validator: null,
          checkedAtMs: 0,
          held: { a: { shown: 'ok', observed: 'bad', sinceMs: 0 } },
        }),
        /is damaged/,
      ],
    ] as const) {
      const path = fresh()
      writeFileSync(path, text)
      const r = await run(path, { a: 'warn' }, 60_000)
      assert.equal(r.report.exitCode, 1, 'the levels observed, not held')
      assert.equal(r.notices.length, 1)
      assert.match(r.notices[0] as string, why)
      assert.match(r.notices[0] as string, /starting fresh/)
      assert.deepEqual((await run(path, { a: 'warn' }, 61_000)).notices, [], 'rewritten: the notice comes once')
    }
  })

  it('another format version, another data directory or validator, or a stale file: the earlier levels are not used', async () => {
    const seed = async (path: string) => {
      await run(path, { a: 'ok' }, 0)
      return JSON.parse(readFileSync(path, 'utf8'))
    }
    const version = fresh()
    writeFileSync(version, JSON.stringify({ ...(await seed(version)), format: 'tnv-node-check-hold/2' }))
    const v = await run(version, { a: 'warn' }, 60_000)
    assert.equal(v.report.exitCode, 1)
    assert.match(v.notices[0] as string, /not in this tnv's format/)

    const other = fresh()
    await seed(other)
    const d = await run(other, { a: 'warn' }, 60_000, report({ a: 'warn' }, '/srv/other'))
    assert.equal(d.report.exitCode, 1)
    assert.match(d.notices[0] as string, /another check \(data directory \/srv\/tn, validator none\)/)
    const val = await run(other, { a: 'fail' }, 120_000, report({ a: 'fail' }, '/srv/other', '0x01'))
    assert.equal(val.report.exitCode, 2)
    assert.match(val.notices[0] as string, /another check/)

    const stale = fresh()
    await seed(stale)
    const s = await run(stale, { a: 'warn' }, STALE_AFTER_MS + 1)
    assert.equal(s.report.exitCode, 1)
    assert.match(s.notices[0] as string, /from a check 24 h ago, too old/)
    const future = fresh()
    await run(future, { a: 'ok' }, 60_000)
    const back = await run(future, { a: 'warn' }, 0)
    assert.equal(back.report.exitCode, 1)
    assert.match(back.notices[0] as string, /dated after now/)
  })

  it('a file that cannot be written is a notice; the run still reports its held levels', async () => {
    const r = await run(join(dir, 'no', 'such', HOLD_STATE_FILE), { a: 'warn' }, 0)
    assert.equal(r.report.exitCode, 1)
    assert.equal(r.notices.length, 2)
    assert.match(r.notices[1] as string, /could not be saved to .*no\/such.*: the next check starts fresh/)
  })

  it("the check timer's service runs single checks with --hold", () => {
    const units = renderUnits({
      tnv: '/usr/local/bin/tnv',
      nodeBinary: null,
      user: 'tnv',
      datadirRoot: '/var/lib/tnv',
      configDir: '/etc/tnv',
      textfileDir: '/var/lib/prometheus/node-exporter',
      checkIntervalSeconds: 60,
    })
    const service = units.find((u) => u.name === 'tnv-check@.service')?.content ?? ''
    assert.match(
      service,
      /^ExecStart=\/usr\/local\/bin\/tnv node check --datadir \/var\/lib\/tnv\/%i --hold 30 --prometheus /m,
    )
    // the state file's directory (the data directory) is writable under the unit's sandbox
    assert.match(service, /^ReadWritePaths=.* \/var\/lib\/tnv\/%i$/m)
  })
})
