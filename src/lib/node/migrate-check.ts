/**
 * `tnv node migrate out|in --check` (docs/automation.md): the preconditions of the side, read
 * only, and the plan of its steps. Nothing is stopped, started or written (no journal, no fence
 * entry, no lock). What runs:
 *
 *   both    the side's journal (`<datadir>/tnv-migrate.json`): finished and the node in the state
 *           the side leaves it (out: stopped, in: running) is `already-done`; an unfinished one
 *           is resumed by the run, and its done steps are reported done
 *           the network's endpoint, read once (tn_isValidator, the epoch and committee, the
 *           head): an endpoint that fails fails the check as it would fail the run (exit 10);
 *           the window of headers that proves silence is the run's, watched at the moment it
 *           matters (out: only once its node stopped), so the check cannot prove it
 *   out     the node that runs for the data directory (the one the run stops)
 *   in      when no node runs for the data directory: its RPC endpoint, its ports free, and the
 *           local fence (no other start or node on this host holds the key), as the start checks
 *           them; the command line it would start (the JWT secret redacted)
 *
 * `outcome` is `would-change` or `already-done`; a run after `already-done` repeats the proof and
 * changes nothing.
 */
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import { redactNodeFlags } from '../rpc/format-plan.js'
import type { RpcPlan } from '../rpc/types.js'
import { checkDoppelganger, DEFAULT_DOPPELGANGER_WINDOW_SECONDS } from './doppelganger.js'
import { planEndpoints } from './endpoints.js'
import { NodeNoRpcEndpointError } from './errors.js'
import { assertKeyFenceFree, type KeyIdentity } from './fence.js'
import { RECENT_STOP_GRACE_MS } from './guard-types.js'
import { MIGRATE_JOURNAL, type MigrateStep, readMigrateJournal } from './migrate.js'
import { assertPortsFree } from './start.js'
import { isNodeProcess, readNodeState } from './state.js'

/** `in`: what the run would start, after the command resolved the binary and the node's flags as the run does. */
export type MigrateStartPlan = {
  binary: string
  nodeFlags: string[]
  plan: RpcPlan
  /** The local fence's inputs: tnv's state directory, the key's identities, the network (`fenceNetwork`). */
  fence: { stateDir: string; identities: KeyIdentity[]; network: string }
}

export type CheckMigrateParameters = {
  datadir: string
  networkUrl: string
  blsPublicKey: `0x${string}`
  windowSeconds?: number | undefined
  confirmSeconds?: number | undefined
} & ({ side: 'out' } | { side: 'in'; start: MigrateStartPlan })

export type PlannedMigrateStep = {
  step: MigrateStep
  /** done: the journal records it; would-run: the run does it; skipped: the run passes over it (said why). */
  action: 'done' | 'would-run' | 'skipped'
  detail: string
}

export type CheckMigrateReturnType = {
  outcome: 'would-change' | 'already-done'
  check: true
  side: 'out' | 'in'
  datadir: string
  networkUrl: string
  /** The node of the data directory now. */
  running: boolean
  pid: number | null
  /** The network's standing of the key, read once. */
  network: {
    standing: 'in-committee' | 'not-registered' | 'not-in-committee'
    authorityId: string
    epoch: number | null
    committeeSize: number | null
    head: number | null
  }
  /** The steps a run would go through, in order. */
  steps: PlannedMigrateStep[]
  /** The done steps of an unfinished journal of this side (the run resumes after them); null: none. */
  resume: MigrateStep[] | null
  /** `in`: the node's command line the run would start (JWT secret redacted); null otherwise. */
  command: string[] | null
  /** The journal the run writes (mode 0600). */
  files: { path: string; mode: string; exists: boolean; action: 'create' | 'update' }[]
}

/**
 * @example const plan = await checkMigrate({ side: 'out', datadir, networkUrl, blsPublicKey })
 * @throws DoppelgangerEndpointError (the endpoint fails), PortInUseError, NodeNoRpcEndpointError, KeyRunningHereError / KeyRunningUntrackedError (in: the key runs elsewhere on this host)
 */
