/**
 * `tnv node upgrade --binary NEW` and `tnv node restart`: replace (or restart) the node tnv runs
 * for a data directory without taking a committee seat down at a bad moment, and put the old
 * binary back by itself when the new one does not come up.
 *
 * Steps, each reported as an event and recorded in the journal `<datadir>/tnv-upgrade.json`
 * (written atomically after each step) so that a run killed at any point is finished by running
 * the same command again:
 *
 *   preflight  the new binary runs, reports its version (`--version`) and lists every flag tnv
 *              passes in `node --help`
 *   window     the safe window (./upgrade-window.ts), read from the running node's tn_ methods
 *   keep-old   the current binary copied to `<binary>.tnv-previous` (upgrade)
 *   stop       the running node stopped by its supervisor (./supervisor.ts): tnv node stop's way,
 *              or `systemctl stop <unit>` for a node a systemd unit runs (./systemd.ts)
 *   swap       the new binary copied over `<binary>` (a rename: the path holds the old or the new)
 *   start      the node started from `<binary>`: by tnv with the same flags, detached, under the
 *              fence; or `systemctl start <unit>` (the unit's ExecStart, the same path), and tnv
 *              waits until the unit's node serves
 *   verify     within the deadline: tn_nodeMode back to what the old node reported (CvvActive
 *              for a committee member; never CvvInactive) and the consensus headers advancing
 *   rollback   (on a failed start or verify) the new node stopped, `<binary>.tnv-previous` put
 *              back, the old binary started and verified the same way
 *
 * Every step is idempotent: on resume it checks the file system and the processes (the sha256 of
 * the binary, the node recorded for the data directory) rather than trusting the journal alone.
 */
import { promises as fs, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sha256 } from '@noble/hashes/sha2.js'
import { killPoint, writeFileAtomic } from '../fs/atomic.js'
import type { NodeBinary } from './binary.js'
import type { UpgradeJournal, UpgradeStepName } from './guard-types.js'
import { jsonRpcRequest } from './json-rpc.js'

export type { UpgradeJournal, UpgradeStepName } from './guard-types.js'

import { journaledStep } from './journaled-step.js'
import { isNodeProcess, type NodeState, readNodeState } from './state.js'
import type { NodeSupervisor, SupervisorRef } from './supervisor.js'
import {
  NodeNotRunningForUpgradeError,
  PreflightFailedError,
  RestartFailedError,
  RollbackFailedError,
  RolledBackError,
  UnfinishedUpgradeError,
  UpgradeNeedsOwnBinaryError,
  WindowTimeoutError,
} from './upgrade-errors.js'
import type { SafeWindowDecision } from './upgrade-window.js'

export const UPGRADE_JOURNAL = 'tnv-upgrade.json'
export const PREVIOUS_SUFFIX = '.tnv-previous'

export type UpgradeEvent =
  | {
      event: 'step'
      step: UpgradeStepName
      status: 'start' | 'done' | 'skipped' | 'failed'
      detail?: Record<string, unknown>
    }
  | { event: 'resume'; done: UpgradeStepName[]; phase: string }
  | { event: 'waiting'; reason: string; waitUntil: string | null; epoch: number }
  | { event: 'verify-progress'; mode: string | null; header: number | null; advanced: number }
  | { event: 'plan'; plan: UpgradePlan }

export type UpgradePlan = {
  op: 'upgrade' | 'restart'
  datadir: string
  binary: string
  newBinary: string | null
  previous: string | null
  oldVersion: string | null
  newVersion: string | null
  nodeFlags: string[]
  oldMode: string | null
  supervisor: SupervisorRef
  window: SafeWindowDecision | { go: true; reason: string }
  deadlineSeconds: number
  steps: UpgradeStepName[]
}

/** What the caller provides to start a node and guard its key (the command's session). */
export type UpgradeHooks = {
  /** Resolves a binary path as node start does. */
  resolveBinary: (path: string) => NodeBinary
  /**
   * Stops and starts the node: tnv's own (detached, under the key guard: the fence, no network
   * check, the key ran here), or the systemd unit that runs it (./systemd.ts).
   */
  supervisor: NodeSupervisor
  /** `<binary> --version`, first line, or null. */
  version: (binary: NodeBinary) => string | null
  /** `<binary> node --help` text, or null when it does not run. */
  help: (binary: NodeBinary) => string | null
}

