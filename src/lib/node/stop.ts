/**
 * Stops a node that tnv started for a data directory: SIGTERM, wait, SIGKILL as a last resort.
 * Nothing running is not an error (repeating a done action succeeds): `stopped: false`. The stop
 * is written to the run log (./run-log.ts) before the signal, so the exit that follows is a stop
 * asked for, not a crash (also for a foreground supervisor, which then does not restart it).
 */
import { isProcessAlive } from '../os/process-alive.js'
import { observeNodeExits, recordNodeExit, recordStopRequest } from './run-log.js'
import { isNodeProcess, readNodeState, removeNodeState } from './state.js'

export type StopNodeReturnType = { pid: number | null; stopped: boolean; forced: boolean }

export async function stopNode({
  datadir,
  graceMs = 15_000,
}: {
  datadir: string
  graceMs?: number
}): Promise<StopNodeReturnType> {
  const state = await readNodeState(datadir)
  if (!state || !isNodeProcess(state)) {
    await observeNodeExits(datadir, state, 'tnv node stop').catch(() => {})
    await removeNodeState(datadir)
    return { pid: null, stopped: false, forced: false }
  }
  await recordStopRequest(datadir, state.pid, 'tnv node stop').catch(() => {})
  process.kill(state.pid, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (isProcessAlive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  let forced = false
  if (isProcessAlive(state.pid)) {
    process.kill(state.pid, 'SIGKILL')
    forced = true
  }
  // a detached node's exit code is not ours to read: the signal sent stands for it (a foreground
  // supervisor, its parent, may have recorded the real one first)
  await recordNodeExit(datadir, state.pid, {
    code: null,
    signal: forced ? 'SIGKILL' : 'SIGTERM',
    requested: true,
    forced,
  }).catch(() => {})
  await removeNodeState(datadir)
  return { pid: state.pid, stopped: true, forced }
}
