/** The record a node started by tnv leaves in its data directory: `<datadir>/tnv-node.json`. */
import { promises as fs, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic.js'
import { isProcessAlive } from '../os/process-alive.js'

export const NODE_STATE_FILE = 'tnv-node.json'

export type NodeState = {
  pid: number
  binary: string
  args: string[]
  datadir: string
  logFile: string | null
  /** Endpoints tnv uses to reach the node (worker 0), in preference order. */
  rpc: { http: string | null; ws: string | null; ipc: string | null }
  /** All workers' endpoints as the node logged them (`worker rpc endpoints resolved`), if it did. */
  workerEndpoints: string[]
  startedAt: string
}

export async function readNodeState(datadir: string): Promise<NodeState | null> {
  try {
    return JSON.parse(await fs.readFile(join(datadir, NODE_STATE_FILE), 'utf8')) as NodeState
  } catch {
    return null
  }
}

export async function writeNodeState(state: NodeState): Promise<void> {
  await writeFileAtomic(join(state.datadir, NODE_STATE_FILE), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o644 })
}

export async function removeNodeState(datadir: string): Promise<void> {
  await fs.rm(join(datadir, NODE_STATE_FILE), { force: true })
}

/**
 * Whether the recorded pid is still the node tnv started: alive and, where /proc shows it,
 * running the recorded binary. A pid reused after a reboot is not the node, so it is never signalled.
 */
export function isNodeProcess(state: Pick<NodeState, 'pid' | 'binary'>): boolean {
  if (!isProcessAlive(state.pid)) return false
  let cmdline: string
  try {
    cmdline = readFileSync(`/proc/${state.pid}/cmdline`, 'utf8')
  } catch {
    return true // no /proc here: the pid is all there is
  }
  return cmdline.split('\0').includes(state.binary)
}
