/**
 * Stops a node that tnv started for a data directory: SIGTERM, wait, SIGKILL as a last resort.
 * Nothing running is not an error (repeating a done action succeeds): `stopped: false`.
 */
import { isAlive, isNodeProcess, readNodeState, removeNodeState } from './state.js'

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
    await removeNodeState(datadir)
    return { pid: null, stopped: false, forced: false }
  }
  process.kill(state.pid, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (isAlive(state.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  let forced = false
  if (isAlive(state.pid)) {
    process.kill(state.pid, 'SIGKILL')
    forced = true
  }
  await removeNodeState(datadir)
  return { pid: state.pid, stopped: true, forced }
}