export type UpgradeNodeParameters = {
  datadir: string
  /** The new binary (upgrade); absent for a restart. */
  newBinary?: string
  /** The key's public key (for the committee seat), from node-info.yaml. */
  blsPublicKey: `0x${string}` | null
  deadlineSeconds?: number
  /** Restart at once, whatever the committee (the operator accepts missed rounds). */
  now?: boolean
  marginSeconds?: number
  slackSeconds?: number
  /** The network's epoch length when it is not the registry's epochDuration (a devnet rehearsal's --epoch-seconds). */
  epochSeconds?: number
  /** Longest wait for the window. Default: two epochs plus the margin. */
  windowTimeoutSeconds?: number
  /** Only the plan: nothing is changed. */
  check?: boolean
  hooks: UpgradeHooks
  onEvent?: (e: UpgradeEvent) => void
  nowMs?: () => number
  pollMs?: number
}

export type UpgradeNodeReturnType = {
  /** `would-change` for --check (docs/automation.md): a restart or upgrade always stops and starts the node */
  outcome: 'done' | 'would-change'
  /** true for --check: nothing was changed */
  check?: true
  journal: UpgradeJournal | null
  plan: UpgradePlan | null
  state: NodeState | null
}

const hashFile = async (path: string) => Buffer.from(sha256(new Uint8Array(await fs.readFile(path)))).toString('hex')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function readJournal(datadir: string): Promise<UpgradeJournal | null> {
  try {
    const j = JSON.parse(readFileSync(join(datadir, UPGRADE_JOURNAL), 'utf8')) as UpgradeJournal
    return j.version === 1 ? j : null
  } catch {
    return null
  }
}

/** The journal of a run that has not finished (killed, or waiting to be resumed), else null. */
export async function readUnfinishedUpgrade(datadir: string): Promise<UpgradeJournal | null> {
  const j = await readJournal(datadir)
  return j && j.outcome === null ? j : null
}

async function saveJournal(j: UpgradeJournal): Promise<void> {
  await writeFileAtomic(join(j.datadir, UPGRADE_JOURNAL), `${JSON.stringify(j, null, 2)}\n`, { mode: 0o600 })
}

/** Copies `from` over `to` atomically (temp file beside `to`, fsync, rename), with `from`'s mode. */
async function copyAtomic(from: string, to: string): Promise<void> {
  const [data, st] = await Promise.all([fs.readFile(from), fs.stat(from)])
  await writeFileAtomic(to, new Uint8Array(data), { mode: st.mode & 0o777 })
}

function endpointOf(state: NodeState): string | null {
  return state.rpc.ipc ?? state.rpc.http
}

async function tn<T>(endpoint: string, method: string, params: unknown[] = []): Promise<T | null> {
  try {
    const a = await jsonRpcRequest<T>({ endpoint, method, params, timeoutMs: 3_000 })
    return a.ok ? a.result : null
  } catch {
    return null
  }
}

/** The flags tnv passes, by name (`--http.port`), for the preflight's help check. */
export function flagNames(nodeFlags: readonly string[]): string[] {
  return [...new Set(nodeFlags.filter((f) => f.startsWith('--')).map((f) => f.split('=')[0] as string))]
}

/** One run's inputs, the defaults applied. */
type UpgradeRun = {
  p: UpgradeNodeParameters
  op: 'upgrade' | 'restart'
  onEvent: (e: UpgradeEvent) => void
  nowMs: () => number
  pollMs: number
  deadlineSeconds: number
}

type UpgradeStep = ReturnType<typeof journaledStep<UpgradeStepName>>

/**
 * @example
 * await upgradeNode({ datadir, newBinary: '/opt/tn/telcoin-network-0.15', blsPublicKey, hooks, onEvent })
 */
