/**
 * `tnv node migrate`: move a validator to a new host with the key never live twice. One command
 * per host, in this order:
 *
 *   old host  `migrate out`  stop the node; prove the key silent on the network over the window
 *                            (a copy still active elsewhere is refused, exit 29); mark the data
 *                            directory as moved out, so `tnv node start` refuses it here
 *   new host  `migrate in`   prove the key silent over the window (the old host stopped), start
 *                            the node under the local fence, and confirm the authority active again
 *                            in the network's headers (and tn_nodeMode CvvActive)
 *
 * Each side keeps a journal `<datadir>/tnv-migrate.json` (written atomically after each step), so a
 * side killed at any point is finished by running the same command again, and a side run again once
 * finished (its journal done, the node stopped after `out`, running after `in`) does nothing and
 * says `already-done`. `migrate in` on a data directory marked as moved out brings it back (after
 * the same proof of silence).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'
import { type CheckDoppelgangerReturnType, checkDoppelganger, type DoppelgangerEvent } from './doppelganger.js'
import { DoppelgangerDetectedError, DoppelgangerInconclusiveError } from './fence-errors.js'
import { journaledStep } from './journaled-step.js'
import { MigrationNotConfirmedError } from './migrate-errors.js'
import { isNodeProcess, type NodeState, readNodeState } from './state.js'

export const MIGRATE_JOURNAL = 'tnv-migrate.json'

export type MigrateStep = 'stop' | 'silence' | 'mark' | 'start' | 'confirm'

export type MigrateJournal = {
  version: 1
  side: 'out' | 'in'
  datadir: string
  startedAt: string
  done: MigrateStep[]
  outcome: 'done' | null
  /** The network's endpoint the run watches (a rerun after the node stopped reads it here). */
  networkUrl: string
  /** `out`, done: when the node stopped and the silence was proved. */
  movedOutAt: string | null
  silence: { headersSeen: number; waitedMs: number; verdict: string } | null
}

export type MigrateEvent =
  | { event: 'step'; step: MigrateStep; status: 'start' | 'done' | 'skipped'; detail?: Record<string, unknown> }
  | { event: 'resume'; side: 'out' | 'in'; done: MigrateStep[] }
  | { event: 'already-done'; side: 'out' | 'in' }
  | DoppelgangerEvent

export type MigrateParameters = {
  side: 'out' | 'in'
  datadir: string
  /** The network's endpoint (the headers that prove silence and activity). */
  networkUrl: string
  blsPublicKey: `0x${string}`
  windowSeconds?: number
  /** `in`: how long to wait for the authority to show active again. */
  confirmSeconds?: number
  pollMs?: number
  /** Stops the node of this data directory (tnv node stop's way). */
  stop: () => Promise<void>
  /** `in`: starts the node detached under the fence (no second network check: this command made it). */
  start: () => Promise<NodeState>
  onEvent?: (e: MigrateEvent) => void
}

export type MigrateReturnType = {
  /** done: this run finished the side; already-done: it was finished before (nothing was run). */
  outcome: 'done' | 'already-done'
  journal: MigrateJournal
  state: NodeState | null
  confirmation: CheckDoppelgangerReturnType | null
}

export function readMigrateJournal(datadir: string): MigrateJournal | null {
  try {
    const j = JSON.parse(readFileSync(join(datadir, MIGRATE_JOURNAL), 'utf8')) as MigrateJournal
    return j.version === 1 ? j : null
  } catch {
    return null
  }
}

/** The data directory's key was moved to another host (`migrate out` finished): when, else null. */
export function movedOutAt(datadir: string): string | null {
  const j = readMigrateJournal(datadir)
  return j && j.side === 'out' && j.done.includes('mark') ? j.movedOutAt : null
}

/**
 * The side finished before and its result still holds: its journal is done and the node of the
 * data directory is stopped (`out`) or runs (`in`). Null otherwise (a run has work to do).
 */
export async function finishedSide(
  datadir: string,
  side: 'out' | 'in',
): Promise<{ journal: MigrateJournal; state: NodeState | null } | null> {
  const journal = readMigrateJournal(datadir)
  if (journal?.side !== side || journal.outcome !== 'done') return null
  const state = await readNodeState(datadir)
  const running = state !== null && isNodeProcess(state)
  return running === (side === 'in') ? { journal, state: running ? state : null } : null
}

/**
 * @example await migrateNode({ side: 'out', datadir, networkUrl, blsPublicKey, stop, start })
 */
export async function migrateNode(p: MigrateParameters): Promise<MigrateReturnType> {
  const onEvent = p.onEvent ?? (() => {})
  const finished = await finishedSide(p.datadir, p.side)
  if (finished) {
    onEvent({ event: 'already-done', side: p.side })
    return { outcome: 'already-done', ...finished, confirmation: null }
  }
  const journal = resumeOrBeginJournal(p, onEvent)
  const save = () =>
    writeFileAtomic(join(p.datadir, MIGRATE_JOURNAL), `${JSON.stringify(journal, null, 2)}\n`, { mode: 0o600 })
  const run: MigrateRun = {
    p,
    journal,
    save,
    step: journaledStep<MigrateStep>('migrate', journal, save, onEvent),
    onEvent,
  }
  return p.side === 'out' ? migrateOut(run) : migrateIn(run)
}