export async function checkMigrate(p: CheckMigrateParameters): Promise<CheckMigrateReturnType> {
  const journal = readMigrateJournal(p.datadir)
  const state = await readNodeState(p.datadir)
  const running = state !== null && isNodeProcess(state)
  const pid = running ? state.pid : null
  const finished = journal?.side === p.side && journal.outcome === 'done'
  const unfinished = journal?.side === p.side && journal.outcome === null ? journal.done : null
  const network = await readStanding(p)
  const journalPath = join(p.datadir, MIGRATE_JOURNAL)
  const base = {
    side: p.side,
    datadir: p.datadir,
    networkUrl: p.networkUrl,
    running,
    pid,
    network,
  }

  if (finished && running === (p.side === 'in')) {
    const steps: MigrateStep[] = journal.done
    return {
      outcome: 'already-done',
      check: true,
      ...base,
      steps: steps.map((step) => ({ step, action: 'done', detail: 'the journal records it' })),
      resume: null,
      command: null,
      files: [],
    }
  }
  const done = (step: MigrateStep) => unfinished?.includes(step) ?? false
  const window = p.windowSeconds ?? DEFAULT_DOPPELGANGER_WINDOW_SECONDS
  const silence = silenceDetail(window, p.networkUrl, network)
  const steps: PlannedMigrateStep[] = []
  const plan = (step: MigrateStep, action: PlannedMigrateStep['action'], detail: string) =>
    steps.push({ step, action: done(step) ? 'done' : action, detail: done(step) ? 'the journal records it' : detail })
  let command: string[] | null = null

  if (p.side === 'out') {
    plan('stop', 'would-run', running ? `stop node ${pid}` : 'no node runs for the data directory: nothing to stop')
    plan('silence', 'would-run', `after ${RECENT_STOP_GRACE_MS / 1000} s, ${silence}`)
    plan('mark', 'would-run', `record the data directory moved out in ${journalPath} (tnv node start then refuses it)`)
  } else {
    if (!running) {
      const { start } = p
      if (!done('start')) {
        const rpc = planEndpoints(start.plan)
        if (!(rpc.ipc ?? rpc.http)) throw new NodeNoRpcEndpointError()
        await assertPortsFree(start.plan)
        await assertKeyFenceFree({ datadir: p.datadir, ...start.fence })
      }
      command = [start.binary, 'node', '--datadir', p.datadir, ...redactNodeFlags(start.nodeFlags, start.plan)]
      plan('silence', 'would-run', silence)
      plan('start', 'would-run', `start ${command.join(' ')} detached, under the local fence`)
    } else {
      steps.push({ step: 'silence', action: 'skipped', detail: `node ${pid} of this data directory runs already` })
      plan('start', 'skipped', `node ${pid} runs already`)
    }
    plan(
      'confirm',
      'would-run',
      `wait up to ${p.confirmSeconds ?? 120} s for authority ${network.authorityId} to show active in the headers`,
    )
  }
  const exists = await lstat(journalPath).then(
    () => true,
    () => false,
  )
  return {
    outcome: 'would-change',
    check: true,
    ...base,
    steps,
    resume: unfinished,
    command,
    files: [{ path: journalPath, mode: '0600', exists, action: exists ? 'update' : 'create' }],
  }
}

/** One read of the endpoint the run watches: the key's standing and the head, no window. */
async function readStanding(p: CheckMigrateParameters): Promise<CheckMigrateReturnType['network']> {
  const r = await checkDoppelganger({
    endpoint: p.networkUrl,
    blsPublicKey: p.blsPublicKey,
    windowSeconds: 0,
    minHeaders: 0,
  })
  return {
    standing: r.verdict === 'not-registered' || r.verdict === 'not-in-committee' ? r.verdict : 'in-committee',
    authorityId: r.authorityId,
    epoch: r.epoch,
    committeeSize: r.committeeSize,
    head: r.lastHeader,
  }
}

function silenceDetail(window: number, url: string, network: CheckMigrateReturnType['network']): string {
  if (network.standing !== 'in-committee')
    return `the key is ${network.standing === 'not-registered' ? 'not registered' : 'not in the committee'} on ${url}: nothing to watch (as now)`
  return `watch ${url} for ${window} s of consensus headers: authority ${network.authorityId} must neither lead nor score`
}
