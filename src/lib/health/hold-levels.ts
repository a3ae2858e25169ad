/**
 * Hysteresis for `tnv node check --watch`: a finding's reported level changes only once the new
 * level has been observed in every check for at least the hold window, as a Prometheus alert
 * rule's `for:` does. A level that comes and goes within the window (a reputation score read at
 * an epoch boundary, one slow answer) is reported as `pending` on the finding, never as its level,
 * so the exit code and the textfile do not flap. The first check reports what it observes.
 */
import { summarize } from './evaluate.js'
import type { Finding, FindingLevel, NodeCheckReport } from './types.js'

type Held = { shown: FindingLevel; observed: FindingLevel; sinceMs: number }

export type LevelHold = {
  /** The report with every finding at its held level (and `pending` where another level waits), re-summarized. */
  settle(report: NodeCheckReport, nowMs?: number): NodeCheckReport
}

/**
 * @param holdMs how long a new level must hold before it is reported (0: at once)
 * @example const hold = holdLevels(30_000); report = hold.settle(report)
 */
export function holdLevels(holdMs: number): LevelHold {
  const held = new Map<string, Held>()
  return {
    settle(report, nowMs = Date.now()) {
      const findings = report.findings.map((f) => settleOne(held, f, nowMs, holdMs))
      return { ...report, findings, ...summarize(findings, report.figures.validator) }
    },
  }
}

function settleOne(held: Map<string, Held>, f: Finding, nowMs: number, holdMs: number): Finding {
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
