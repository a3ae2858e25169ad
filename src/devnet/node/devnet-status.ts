/**
 * What `tnv devnet status` shows, read inside the running node: where it serves, what it runs
 * (embedded, genesis or fork; registry generation and code hash), the chain's block and epoch
 * (by time, as the node concludes epochs), the committee, the reward pool, rehearsal settings,
 * and the public dev accounts. The devnet has no governance key: governance is rehearsed by
 * impersonating the registry's owner (`tnv devnet governance …`).
 */
import type { Abi, Address, Hex, PublicClient } from 'viem'
import { type RegistryGeneration, registryAbis } from '../../lib/registry/generations/detect.js'
import { REAL_NETWORK_CHAIN_IDS } from '../chain/defaults.js'
import type { AdvanceEpochResult } from '../chain/epoch-clock.js'
import { REHEARSAL_GOVERNANCE_NOTICE } from '../chain/governance.js'
import type { DevnetChain, DevnetSourceInfo } from '../chain/types.js'
import type { DevnetRuntimeInfo } from '../paths.js'
import type { WorkerEndpoints } from './gateway.js'

export const PUBLIC_KEYS_NOTICE =
  'These keys are PUBLIC devnet keys, the same on every tnv devnet: anyone can sign with them. Never send real funds to these addresses or use the keys anywhere else.'

export const REWARDS_NOTICE =
  'Rewards accrue as on the real chain: applyIncentives credits them at each epoch boundary, and claims are paid from the Issuance pool, which holds only what governance puts in (allocateIssuance). With an empty pool a claim reverts with the pool’s InsufficientBalance; rehearse funding it with `tnv devnet governance fund <TEL>`.'

export type DevnetStatus = {
  running: true
  datadir: string
  pid: number
  chainId: number
  /** Set when the rehearsal runs under a real network's chain id. */
  chainIdWarning: string | null
  rpcUrl: string | null
  wsUrl: string | null
  ipcPath: string | null
  workers: WorkerEndpoints[]
  source: DevnetSourceInfo
  generation: RegistryGeneration
  registry: { address: Address; codeHash: Hex; match: 'exact' | 'interface'; source: string | null }
  issuance: Address
  /** The EVM BLS verifier at the node's precompile address (next generation), else null. */
  blsVerifier: Address | null
  governance: { owner: Address; rehearsalOnly: true; notice: string }
  paused: boolean
  blockNumber: number
  blockTimestamp: number
  epoch: {
    id: number
    stakeVersion: number
    startBlock: number
    startedAt: string
    /** Seconds the epoch lasts on this devnet. */
    lengthSeconds: number
    /** `rehearsal`: a rehearsal setting (--epoch-seconds) replaces the registry's `epochDuration`. */
    lengthSource: 'registry' | 'rehearsal'
    registryEpochDuration: number
    nextBoundaryAt: string
    secondsToNextEpoch: number
    /** Seconds the chain's clock runs ahead of the wall clock (advance-epoch warps it). */
    clockAheadSeconds: number
  }
  committee: Address[]
  rewards: { issuancePoolWei: string; undistributedIssuanceWei: string; epochIssuanceWei: string; note: string }
  /** Fork mode: upstream traffic so far. */
  fork: {
    url: string
    blockNumber: string
    upstreamChainId: number
    upstreamRequests: number
    rateLimited: number
    /** Upstream calls by method. */
    upstreamMethods: Record<string, number>
  } | null
  keysNotice: string
  accounts: { address: Address; privateKey: `0x${string}` }[]
  tracing: { active: number; waiting: number; peak: number } | null
  /**
   * How the engine (anvil) is kept from other local users: `netns` (a network namespace of its
   * own, reached over IPC only), or `none` with the notice saying which loopback port is open.
   */
  engine: { isolation: 'netns' | 'none'; notice: string | null }
  startedAt: string
}

export type ReadDevnetStatusParameters = {
  chain: DevnetChain
  runtime: DevnetRuntimeInfo
  endpoints: WorkerEndpoints[]
  datadir: string
  tracing: DevnetStatus['tracing']
}

const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString()