export async function upgradeNode(p: UpgradeNodeParameters): Promise<UpgradeNodeReturnType> {
  const run: UpgradeRun = {
    p,
    op: p.newBinary ? 'upgrade' : 'restart',
    onEvent: p.onEvent ?? (() => {}),
    nowMs: p.nowMs ?? Date.now,
    pollMs: p.pollMs ?? 1_000,
    deadlineSeconds: p.deadlineSeconds ?? 300,
  }
  const journal = (await unfinishedJournalToResume(run)) ?? (await beginJournal(run))
  // with --check nothing is written, the journal included
  const step = journaledStep<UpgradeStepName>(
    'upgrade',
    journal,
    async () => {
      if (!p.check) await saveJournal(journal)
    },
    run.onEvent,
  )
  await step('preflight', async () => preflight(journal, p.hooks))
  if (p.check) return planOnly(run, journal)
  if (journal.phase === 'forward') {
    const done = await goForward(run, journal, step)
    if (done) return done
  }
  return rollBack(run, journal)
}

/**
 * The journal of an unfinished run of the same operation (and the same new binary), to resume;
 * null when the last run finished. An unfinished run of another operation is refused.
 */
async function unfinishedJournalToResume({ p, op, onEvent }: UpgradeRun): Promise<UpgradeJournal | null> {
  const j = await readJournal(p.datadir)
  if (!j || j.outcome !== null) return null
  if (j.op !== op || (p.newBinary && j.newBinary !== p.newBinary)) throw new UnfinishedUpgradeError(j)
  onEvent({ event: 'resume', done: j.done, phase: j.phase })
  return j
}

/** A new journal for the node running now: its binary, hashes, version, flags and mode. */
async function beginJournal({ p, op, nowMs }: UpgradeRun): Promise<UpgradeJournal> {
  const { datadir, hooks } = p
  const state = await readNodeState(datadir)
  if (!state || !isNodeProcess(state)) throw new NodeNotRunningForUpgradeError(datadir)
  // under systemd the unit passes the flags again; tnv passes them only to a node it starts itself
  if (hooks.supervisor.kind === 'tnv' && state.args.some((a) => a.includes('<redacted>') || a.includes('***')))
    throw new UpgradeNeedsOwnBinaryError(state.binary, 'its flags hold a JWT secret tnv does not keep')
  const current = hooks.resolveBinary(state.binary)
  if (p.newBinary && current.origin === 'reference')
    throw new UpgradeNeedsOwnBinaryError(state.binary, "it is tnv's own reference node")
  const endpoint = endpointOf(state)
  const oldMode = endpoint ? await tn<string>(endpoint, 'tn_nodeMode') : null
  return {
    version: 1,
    op,
    startedAt: new Date(nowMs()).toISOString(),
    datadir,
    binary: state.binary,
    newBinary: p.newBinary ?? null,
    previous: p.newBinary ? `${state.binary}${PREVIOUS_SUFFIX}` : null,
    oldSha256: await hashFile(state.binary),
    newSha256: p.newBinary ? await hashFile(p.newBinary) : null,
    oldVersion: hooks.version(current),
    newVersion: null,
    nodeFlags: state.args[0] === 'node' ? state.args.slice(1) : [...state.args],
    oldMode,
    supervisor: supervisorRef(hooks.supervisor),
    done: [],
    phase: 'forward',
    outcome: null,
    failure: null,
  }
}

/** Preflight: the new binary runs, says its version, and takes every flag tnv passes. */
async function preflight(journal: UpgradeJournal, hooks: UpgradeHooks): Promise<Record<string, unknown>> {
  const candidate = hooks.resolveBinary(journal.newBinary ?? journal.binary)
  const version = hooks.version(candidate)
  if (version === null) throw new PreflightFailedError(candidate.path, 'it did not print a version for `--version`')
  const help = hooks.help(candidate)
  if (help === null) throw new PreflightFailedError(candidate.path, '`node --help` did not run')
  const missing = flagNames(journal.nodeFlags).filter((f) => !help.includes(f))
  if (missing.length)
    throw new PreflightFailedError(candidate.path, `its \`node --help\` does not list ${missing.join(', ')}`)
  journal.newVersion = version
  return { binary: candidate.path, version, previousVersion: journal.oldVersion, flags: flagNames(journal.nodeFlags) }
}

