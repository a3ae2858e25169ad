import { findRunningDevnet } from '../chain/devnet-runtime-file.js'
import { BadInputError } from '../errors.js'
import { NodeAlreadyRunningError, NodeNotRunningError } from './errors.js'
import { commitAgeSeconds, readNodeProgress } from './health.js'
import { jsonRpcCall } from './json-rpc.js'
import { nodeNetworkPreset } from './networks.js'
import { observeNodeExits } from './run-log.js'
import { isNodeProcess, type NodeState, readNodeState, removeNodeState } from './state.js'

export type NodeStatus = {
  running: boolean
  pid: number | null
  answering: boolean
  chainId: number | null
  blockNumber: string | null
  /** `tn_nodeMode` (CvvActive, CvvInactive = catching up, Observer), or null when the endpoint does not serve it. */
  nodeMode: string | null
  /** The latest consensus header (tn_latestConsensusHeader, else tn_latestHeader), or null when not served. */
  consensus: {
    method: string
    number: string
    commitTimestamp: number | null
    /** Seconds since that commit; more than 60 is stale. */
    ageSeconds: number | null
  } | null
  /** What the progress figures come from: the tn methods, or eth_blockNumber alone. */
  judgedBy: 'tn_latestConsensusHeader' | 'tn_latestHeader' | 'eth_blockNumber' | null
  /** tn methods that answered something other than their documented shape (set aside). */
  unusable: string[]
  rpc: NodeState['rpc'] | null
  workerEndpoints: string[]
  logFile: string | null
}

/** Refuses to start a second node for a datadir; a record left by a dead node is removed. */
export async function assertNotRunning(datadir: string): Promise<void> {
  const state = await readNodeState(datadir)
  if (state && isNodeProcess(state)) throw new NodeAlreadyRunningError(state.pid, datadir)
  // a node that ended since tnv last looked: its exit goes into the run log before the new start
  await observeNodeExits(datadir, state, 'tnv node start').catch(() => {})
  if (state) await removeNodeState(datadir)
}

function dialable(state: NodeState): string | null {
  return state.rpc.ipc ?? state.rpc.http
}

export async function nodeStatus(datadir: string): Promise<NodeStatus> {
  const state = await readNodeState(datadir)
  if (!state || !isNodeProcess(state)) {
    await observeNodeExits(datadir, state, 'tnv node status').catch(() => {})
    return {
      running: false,
      pid: null,
      answering: false,
      chainId: null,
      blockNumber: null,
      nodeMode: null,
      consensus: null,
      judgedBy: null,
      unusable: [],
      rpc: null,
      workerEndpoints: [],
      logFile: null,
    }
  }
  const endpoint = dialable(state)
  let chainId: number | null = null
  let progress: Awaited<ReturnType<typeof readNodeProgress>> | null = null
  if (endpoint) {
    try {
      const [id, p] = await Promise.all([
        jsonRpcCall<string>({ endpoint, method: 'eth_chainId' }),
        readNodeProgress(endpoint),
      ])
      chainId = Number(BigInt(id))
      progress = p
    } catch {
      // running but not answering
    }
  }
  const consensus = progress?.consensus ?? null
  return {
    running: true,
    pid: state.pid,
    answering: progress !== null,
    chainId,
    blockNumber: progress?.blockNumber?.toString() ?? null,
    nodeMode: progress?.nodeMode ?? null,
    consensus: consensus
      ? {
          method: consensus.method,
          number: consensus.number.toString(),
          commitTimestamp: consensus.commitTimestamp,
          ageSeconds: commitAgeSeconds(consensus),
        }
      : null,
    judgedBy: progress === null ? null : (consensus?.method ?? 'eth_blockNumber'),
    unusable: progress?.unusable ?? [],
    rpc: state.rpc,
    workerEndpoints: state.workerEndpoints,
    logFile: state.logFile,
  }
}

export type ResolveSyncEndpointsParameters = {
  datadir: string
  rpcUrl?: string
  networkUrl?: string
  chain: string
  /** The local devnet's directory (for `--chain devnet`), as the session resolves it. */
  devnetDir: string
}

/** Local: --rpc-url, else the node tnv started for datadir. Network: --network-url, else the chain's public endpoint. */
export async function resolveSyncEndpoints({
  datadir,
  rpcUrl,
  networkUrl,
  chain,
  devnetDir,
}: ResolveSyncEndpointsParameters): Promise<{
  localUrl: string
  networkUrl: string
  idleChain: boolean
}> {
  let localUrl = rpcUrl
  if (!localUrl) {
    const state = await readNodeState(datadir)
    if (!state || !isNodeProcess(state)) throw new NodeNotRunningError(datadir)
    const ep = dialable(state)
    if (!ep) throw new NodeNotRunningError(datadir)
    localUrl = ep
  }
  if (networkUrl) return { localUrl, networkUrl, idleChain: false }
  if (chain === 'devnet') {
    const devnet = (await findRunningDevnet(devnetDir)).info
    if (!devnet?.rpcUrl) {
      throw new BadInputError('No devnet is running, so there is no network endpoint to compare with.', {
        fix: 'Start one with `tnv devnet start --detach`, or pass --network-url.',
      })
    }
    return { localUrl, networkUrl: devnet.rpcUrl, idleChain: true }
  }
  const preset = nodeNetworkPreset(chain)
  if (!preset?.publicRpc)
    throw new BadInputError(
      `No public endpoint is published for ${preset ? preset.name : chain} (${preset ? preset.placeholders[0] : 'unknown network'}), so there is nothing to compare the node with.`,
      { fix: 'Pass --network-url <a public endpoint of the network you trust>.' },
    )
  return { localUrl, networkUrl: preset.publicRpc, idleChain: false }
}