export async function readDevnetStatus({
  chain,
  runtime,
  endpoints,
  datadir,
  tracing,
}: ReadDevnetStatusParameters): Promise<DevnetStatus> {
  const { createPublicClient } = await import('viem')
  const { EngineRpc, engineTransport } = await import('../chain/engine-rpc.js')
  // the engine may be restarting for a compaction: wait for it as the node's requests do
  const rpc = new EngineRpc(chain.engineIpcPath, { reconnectWaitMs: 30_000 })
  const client = createPublicClient({ transport: engineTransport(rpc) })
  try {
    return await statusOf(client, { chain, runtime, endpoints, datadir, tracing })
  } finally {
    rpc.close()
  }
}

async function statusOf(
  client: PublicClient,
  { chain, runtime, endpoints, datadir, tracing }: ReadDevnetStatusParameters,
): Promise<DevnetStatus> {
  const abi = registryAbis[chain.generation] as Abi
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: chain.registry, abi, functionName, args }) as Promise<T>
  const [position, owner, paused, pool, undistributed, info] = await Promise.all([
    chain.position(),
    chain.owner(),
    read<boolean>('paused'),
    client.getBalance({ address: chain.issuance }),
    read<bigint>('undistributedIssuance'),
    read<{ epochIssuance: bigint }>('getCurrentEpochInfo'),
  ])
  const real = REAL_NETWORK_CHAIN_IDS[chain.chainId]
  const stats = chain.forkStats()
  return {
    running: true,
    datadir,
    pid: runtime.pid,
    chainId: runtime.chainId,
    chainIdWarning: real
      ? `This rehearsal runs under the chain id of ${real} (${chain.chainId}): transactions and signatures made on it are valid there too.`
      : null,
    rpcUrl: runtime.rpcUrl,
    wsUrl: runtime.wsUrl,
    ipcPath: runtime.ipcPath,
    workers: endpoints,
    source: chain.source,
    generation: chain.generation,
    registry: { address: chain.registry, ...chain.registryCode },
    issuance: chain.issuance,
    blsVerifier: chain.blsVerifier,
    governance: { owner, rehearsalOnly: true, notice: REHEARSAL_GOVERNANCE_NOTICE },
    paused,
    blockNumber: Number(position.latestBlock),
    blockTimestamp: Number(position.latestTimestamp),
    epoch: {
      id: position.epoch,
      stakeVersion: position.stakeVersion,
      startBlock: Number(position.startBlock),
      startedAt: iso(position.startTimestamp),
      lengthSeconds: position.duration,
      lengthSource: position.durationSource,
      registryEpochDuration: position.registryDuration,
      nextBoundaryAt: iso(position.dueAt),
      secondsToNextEpoch: position.secondsLeft,
      clockAheadSeconds: Number(position.chainTime - BigInt(Math.floor(Date.now() / 1000))),
    },
    committee: position.committee,
    rewards: {
      issuancePoolWei: pool.toString(),
      undistributedIssuanceWei: undistributed.toString(),
      epochIssuanceWei: info.epochIssuance.toString(),
      note: REWARDS_NOTICE,
    },
    fork:
      chain.source.fork && stats
        ? {
            ...chain.source.fork,
            upstreamRequests: stats.requests,
            rateLimited: stats.rateLimited,
            upstreamMethods: stats.methods,
          }
        : null,
    keysNotice: PUBLIC_KEYS_NOTICE,
    accounts: runtime.accounts,
    tracing,
    engine: { isolation: chain.engineIsolation, notice: chain.engineIsolationNotice },
    startedAt: runtime.startedAt,
  }
}

/** The advance-epoch answer as JSON. */
export function advanceEpochJson(r: AdvanceEpochResult) {
  return {
    concluded: r.concluded,
    epoch: r.epoch,
    blockNumber: Number(r.blockNumber),
    timestamp: Number(r.timestamp),
    warpedSeconds: r.warpedSeconds,
    newCommittee: r.newCommittee,
    incentives: r.incentives.map((i) => ({
      validatorAddress: i.validatorAddress,
      consensusHeaderCount: Number(i.consensusHeaderCount),
    })),
  }
}

export type AdvanceEpochJson = ReturnType<typeof advanceEpochJson>
