import { defaultDevnetDir } from '../../devnet/paths.js'
import { BadInputError } from '../errors.js'
import { NodeAlreadyRunningError, NodeNotRunningError } from './errors.js'
import { blockNumber, jsonRpcCall } from './json-rpc.js'
import { isNodeProcess, type NodeState, readNodeState, removeNodeState } from './state.js'

export const TESTNET_PUBLIC_RPC = 'https://rpc.adiri.tel'

export type NodeStatus = {
  running: boolean
  pid: number | null
  answering: boolean
  chainId: number | null
  blockNumber: string | null
  rpc: NodeState['rpc'] | null
  workerEndpoints: string[]
  logFile: string | null
}

/** Refuses to start a second node for a datadir; a record left by a dead node is removed. */
export async function assertNotRunning(datadir: string): Promise<void> {
  const state = await readNodeState(datadir)
  if (!state) return
  if (isNodeProcess(state)) throw new NodeAlreadyRunningError(state.pid, datadir)
  await removeNodeState(datadir)
}

function dialable(state: NodeState): string | null {
  return state.rpc.ipc ?? state.rpc.http
}

export async function nodeStatus(datadir: string): Promise<NodeStatus> {
  const state = await readNodeState(datadir)
  if (!state || !isNodeProcess(state)) {
    return {
      running: false,
      pid: null,
      answering: false,
      chainId: null,
      blockNumber: null,
      rpc: null,
      workerEndpoints: [],
      logFile: null,
    }
  }
  const endpoint = dialable(state)
  let chainId: number | null = null
  let block: string | null = null
  if (endpoint) {
    try {
      const [id, bn] = await Promise.all([
        jsonRpcCall<string>({ endpoint, method: 'eth_chainId' }),
        blockNumber(endpoint),
      ])
      chainId = Number(BigInt(id))
      block = bn.toString()
    } catch {
      // running but not answering
    }
  }
  return {
    running: true,
    pid: state.pid,
    answering: block !== null,
    chainId,
    blockNumber: block,
    rpc: state.rpc,
    workerEndpoints: state.workerEndpoints,
    logFile: state.logFile,
  }
}

export type ResolveSyncEndpointsParameters = { datadir: string; rpcUrl?: string; networkUrl?: string; chain: string }

/** Local: --rpc-url, else the node tnv started for datadir. Network: --network-url, else the chain's public endpoint. */
export async function resolveSyncEndpoints({
  datadir,
  rpcUrl,
  networkUrl,
  chain,
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
    const { findRunningDevnet } = await import('../../devnet/node/runtime-file.js')
    const devnet = (await findRunningDevnet(defaultDevnetDir())).info
    if (!devnet?.rpcUrl) {
      throw new BadInputError('No devnet is running, so there is no network endpoint to compare with.', {
        fix: 'Start one with `tnv devnet start --detach`, or pass --network-url.',
      })
    }
    return { localUrl, networkUrl: devnet.rpcUrl, idleChain: true }
  }
  return { localUrl, networkUrl: TESTNET_PUBLIC_RPC, idleChain: false }
}