/** One side's run: its parameters, journal (saved by `save`) and journaled steps. */
type MigrateRun = {
  p: MigrateParameters
  journal: MigrateJournal
  save: () => Promise<void>
  step: ReturnType<typeof journaledStep<MigrateStep>>
  onEvent: (e: MigrateEvent) => void
}

/** The unfinished journal of this side, to resume; else a new one. */
function resumeOrBeginJournal(p: MigrateParameters, onEvent: (e: MigrateEvent) => void): MigrateJournal {
  const j = readMigrateJournal(p.datadir)
  if (j && j.side === p.side && j.outcome === null) {
    onEvent({ event: 'resume', side: p.side, done: j.done })
    return j
  }
  return {
    version: 1,
    side: p.side,
    datadir: p.datadir,
    startedAt: new Date().toISOString(),
    done: [],
    outcome: null,
    networkUrl: p.networkUrl,
    movedOutAt: null,
    silence: null,
  }
}

/** Step silence: the key signs nothing on the network over the window (active or inconclusive is refused). */
async function proveSilence({ p, journal, onEvent }: MigrateRun): Promise<Record<string, unknown>> {
  const r = await checkDoppelganger({
    endpoint: p.networkUrl,
    blsPublicKey: p.blsPublicKey,
    ...(p.windowSeconds !== undefined ? { windowSeconds: p.windowSeconds } : {}),
    ...(p.pollMs !== undefined ? { pollMs: p.pollMs } : {}),
    onEvent,
  })
  if (r.verdict === 'active') throw new DoppelgangerDetectedError(r)
  if (r.verdict === 'inconclusive') throw new DoppelgangerInconclusiveError(r)
  journal.silence = { headersSeen: r.headersSeen, waitedMs: r.waitedMs, verdict: r.verdict }
  return { verdict: r.verdict, authorityId: r.authorityId, headersSeen: r.headersSeen, waitedMs: r.waitedMs }
}

/** `out`: stop, prove the key silent, mark the data directory moved out. */
async function migrateOut(run: MigrateRun): Promise<MigrateReturnType> {
  const { p, journal, save, step } = run
  await step('stop', async () => {
    await p.stop()
    return undefined
  })
  // the stopped node's last certificates can still land in the next commits: the watch begins after a grace
  if (!journal.done.includes('silence')) {
    const { RECENT_STOP_GRACE_MS } = await import('./guard-types.js')
    await new Promise((r) => setTimeout(r, RECENT_STOP_GRACE_MS))
  }
  await step('silence', () => proveSilence(run))
  await step('mark', async () => {
    journal.movedOutAt = new Date().toISOString()
    return { movedOutAt: journal.movedOutAt }
  })
  journal.outcome = 'done'
  await save()
  return { outcome: 'done', journal, state: null, confirmation: null }
}

/** `in`: prove the key silent (unless this directory's node already runs), start, confirm it active. */
async function migrateIn(run: MigrateRun): Promise<MigrateReturnType> {
  const { p, journal, save, step } = run
  let state: NodeState | null = await readNodeState(p.datadir)
  if (!(state && isNodeProcess(state))) state = null
  // a node of this directory already runs (a rerun after the start): its own activity is no copy
  if (!state) await step('silence', () => proveSilence(run))
  await step('start', async () => {
    if (!state) state = await p.start()
    return { pid: state.pid }
  })
  let confirmation: CheckDoppelgangerReturnType | null = null
  await step('confirm', async () => {
    const r = await watchForActivity(p)
    confirmation = r
    if (r.verdict === 'not-registered' || r.verdict === 'not-in-committee')
      return { confirmed: false, why: `${r.verdict}: the headers cannot show this authority; the node runs` }
    if (r.verdict !== 'active') throw new MigrationNotConfirmedError(p.datadir, r)
    const first = r.evidence[0]
    return { confirmed: true, header: first?.header, kind: first?.kind }
  })
  journal.outcome = 'done'
  await save()
  return { outcome: 'done', journal, state: state ?? (await readNodeState(p.datadir)), confirmation }
}

/** The network's headers over the confirm window (default 120 s), until the authority shows active. */
function watchForActivity(p: MigrateParameters): Promise<CheckDoppelgangerReturnType> {
  const windowSeconds = p.confirmSeconds ?? 120
  return checkDoppelganger({
    endpoint: p.networkUrl,
    blsPublicKey: p.blsPublicKey,
    windowSeconds,
    minHeaders: Number.MAX_SAFE_INTEGER,
    maxWaitSeconds: windowSeconds,
    ...(p.pollMs !== undefined ? { pollMs: p.pollMs } : {}),
  })
}
