/**
 * `--check` of `tnv node start` and `tnv node stop`: whether the node tnv started for a data
 * directory runs, read from its state file and the process table only. Writes nothing (unlike
 * start and stop, which also tidy a record left by a dead node), so a check never changes state.
 */
import { isNodeProcess, readNodeState } from './state.js'

export type NodeRunCheckReturnType = {
  /** `would-change`: the command would start (stop) the node; `already-done`: it runs (does not). */
  outcome: 'would-change' | 'already-done'
  check: true
  running: boolean
  pid: number | null
}

/**
 * @example const plan = await checkNodeRun({ datadir, want: 'running' })  // node start --check
 */
export async function checkNodeRun({
  datadir,
  want,
}: {
  datadir: string
  /** What the command brings about: start → running, stop → stopped. */
  want: 'running' | 'stopped'
}): Promise<NodeRunCheckReturnType> {
  const state = await readNodeState(datadir)
  const running = state !== null && isNodeProcess(state)
  const done = want === 'running' ? running : !running
  return { outcome: done ? 'already-done' : 'would-change', check: true, running, pid: running ? state.pid : null }
}
