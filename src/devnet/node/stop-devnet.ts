/** `tnv devnet stop`: SIGTERM to the devnet node and wait until it has saved the chain and exited. */
import { DevnetStopTimeoutError } from './errors.js'
import { findRunningDevnet, isProcessAlive, removeRuntimeInfo } from './runtime-file.js'

export type StopDevnetResult = {
  /** A node was running and is now stopped. */
  stopped: boolean
  pid: number | null
  /** A runtime file left by a node that had died was removed. */
  staleRemoved: boolean
}

export async function stopDevnet(
  dir: string,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<StopDevnetResult> {
  const running = await findRunningDevnet(dir)
  if (!running.info) return { stopped: false, pid: null, staleRemoved: running.staleRemoved }
  const { pid } = running.info
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    // exited in between
  }
  const deadline = Date.now() + timeoutMs
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) throw new DevnetStopTimeoutError(pid, Math.round(timeoutMs / 1000))
    await new Promise((r) => setTimeout(r, 100))
  }
  await removeRuntimeInfo(dir, pid)
  return { stopped: true, pid, staleRemoved: false }
}