/** --check: the plan (with the window as it is now), reported and returned; nothing is changed. */
async function planOnly(
  { p, op, nowMs, deadlineSeconds, onEvent }: UpgradeRun,
  journal: UpgradeJournal,
): Promise<UpgradeNodeReturnType> {
  const { datadir, hooks } = p
  const state = await readNodeState(datadir)
  const window = p.now
    ? { go: true as const, reason: '--now: at once, whatever the committee' }
    : state
      ? await readWindow(state, p, nowMs)
      : { go: true as const, reason: 'no node runs' }
  const plan: UpgradePlan = {
    op,
    datadir,
    binary: journal.binary,
    newBinary: journal.newBinary,
    previous: journal.previous,
    oldVersion: journal.oldVersion,
    newVersion: journal.newVersion,
    nodeFlags: journal.nodeFlags,
    oldMode: journal.oldMode,
    supervisor: supervisorRef(hooks.supervisor),
    window,
    deadlineSeconds,
    steps:
      op === 'upgrade'
        ? ['preflight', 'window', 'keep-old', 'stop', 'swap', 'start', 'verify']
        : ['preflight', 'window', 'stop', 'start', 'verify'],
  }
  onEvent({ event: 'plan', plan })
  return { outcome: 'would-change', check: true, journal: null, plan, state: null }
}

/**
 * The forward phase. `done` when the node came up and verified; a failed restart is recorded and
 * thrown; a failed upgrade turns the journal to the rollback phase and gives null.
 */
async function goForward(
  run: UpgradeRun,
  journal: UpgradeJournal,
  step: UpgradeStep,
): Promise<UpgradeNodeReturnType | null> {
  const { p, op } = run
  await stopAndSwap(run, journal, step)
  const { failure, state } = await startAndVerify(run, journal, step)
  if (failure === null) {
    journal.outcome = 'done'
    await saveJournal(journal)
    return { outcome: 'done', journal, plan: null, state: state ?? (await readNodeState(p.datadir)) }
  }
  if (op === 'restart') {
    journal.outcome = 'failed'
    journal.failure = failure
    await saveJournal(journal)
    throw new RestartFailedError(
      p.datadir,
      failure,
      p.hooks.supervisor.kind === 'systemd' ? p.hooks.supervisor.unit : undefined,
    )
  }
  journal.phase = 'rollback'
  journal.failure = failure
  await saveJournal(journal)
  return null
}

/** Steps window, keep-old (upgrade), stop and swap (upgrade): the node is down, `<binary>` the new one. */
async function stopAndSwap(
  { p, op, nowMs, pollMs, onEvent }: UpgradeRun,
  journal: UpgradeJournal,
  step: UpgradeStep,
): Promise<void> {
  const { hooks } = p
  await step('window', async () => {
    if (p.now) return { reason: '--now: at once, whatever the committee (the operator accepts missed rounds)' }
    return waitForWindow(p, nowMs, pollMs, onEvent)
  })
  if (op === 'upgrade')
    await step('keep-old', async () => {
      const prev = journal.previous as string
      // resumed after the swap: the previous copy is already there and the path holds the new binary
      const have = await hashFile(prev).catch(() => null)
      if (have !== journal.oldSha256) await copyAtomic(journal.binary, prev)
      return { previous: prev }
    })
  await step('stop', async () => {
    await hooks.supervisor.stop()
    return hooks.supervisor.kind === 'systemd' ? { unit: hooks.supervisor.unit } : undefined
  })
  if (op === 'upgrade')
    await step('swap', async () => {
      if ((await hashFile(journal.binary)) !== journal.newSha256)
        await copyAtomic(journal.newBinary as string, journal.binary)
      return { binary: journal.binary, sha256: journal.newSha256 }
    })
}

