/**
 * What `tnv devnet status` shows, read inside the running node: where it serves, the chain's
 * height and epoch, the committee, and the public devnet keys.
 */
import type { Address } from 'viem'
import { sharedRegistryAbi as registryAbi } from '../../lib/registry/generations/shared-abi.js'
import type { DevnetChain } from '../chain/types.js'
import type { DevnetRuntimeInfo } from '../paths.js'
import type { WorkerEndpoints } from './gateway.js'

export const PUBLIC_KEYS_NOTICE =
  'These keys are PUBLIC devnet keys, the same on every tnv devnet: anyone can sign with them. Never send real funds to these addresses or use the keys anywhere else.'

export type DevnetStatus = {
  running: true
  datadir: string
  pid: number
  chainId: number
  rpcUrl: string | null
  wsUrl: string | null
  ipcPath: string | null
  workers: WorkerEndpoints[]
  blockNumber: number
  epoch: number
  /** First block of the current epoch. */
  epochStartBlock: number
  /** Blocks per epoch in the current epoch. */
  epochBlocks: number
  /** First block of the next epoch. */
  nextEpochBlock: number
  blocksToNextEpoch: number
  committee: Address[]
  registry: Address
  issuance: Address
  genesisValidators: Address[]
  keysNotice: string
  governance: { address: Address; privateKey: `0x${string}` }
  accounts: { address: Address; privateKey: `0x${string}` }[]
  tracing: { active: number; waiting: number; peak: number } | null
  startedAt: string
}

export type ReadDevnetStatusParameters = {
  chain: DevnetChain
  runtime: DevnetRuntimeInfo
  endpoints: WorkerEndpoints[]
  datadir: string
  tracing: DevnetStatus['tracing']
}

export async function readDevnetStatus({
  chain,
  runtime,
  endpoints,
  datadir,
  tracing,
}: ReadDevnetStatusParameters): Promise<DevnetStatus> {
  const { createPublicClient, http } = await import('viem')
  const client = createPublicClient({ transport: http(chain.engineHttpUrl, { retryCount: 0 }) })
  const [blockNumber, info] = await Promise.all([
    client.getBlockNumber({ cacheTime: 0 }),
    client.readContract({ address: chain.registry, abi: registryAbi, functionName: 'getCurrentEpochInfo' }),
  ])
  const start = Number(info.blockHeight)
  const next = start + info.epochDuration
  return {
    running: true,
    datadir,
    pid: runtime.pid,
    chainId: runtime.chainId,
    rpcUrl: runtime.rpcUrl,
    wsUrl: runtime.wsUrl,
    ipcPath: runtime.ipcPath,
    workers: endpoints,
    blockNumber: Number(blockNumber),
    epoch: info.epochId,
    epochStartBlock: start,
    epochBlocks: info.epochDuration,
    nextEpochBlock: next,
    blocksToNextEpoch: Math.max(0, next - Number(blockNumber)),
    committee: [...info.committee],
    registry: runtime.registry,
    issuance: runtime.issuance,
    genesisValidators: chain.genesisValidators,
    keysNotice: PUBLIC_KEYS_NOTICE,
    governance: runtime.governance,
    accounts: runtime.accounts,
    tracing,
    startedAt: runtime.startedAt,
  }
}
