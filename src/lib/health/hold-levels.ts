/**
 * Hysteresis for `tnv node check`: a finding's reported level changes only once the new level has
 * been observed in every check for at least the hold window, as a Prometheus alert rule's `for:`
 * does. A level that comes and goes within the window (a reputation score read at an epoch
 * boundary, one slow answer) is reported as `pending` on the finding, never as its level, so the
 * exit code and the textfile do not flap. The first check reports what it observes. Under
 * --watch the held levels live in the process; single runs carry them from one run to the next
 * in a state file (./hold-state.ts).
 */
import { summarize } from './evaluate.js'
import type { Finding, FindingLevel, NodeCheckReport } from './types.js'

/** One finding's hold: the level reported, the level last observed and since when (ms). */
export type HeldLevel = { shown: FindingLevel; observed: FindingLevel; sinceMs: number }

export type LevelHold = {
  /** The report with every finding at its held level (and `pending` where another level waits), re-summarized. */
  settle(report: NodeCheckReport, nowMs?: number): NodeCheckReport
  /** The holds after the last settle, by finding id (what a single run saves for the next). */
  held(): Record<string, HeldLevel>
}

/**
 * @param holdMs how long a new level must hold before it is reported (0: at once)
 * @param earlier the holds of earlier checks (a single run's state file); none: this is the first check
 * @example const hold = holdLevels(30_000); report = hold.settle(report)
 */
export function holdLevels(holdMs: number, earlier: Record<string, HeldLevel> = {}): LevelHold {
  const held = new Map<string, HeldLevel>(Object.entries(earlier).map(([id, h]) => [id, { ...h }]))
  return {
    settle(report, nowMs = Date.now()) {
      const findings = report.findings.map((f) => settleOne(held, f, nowMs, holdMs))
      return { ...report, findings, ...summarize(findings, report.figures.validator) }
    },
    held: () => Object.fromEntries([...held].map(([id, h]) => [id, { ...h }])),
  }
}

function settleOne(held: Map<string, HeldLevel>, f: Finding, nowMs: number, holdMs: number): Finding {
  const h = held.get(f.id)
  if (!h) {
    held.set(f.id, { shown: f.level, observed: f.level, sinceMs: nowMs })
    return f
  }
  if (f.level !== h.observed) {
    h.observed = f.level
    h.sinceMs = nowMs
  }
  if (h.observed !== h.shown && nowMs - h.sinceMs >= holdMs) h.shown = h.observed
  if (h.shown === f.level) return f
  return {
    ...f,
    level: h.shown,
    pending: { level: f.level, sinceSeconds: Math.round((nowMs - h.sinceMs) / 1000) },
  }
}
