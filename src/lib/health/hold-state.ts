/**
 * Hysteresis across single runs of `tnv node check --hold N` (a systemd timer, cron): the held
 * levels of ./hold-levels.ts are kept from one run to the next in a small JSON file, by default
 * `<datadir>/tnv-check-state.json` (docs/node.md, "Levels"). Each run reads it, settles its
 * findings against it exactly as --watch does in memory, and replaces it atomically.
 *
 * A file that cannot serve (missing, unreadable, not this format, written for another data
 * directory or validator, or older than STALE_AFTER_MS) is never an error: the run starts fresh,
 * reports what it observes (as the first check of --watch does), says why in one notice, and
 * writes a good file, so the notice comes once. A file that cannot be written is a notice too:
 * the check's findings and exit code are its own, whatever happens to this file.
 */
import { resolve } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'
import { readSmallFile } from '../fs/read-small-file.js'
import { type HeldLevel, holdLevels } from './hold-levels.js'
import type { FindingLevel, NodeCheckReport } from './types.js'

/** The state file's name in the data directory. */
export const HOLD_STATE_FILE = 'tnv-check-state.json'

const FORMAT = 'tnv-node-check-hold/1'

/**
 * A state whose last check is older than this (or than twice the hold, when longer) is stale:
 * whether the levels held over the checks that did not run is unknown.
 */
export const STALE_AFTER_MS = 24 * 3600_000

/** A dozen findings of ~100 bytes: far below this. */
const MAX_BYTES = 64 * 1024

type HoldStateFile = {
  format: typeof FORMAT
  /** The check these levels belong to. */
  datadir: string
  validator: string | null
  /** The last check, Unix ms. */
  checkedAtMs: number
  held: Record<string, HeldLevel>
}

export type HoldAcrossRunsParameters = {
  /** The state file (default `<datadir>/tnv-check-state.json`, chosen by the command). */
  path: string
  holdMs: number
  /** This run's report, as observed. */
  report: NodeCheckReport
  nowMs?: number
}

export type HoldAcrossRunsResult = {
  /** The report at its held levels. */
  report: NodeCheckReport
  /** Why earlier levels were not used or could not be saved (one line each), for stderr. */
  notices: string[]
}

/**
 * @example const { report, notices } = await holdAcrossRuns({ path: '/srv/tn/tnv-check-state.json', holdMs: 30_000, report })
 */
export async function holdAcrossRuns({
  path,
  holdMs,
  report,
  nowMs = Date.now(),
}: HoldAcrossRunsParameters): Promise<HoldAcrossRunsResult> {
  const key = { datadir: resolve(report.targets.datadir), validator: report.targets.validator }
  const notices: string[] = []
  const earlier = await readHoldState(path, key, holdMs, nowMs)
  if (typeof earlier === 'string')
    notices.push(
      `${earlier}: this check reports the levels it observes; the next ones hold them for ${holdMs / 1000} s.`,
    )
  const hold = holdLevels(holdMs, typeof earlier === 'string' ? {} : earlier)
  const settled = hold.settle(report, nowMs)
  const state: HoldStateFile = { format: FORMAT, ...key, checkedAtMs: nowMs, held: hold.held() }
  try {
    await writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 })
  } catch (err) {
    notices.push(
      `The held levels could not be saved to ${path} (${(err as Error).message}): the next check starts fresh. Make its directory writable by this user, or pass --hold-state <file> in a writable directory.`,
    )
  }
  return { report: settled, notices }
}

const LEVELS: readonly FindingLevel[] = ['ok', 'warn', 'fail', 'skip']

/**
 * The earlier holds for this check, or why there are none (one phrase).
 * @example const held = await readHoldState(path, { datadir, validator }, 30_000, Date.now())
 */
export async function readHoldState(
  path: string,
  key: { datadir: string; validator: string | null },
  holdMs: number,
  nowMs: number,
): Promise<Record<string, HeldLevel> | string> {
  let text: string
  try {
    text = await readSmallFile(path, { what: 'a node check state file', maxBytes: MAX_BYTES })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return `No earlier check at ${path}`
    return `${path} could not be read (${(err as Error).message}), starting fresh`
  }
  let state: unknown
  try {
    state = JSON.parse(text)
  } catch {
    return `${path} is not valid JSON (damaged?), starting fresh`
  }
  const s = state as Partial<HoldStateFile>
  if (typeof s !== 'object' || s === null || s.format !== FORMAT)
    return `${path} is not in this tnv's format (${FORMAT}), starting fresh`
  if (s.datadir !== key.datadir || s.validator !== key.validator)
    return `${path} holds the levels of another check (data directory ${String(s.datadir)}, validator ${String(s.validator ?? 'none')}), starting fresh`
  if (typeof s.checkedAtMs !== 'number' || !Number.isFinite(s.checkedAtMs) || !isHeldMap(s.held, s.checkedAtMs))
    return `${path} is damaged, starting fresh`
  if (s.checkedAtMs > nowMs) return `${path} is dated after now (the clock went back?), starting fresh`
  const age = nowMs - s.checkedAtMs
  if (age > Math.max(STALE_AFTER_MS, 2 * holdMs))
    return `${path} is from a check ${Math.round(age / 3600_000)} h ago, too old to hold levels over, starting fresh`
  return s.held
}

function isHeldMap(x: unknown, checkedAtMs: number): x is Record<string, HeldLevel> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false
  return Object.values(x).every((h: Partial<HeldLevel> | null) => {
    if (typeof h !== 'object' || h === null) return false
    return (
      LEVELS.includes(h.shown as FindingLevel) &&
      LEVELS.includes(h.observed as FindingLevel) &&
      typeof h.sinceMs === 'number' &&
      h.sinceMs <= checkedAtMs
    )
  })
}