/** Steps start and verify; a failure is reported and given back as its message, not thrown. */
async function startAndVerify(
  { p, nowMs, pollMs, deadlineSeconds, onEvent }: UpgradeRun,
  journal: UpgradeJournal,
  step: UpgradeStep,
): Promise<{ failure: string | null; state: NodeState | null }> {
  const { hooks } = p
  let state: NodeState | null = null
  try {
    await step('start', async () => {
      state = await startIfNeeded(journal, hooks)
      return { pid: state.pid, ...(hooks.supervisor.kind === 'systemd' ? { unit: hooks.supervisor.unit } : {}) }
    })
    await step('verify', async () => verify(journal, p.blsPublicKey, deadlineSeconds, nowMs, pollMs, onEvent))
    return { failure: null, state }
  } catch (err) {
    const failure = err instanceof Error ? err.message : String(err)
    onEvent({
      event: 'step',
      step: journal.done.includes('start') ? 'verify' : 'start',
      status: 'failed',
      detail: { reason: failure },
    })
    return { failure, state }
  }
}

/** Rollback: the new node down, the previous binary back, started and verified; then RolledBackError. */
async function rollBack(
  { p, nowMs, pollMs, deadlineSeconds, onEvent }: UpgradeRun,
  journal: UpgradeJournal,
): Promise<never> {
  const { hooks } = p
  onEvent({ event: 'step', step: 'rollback', status: 'start', detail: { reason: journal.failure } })
  try {
    await hooks.supervisor.stop()
    if ((await hashFile(journal.binary)) !== journal.oldSha256)
      await copyAtomic(journal.previous as string, journal.binary)
    killPoint('upgrade:rollback-restored')
    await startIfNeeded(journal, hooks)
    await verify(journal, p.blsPublicKey, deadlineSeconds, nowMs, pollMs, onEvent)
  } catch (err) {
    journal.outcome = 'failed'
    await saveJournal(journal)
    throw new RollbackFailedError(journal, err instanceof Error ? err.message : String(err))
  }
  journal.outcome = 'rolled-back'
  await saveJournal(journal)
  onEvent({
    event: 'step',
    step: 'rollback',
    status: 'done',
    detail: { binary: journal.binary, version: journal.oldVersion },
  })
  throw new RolledBackError(journal)
}

async function startIfNeeded(j: UpgradeJournal, hooks: UpgradeHooks): Promise<NodeState> {
  const running = await readNodeState(j.datadir)
  if (running && isNodeProcess(running)) return running
  return hooks.supervisor.start(hooks.resolveBinary(j.binary), j.nodeFlags)
}

function supervisorRef(s: NodeSupervisor): SupervisorRef {
  return s.kind === 'systemd' ? { kind: 'systemd', unit: s.unit } : { kind: 'tnv' }
}

/** Until the node's mode is back and its headers advance twice, or the deadline. */
async function verify(
  j: UpgradeJournal,
  key: string | null,
  deadlineSeconds: number,
  nowMs: () => number,
  pollMs: number,
  onEvent: (e: UpgradeEvent) => void,
): Promise<Record<string, unknown>> {
  const until = nowMs() + deadlineSeconds * 1000
  let first: number | null = null
  let advanced = 0
  let last: number | null = null
  let mode: string | null = null
  for (;;) {
    const state = await readNodeState(j.datadir)
    if (!state || !isNodeProcess(state)) throw new Error('the node is not running (it exited)')
    const endpoint = endpointOf(state)
    if (!endpoint) throw new Error('the node has no RPC endpoint tnv can dial')
    mode = await tn<string>(endpoint, 'tn_nodeMode')
    const header = await tn<{ number?: number }>(endpoint, 'tn_latestConsensusHeader')
    const n = typeof header?.number === 'number' ? header.number : null
    if (n !== null) {
      if (first === null) first = n
      else if (last !== null && n > last) advanced++
      last = n
    }
    onEvent({ event: 'verify-progress', mode, header: n, advanced })
    // a committee member must be back in CvvActive; one the committee has moved on from, not CvvInactive
    let modeOk = mode !== null && mode !== 'CvvInactive' && (j.oldMode !== 'CvvActive' || mode === 'CvvActive')
    if (!modeOk && mode === 'Observer' && key) {
      const epoch = await tn<number>(endpoint, 'tn_getCurrentEpoch')
      const seats = epoch === null ? null : await tn<string[]>(endpoint, 'tn_getCommitteeBlsPubkeys', [epoch])
      modeOk = seats !== null && !seats.some((s) => s.toLowerCase() === key.toLowerCase())
    }
    if (modeOk && advanced >= 2) return { mode, fromHeader: first, toHeader: last }
    if (nowMs() > until)
      throw new Error(
        `within ${deadlineSeconds} s the node reported tn_nodeMode ${mode ?? '(none)'}${j.oldMode ? ` (before: ${j.oldMode})` : ''} and its consensus headers advanced ${advanced} time(s)`,
      )
    await sleep(pollMs)
  }
}

