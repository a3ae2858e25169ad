/**
 * A foreground `tnv node start` that keeps the node running: with `--restart on-failure`, a node
 * that ends uncleanly (a non-zero code or a signal such as SIGKILL; ./run-log.ts says what is
 * clean) is started again after a backoff (1 s, doubling up to 60 s with each restart in the
 * window), at most `maxRestarts` times in `windowSeconds`; past that tnv gives up (a node that
 * keeps crashing needs its cause fixed, not more restarts) and ends with the node's exit. Every
 * start and exit is in the run log. A stop asked for (the abort signal: Ctrl-C or SIGTERM to tnv,
 * or `tnv node stop`) is never restarted.
 */
import type { RunExit } from './run-log.js'
import { type NodeExit, type StartedNode, type StartNodeParameters, startNode } from './start.js'
import type { NodeState } from './state.js'

export type RestartPolicy = {
  mode: 'on-failure' | 'never'
  /** Restarts allowed in the window before tnv gives up. */
  maxRestarts: number
  windowSeconds: number
  /** First backoff; doubles per restart in the window, up to maxBackoffMs. */
  backoffMs?: number
  maxBackoffMs?: number
}

export type SuperviseEvent =
  | { event: 'ready'; restart: number; state: NodeState }
  | { event: 'exited'; restart: number; exit: NodeExit }
  | { event: 'restarting'; restart: number; inMs: number; restartsInWindow: number }
  | { event: 'start-failed'; restart: number; error: string }
  | { event: 'gave-up'; restartsInWindow: number }

export type SuperviseReturnType = {
  /** The last exit of the node (null when the last start itself failed). */
  exit: NodeExit | null
  restarts: number
  gaveUp: boolean
  /** The exit was a stop asked for (tnv was told to stop, or tnv node stop). */
  stopped: boolean
}

export type SuperviseParameters = {
  /** The first start, done by the caller (its errors are the command's). */
  first: StartedNode
  /** Starts the node again (the same parameters as the first start, with `restart` set). */
  start?: (restart: number) => Promise<StartedNode>
  startParameters: StartNodeParameters
  policy: RestartPolicy
  /** Aborted when tnv is asked to stop: the node is stopped and not restarted. */
  signal: AbortSignal
  onEvent?: (e: SuperviseEvent) => void
  nowMs?: () => number
}

export async function superviseNode({
  first,
  start,
  startParameters,
  policy,
  signal,
  onEvent = () => {},
  nowMs = Date.now,
}: SuperviseParameters): Promise<SuperviseReturnType> {
  const startAgain = start ?? ((restart: number) => startNode({ ...startParameters, restart }))
  const restartsAt: number[] = []
  let current: StartedNode | null = first
  let lastExit: NodeExit | null = null
  let restart = 0
  for (;;) {
    if (current) {
      const running: StartedNode = current
      const onAbort = () => running.stop('SIGTERM')
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
      lastExit = await running.exited
      signal.removeEventListener('abort', onAbort)
      onEvent({ event: 'exited', restart, exit: lastExit })
      if (signal.aborted || isStop(lastExit.recorded))
        return { exit: lastExit, restarts: restart, gaveUp: false, stopped: true }
      if (policy.mode === 'never' || isClean(lastExit))
        return { exit: lastExit, restarts: restart, gaveUp: false, stopped: false }
    } else if (signal.aborted) return { exit: lastExit, restarts: restart, gaveUp: false, stopped: true }

    const now = nowMs()
    while (restartsAt.length && (restartsAt[0] as number) <= now - policy.windowSeconds * 1000) restartsAt.shift()
    if (restartsAt.length >= policy.maxRestarts) {
      onEvent({ event: 'gave-up', restartsInWindow: restartsAt.length })
      return { exit: lastExit, restarts: restart, gaveUp: true, stopped: false }
    }
    const inMs = Math.min(
      policy.maxBackoffMs ?? 60_000,
      (policy.backoffMs ?? 1_000) * 2 ** Math.min(restartsAt.length, 16),
    )
    restart++
    restartsAt.push(now)
    onEvent({ event: 'restarting', restart, inMs, restartsInWindow: restartsAt.length })
    if (await sleepUnlessAborted(inMs, signal))
      return { exit: lastExit, restarts: restart - 1, gaveUp: false, stopped: true }
    try {
      current = await startAgain(restart)
      onEvent({ event: 'ready', restart, state: current.state })
    } catch (err) {
      // a start that fails (the node exits before its RPC answers, a port still held) counts as a restart
      current = null
      onEvent({ event: 'start-failed', restart, error: err instanceof Error ? err.message : String(err) })
    }
  }
}

function isStop(recorded: RunExit | null): boolean {
  return recorded?.how === 'stopped'
}

function isClean(exit: NodeExit): boolean {
  return exit.recorded ? exit.recorded.clean : exit.code === 0 && exit.signal === null
}

/** True when aborted during the wait. */
function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(false)
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      resolve(true)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
