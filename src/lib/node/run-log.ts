/**
 * The run log of the nodes tnv starts for a data directory: `<datadir>/tnv-node-runs.json`. Every
 * start (pid, time, foreground or detached, which restart) and every exit (time, exit code or
 * signal, clean or not, why) is recorded, so `tnv node check` can count restarts and name the last
 * crash. Written atomically under a lock (a foreground supervisor, `tnv node stop` and a node check
 * may write at once), bounded (the last MAX_RUNS runs; the totals are kept for ever, so the
 * Prometheus counters never go back), and never a secret: no argv, no environment, only the
 * binary's path.
 *
 * Clean follows systemd's rule for `Restart=on-failure`: exit code 0, or the end by SIGTERM, SIGINT,
 * SIGHUP or SIGPIPE (a stop asked of the node). A stop tnv itself asked for (`tnv node stop`,
 * Ctrl-C) is `stopped`, even when the grace period ran out and it had to SIGKILL (then not clean).
 * A detached node's exit status cannot be known (tnv is no longer its parent): the next tnv
 * command that finds its pid dead records `found-dead`, not clean.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'
import { withLock } from '../fs/lock.js'
import { isProcessAlive } from '../os/process-alive.js'
import { isNodeProcess, type NodeState } from './state.js'

export const RUN_LOG_FILE = 'tnv-node-runs.json'
const RUN_LOG_LOCK = 'tnv-node-runs.lock'
/** Runs kept in the file (older ones drop off; the totals keep counting). About 300 bytes each. */
export const MAX_RUNS = 200