async function readWindow(
  state: NodeState,
  p: UpgradeNodeParameters,
  nowMs: () => number,
): Promise<SafeWindowDecision> {
  const endpoint = endpointOf(state)
  if (!endpoint || !p.blsPublicKey)
    return { go: true, reason: 'no validator key or no endpoint: no committee seat to protect' }
  const info = await tn<{ blockHeight: number; epochId: number; epochDuration: number }>(
    endpoint,
    'tn_getCurrentEpochInfo',
  )
  if (!info) {
    const { WindowUnreadableError } = await import('./upgrade-errors.js')
    throw new WindowUnreadableError(endpoint)
  }
  const [now, next, block, latest] = await Promise.all([
    tn<string[]>(endpoint, 'tn_getCommitteeBlsPubkeys', [info.epochId]),
    tn<string[]>(endpoint, 'tn_getCommitteeBlsPubkeys', [info.epochId + 1]),
    tn<{ timestamp: string }>(endpoint, 'eth_getBlockByNumber', [`0x${info.blockHeight.toString(16)}`, false]),
    tn<{ timestamp: string }>(endpoint, 'eth_getBlockByNumber', ['latest', false]),
  ])
  // the chain's clock (the latest block's time), which the epochs follow; the wall clock without one
  const chainNowMs = latest ? Number(BigInt(latest.timestamp)) * 1000 : nowMs()
  const { safeWindow } = await import('./upgrade-window.js')
  return safeWindow({
    key: p.blsPublicKey,
    epoch: info.epochId,
    committees: { [info.epochId]: now ?? [], [info.epochId + 1]: next ?? [] },
    epochStartMs: block ? Number(BigInt(block.timestamp)) * 1000 : chainNowMs,
    epochDurationMs: (p.epochSeconds ?? info.epochDuration) * 1000,
    nowMs: chainNowMs,
    ...(p.marginSeconds !== undefined ? { marginMs: p.marginSeconds * 1000 } : {}),
    ...(p.slackSeconds !== undefined ? { slackMs: p.slackSeconds * 1000 } : {}),
    budgetMs: (p.deadlineSeconds ?? 300) * 1000,
  })
}

async function waitForWindow(
  p: UpgradeNodeParameters,
  nowMs: () => number,
  pollMs: number,
  onEvent: (e: UpgradeEvent) => void,
): Promise<Record<string, unknown>> {
  const started = nowMs()
  let lastReason = ''
  for (;;) {
    const state = await readNodeState(p.datadir)
    // resumed after the stop: nothing runs to read the chain from, and nothing runs to protect
    if (!state || !isNodeProcess(state)) return { reason: 'no node runs (resumed after the stop)' }
    const d = await readWindow(state, p, nowMs)
    if (d.go) return { reason: d.reason }
    const limit = (p.windowTimeoutSeconds ?? 2 * (p.epochSeconds ?? 86_400) + (p.marginSeconds ?? 10) + 60) * 1000
    if (nowMs() - started > limit) throw new WindowTimeoutError(Math.round(limit / 1000), d.reason)
    if (d.reason !== lastReason) {
      onEvent({
        event: 'waiting',
        reason: d.reason,
        waitUntil: new Date(d.waitUntilMs).toISOString(),
        epoch: d.afterBoundaryOfEpoch,
      })
      lastReason = d.reason
    }
    await sleep(pollMs)
  }
}
