/**
 * The host side of a node check: free disk where the data directory lives, whether the p2p UDP
 * ports of node-info.yaml are bound (and by the node's own process, from /proc/<pid>/fd), and the
 * process tnv started (tnv-node.json) and the starts and exits of the run log. Linux /proc is read where it exists; elsewhere the port
 * facts are null ("not checked here"), never guessed.
 */
import { promises as fs } from 'node:fs'
import { basename } from 'node:path'
import { boundUdpPorts } from '../net/bound-udp-ports.js'
import { readRunLog, runLogPath, summarizeRuns } from '../node/run-log.js'
import { isNodeProcess, type NodeState } from '../node/state.js'
import { parseP2pAddress } from '../nodeinfo/multiaddr.js'
import type { NodeInfo } from '../nodeinfo/types.js'
import type { HostFacts } from './types.js'

export type ReadHostParameters = {
  datadir: string
  nodeInfo: NodeInfo | null
  state: NodeState | null
  /** Where /proc is (tests point it elsewhere). */
  procRoot?: string
  nowMs?: number
}

/** Name of tnv's reference node entry: it has no p2p stack, so its UDP ports are not expected bound. */
export const REFERENCE_NODE_ENTRY = 'tnv-node.js'

export async function readHost({
  datadir,
  nodeInfo,
  state,
  procRoot = '/proc',
  nowMs = Date.now(),
}: ReadHostParameters): Promise<HostFacts> {
  const [disk, bound, nodeInodes, runLog] = await Promise.all([
    fs.statfs(datadir).catch(() => null),
    boundUdpPorts(procRoot),
    state ? socketInodesOf(procRoot, state.pid) : Promise.resolve(null),
    readRunLog(datadir),
  ])
  const udpPorts: HostFacts['udpPorts'] = []
  for (const peer of nodeInfo ? [nodeInfo.primary, ...nodeInfo.workers] : []) {
    let address: ReturnType<typeof parseP2pAddress>
    try {
      address = parseP2pAddress(peer.networkAddress, 'network_address')
    } catch {
      continue
    }
    if (udpPorts.some((p) => p.port === address.port)) continue
    const inodes = bound?.get(address.port) ?? null
    udpPorts.push({
      address: peer.networkAddress,
      port: address.port,
      bound: bound === null ? null : inodes !== null,
      byNode: bound === null || nodeInodes === null ? null : (inodes ?? []).some((i) => nodeInodes.has(i)),
    })
  }
  let proc: HostFacts['process'] = null
  if (state) {
    const running = isNodeProcess(state)
    const started = Date.parse(state.startedAt)
    proc = {
      pid: state.pid,
      running,
      startedAt: state.startedAt,
      uptimeSeconds: running && Number.isFinite(started) ? Math.max(0, Math.round((nowMs - started) / 1000)) : null,
      binary: state.binary,
      referenceNode: basename(state.binary) === REFERENCE_NODE_ENTRY,
    }
  }
  return {
    diskFreeBytes: disk ? disk.bavail * disk.bsize : null,
    diskTotalBytes: disk ? disk.blocks * disk.bsize : null,
    udpPorts,
    process: proc,
    restarts: runLog ? { logFile: runLogPath(datadir), ...summarizeRuns(runLog, nowMs) } : null,
  }
}

/** The socket inodes a process holds (`/proc/<pid>/fd/* -> socket:[inode]`); null when unreadable. */
async function socketInodesOf(procRoot: string, pid: number): Promise<Set<string> | null> {
  let fds: string[]
  try {
    fds = await fs.readdir(`${procRoot}/${pid}/fd`)
  } catch {
    return null
  }
  const links = await Promise.all(fds.map((fd) => fs.readlink(`${procRoot}/${pid}/fd/${fd}`).catch(() => '')))
  const inodes = new Set<string>()
  for (const l of links) {
    const m = /^socket:\[(\d+)\]$/.exec(l)
    if (m?.[1]) inodes.add(m[1])
  }
  return inodes
}