/** Signals that end a process on request: their exit is clean (systemd's Restart=on-failure rule). */
const CLEAN_SIGNALS: ReadonlySet<string> = new Set(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGPIPE'])

export type ExitHow =
  /** tnv was asked to stop it (tnv node stop, Ctrl-C or SIGTERM to a foreground tnv). */
  | 'stopped'
  /** It ended by itself: code 0 or a clean signal not sent by tnv. */
  | 'exited'
  /** Non-zero exit code or a signal such as SIGKILL or SIGSEGV. */
  | 'crashed'
  /** Its RPC did not answer in time and tnv stopped it. */
  | 'not-ready'
  /** A later tnv command found its pid dead (detached: exit status unknown). */
  | 'found-dead'

export type RunExit = {
  at: string
  code: number | null
  signal: string | null
  how: ExitHow
  clean: boolean
  /** One line: what ended it. */
  reason: string
}

export type RunRecord = {
  pid: number
  startedAt: string
  binary: string
  mode: 'foreground' | 'detached'
  /** The tnv process that waits for it (foreground) and records its exit; null when detached. */
  supervisorPid: number | null
  /** 0 for a start by hand, n for the supervisor's n-th restart. */
  restart: number
  /** Set by `tnv node stop` before it signals the node: the exit that follows was asked for. */
  stopRequested: { at: string; by: string } | null
  exit: RunExit | null
}

export type RunLog = {
  version: 1
  totals: { starts: number; cleanExits: number; uncleanExits: number }
  runs: RunRecord[]
}

export function runLogPath(datadir: string): string {
  return join(datadir, RUN_LOG_FILE)
}

const empty = (): RunLog => ({ version: 1, totals: { starts: 0, cleanExits: 0, uncleanExits: 0 }, runs: [] })

/** The run log, or null when tnv never started a node here (or the file is not one of tnv's). */
export async function readRunLog(datadir: string): Promise<RunLog | null> {
  let text: string
  try {
    text = await fs.readFile(runLogPath(datadir), 'utf8')
  } catch {
    return null
  }
  try {
    const log = JSON.parse(text) as RunLog
    return log?.version === 1 && Array.isArray(log.runs) && log.totals ? log : null
  } catch {
    return null
  }
}

/** Read, change and write the log under its lock; `change` returns false to leave the file as it was. */
async function updateRunLog(datadir: string, change: (log: RunLog) => boolean): Promise<void> {
  await fs.mkdir(datadir, { recursive: true })
  await withLock(
    {
      lockPath: join(datadir, RUN_LOG_LOCK),
      what: `the node run log in ${datadir}`,
      command: `tnv (pid ${process.pid})`,
      waitMs: 5_000,
    },
    async () => {
      const log = (await readRunLog(datadir)) ?? empty()
      if (!change(log)) return
      if (log.runs.length > MAX_RUNS) log.runs.splice(0, log.runs.length - MAX_RUNS)
      await writeFileAtomic(runLogPath(datadir), `${JSON.stringify(log, null, 1)}\n`, { mode: 0o644 })
    },
  )
}

export type RecordStartParameters = {
  pid: number
  binary: string
  mode: 'foreground' | 'detached'
  restart?: number
  startedAt?: string
}

export async function recordNodeStart(datadir: string, p: RecordStartParameters): Promise<void> {
  await updateRunLog(datadir, (log) => {
    log.totals.starts++
    log.runs.push({
      pid: p.pid,
      startedAt: p.startedAt ?? new Date().toISOString(),
      binary: p.binary,
      mode: p.mode,
      supervisorPid: p.mode === 'foreground' ? process.pid : null,
      restart: p.restart ?? 0,
      stopRequested: null,
      exit: null,
    })
    return true
  })
}

/** The latest run of this pid that has not ended. */
function openRun(log: RunLog, pid: number): RunRecord | undefined {
  for (let i = log.runs.length - 1; i >= 0; i--) {
    const r = log.runs[i] as RunRecord
    if (r.pid === pid) return r.exit === null ? r : undefined
  }
  return undefined
}

/** Marks the running node's exit as asked for (before the signal is sent). */
export async function recordStopRequest(datadir: string, pid: number, by: string): Promise<void> {
  await updateRunLog(datadir, (log) => {
    const run = openRun(log, pid)
    if (!run) return false
    run.stopRequested = { at: new Date().toISOString(), by }
    return true
  })
}

/** How an exit is judged (pure). `requested`: tnv itself asked for it. */
export function classifyExit({
  code,
  signal,
  requested,
  forced = false,
}: {
  code: number | null
  signal: string | null
  requested: boolean
  forced?: boolean
}): Pick<RunExit, 'how' | 'clean' | 'reason'> {
  const what = signal ? `ended by ${signal}` : `exited with code ${code}`
  if (requested)
    return forced
      ? { how: 'stopped', clean: false, reason: `stopped by tnv, SIGKILL after the grace period (${what})` }
      : { how: 'stopped', clean: true, reason: `stopped by tnv (${what})` }
  if (signal ? CLEAN_SIGNALS.has(signal) : code === 0)
    return { how: 'exited', clean: true, reason: signal ? `${what}, not sent by tnv` : what }
  return { how: 'crashed', clean: false, reason: what }
}

export type RecordExitParameters = {
  code: number | null
  signal: string | null
  /** tnv asked for the exit (besides a stop request recorded in the log). */
  requested?: boolean
  forced?: boolean
  /** Overrides the classification (not-ready, found-dead). */
  how?: ExitHow
  reason?: string
}

/**
 * Records the exit of the run of `pid`; the first record wins (a supervisor and `tnv node stop`
 * may both see one exit). Returns the exit as recorded (null when the run is not in the log).
 */
export async function recordNodeExit(datadir: string, pid: number, p: RecordExitParameters): Promise<RunExit | null> {
  let recorded: RunExit | null = null
  await updateRunLog(datadir, (log) => {
    const run = openRun(log, pid)
    if (!run) {
      // ended already: report what was recorded
      recorded = [...log.runs].reverse().find((r) => r.pid === pid)?.exit ?? null
      return false
    }
    const judged =
      p.how !== undefined
        ? { how: p.how, clean: false, reason: p.reason ?? p.how }
        : classifyExit({
            code: p.code,
            signal: p.signal,
            requested: (p.requested ?? false) || run.stopRequested !== null,
            forced: p.forced ?? false,
          })
    run.exit = { at: new Date().toISOString(), code: p.code, signal: p.signal, ...judged }
    if (run.exit.clean) log.totals.cleanExits++
    else log.totals.uncleanExits++
    recorded = run.exit
    return true
  })
  return recorded
}

/**
 * The exits nobody saw: runs still open in the log whose process is gone and whose supervisor (a
 * foreground tnv, which records the exit itself) is gone too. Called by the commands that read the
 * node's state (node check, status, start, stop), so a detached node's crash is recorded the next
 * time tnv looks. A pid now held by another program (after a reboot) is not the node.
 */
export async function observeNodeExits(datadir: string, state: NodeState | null, by: string): Promise<void> {
  const log = await readRunLog(datadir)
  if (!log) return
  const dead = (r: RunRecord) => {
    if (r.exit !== null) return false
    if (r.supervisorPid !== null && r.supervisorPid !== process.pid && isProcessAlive(r.supervisorPid)) return false
    // alive and still running the recorded binary (a pid reused by another program is not the node)
    return !isNodeProcess({ pid: r.pid, binary: state && state.pid === r.pid ? state.binary : r.binary })
  }
  const gone = log.runs.filter(dead)
  if (gone.length === 0) return
  await updateRunLog(datadir, (current) => {
    let changed = false
    for (const r of current.runs.filter(dead)) {
      r.exit = {
        at: new Date().toISOString(),
        code: null,
        signal: null,
        how: 'found-dead',
        clean: r.stopRequested !== null,
        reason:
          r.stopRequested !== null
            ? `stopped by ${r.stopRequested.by}`
            : `found not running by ${by}; exit status unknown (${r.mode === 'detached' ? 'tnv had detached from it' : 'the tnv that ran it had ended'})`,
      }
      if (r.exit.clean) current.totals.cleanExits++
      else current.totals.uncleanExits++
      changed = true
    }
    return changed
  })
}

export type RestartSummary = {
  /** Starts recorded in the last hour and 24 hours (a restart is a start). */
  starts1h: number
  starts24h: number
  /** Unclean exits in the last hour and 24 hours. */
  unclean1h: number
  unclean24h: number
  /** Since the log was created (monotonic: the Prometheus counters). */
  totalStarts: number
  totalUnclean: number
  lastUnclean: {
    pid: number
    startedAt: string
    exitedAt: string
    code: number | null
    signal: string | null
    how: ExitHow
    reason: string
    /** tnv's foreground supervisor started the node again after it. */
    restarted: boolean
  } | null
}

/** Counts over the log (pure). */
export function summarizeRuns(log: RunLog, nowMs = Date.now()): RestartSummary {
  const within = (iso: string, ms: number) => {
    const t = Date.parse(iso)
    return Number.isFinite(t) && nowMs - t <= ms
  }
  const H = 3_600_000
  const unclean = log.runs.filter((r) => r.exit && !r.exit.clean)
  const last = unclean.at(-1)
  const after = last ? log.runs.slice(log.runs.indexOf(last) + 1) : []
  return {
    starts1h: log.runs.filter((r) => within(r.startedAt, H)).length,
    starts24h: log.runs.filter((r) => within(r.startedAt, 24 * H)).length,
    unclean1h: unclean.filter((r) => within((r.exit as RunExit).at, H)).length,
    unclean24h: unclean.filter((r) => within((r.exit as RunExit).at, 24 * H)).length,
    totalStarts: log.totals.starts,
    totalUnclean: log.totals.uncleanExits,
    lastUnclean:
      last?.exit != null
        ? {
            pid: last.pid,
            startedAt: last.startedAt,
            exitedAt: last.exit.at,
            code: last.exit.code,
            signal: last.exit.signal,
            how: last.exit.how,
            reason: last.exit.reason,
            restarted: after.some(
              (r) => r.restart > 0 && r.supervisorPid !== null && r.supervisorPid === last.supervisorPid,
            ),
          }
        : null,
  }
}
