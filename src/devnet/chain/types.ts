/**
 * The devnet chain: anvil running the REAL registry code (from a node genesis, or a fork of a
 * live chain), the EVM BLS verifier at 0x…b151 where the registry generation calls the node's
 * precompile, the epoch clock that concludes epochs with the node's system calls, and
 * rehearsal-only governance by impersonating the registry's owner. Implemented in ./start.ts
 * (`startDevnetChain`); used by the reference node (src/devnet/node), by tests and benchmarks.
 */
import type { Address, Hex } from 'viem'
import { BLS_PRECOMPILE_ADDRESS } from '../../lib/chain/addresses.js'
import type { RegistryGeneration } from '../../lib/registry/generations/detect.js'
import type { AdvanceEpochResult, EpochPosition } from './epoch-clock.js'
import type { ForkProxyStats } from './fork.js'
import type { ShippedGenesisName } from './genesis.js'
import type { EngineCompactionResult } from './genesis-engine.js'
import type { GovernanceRequest, GovernanceResult } from './governance.js'

export { DEVNET_CHAIN_ID, ISSUANCE_ADDRESS, REGISTRY_ADDRESS } from '../../lib/chain/addresses.js'
export const BLS_VERIFIER_ADDRESS: Address = BLS_PRECOMPILE_ADDRESS

export type DevnetAccount = { address: Address; privateKey: Hex }

/** What a devnet is made from. */
export type DevnetSource =
  /** The embedded default: the next generation's genesis (networks/next) with the dev accounts. */
  | { kind: 'embedded' }
  /** A node genesis: a shipped one (`adiri`, `next`) or a file. */
  | { kind: 'genesis'; genesis: ShippedGenesisName | string }
  /** A fork of a live chain at a block (default: its latest, then pinned). */
  | { kind: 'fork'; url: string; blockNumber?: bigint | undefined }

/** The source as the runtime file and status show it (JSON, no secrets: a fork URL is redacted). */
/** What a devnet runs (defined in the library, which reads the runtime file). */
import type { DevnetSourceInfo } from '../../lib/chain/devnet-runtime-file.js'

export type { DevnetSourceInfo }

export type StartDevnetChainParameters = {
  /** Where the chain is kept (anvil's state, chain.json, the fork cache); a restart resumes it. */
  datadir: string
  /** Default: embedded (or what the directory holds when resuming). */
  source?: DevnetSource | undefined
  /**
   * The rehearsal's chain id; default DEVNET_CHAIN_ID (911329) for a new devnet. `source`: the
   * genesis file's, or the forked chain's (a real network's id makes what is signed on the
   * rehearsal valid there too: the caller warns).
   */
  chainId?: number | 'source' | undefined
  /**
   * Rehearsal setting: epoch length in seconds instead of the registry's `epochDuration`.
   * undefined: the embedded devnet's default (10 s), the registry's for --genesis and --fork-url,
   * or what a resumed devnet had; null: the registry's.
   */
  epochSeconds?: number | null | undefined
  /** Seconds without a block before an idle block is mined; 0 = blocks only for transactions and on demand. */
  blockTime?: number | undefined
  /** anvil's loopback port; 0 or omitted = a free port. */
  port?: number | undefined
  /** Run the epoch clock (conclude epochs when due). Default true. */
  protocolLoop?: boolean | undefined
  /** Called with each failure of the background clock (it retries after a pause). */
  onProtocolError?: ((error: Error) => void) | undefined
  /** Called after each concluded epoch. */
  onEpoch?: ((result: AdvanceEpochResult) => void) | undefined
  /**
   * The blocks the engine keeps when it is compacted (./engine-compaction.ts); it is compacted
   * when it holds twice as many. Default DEFAULT_ENGINE_HISTORY_BLOCKS (5,000), at least 256.
   */
  engineHistoryBlocks?: number | undefined
  /**
   * Called before the engine stops for a compaction: resolves once nothing of the caller's is on
   * its way to the engine (requests wait meanwhile) with the function that lets them go on, called
   * (and awaited, inside the epoch clock's lock) once the new engine is up or the restart failed.
   */
  pauseEngineUsers?: (() => Promise<() => void | Promise<void>>) | undefined
  /** Called after each compaction. */
  onEngineCompacted?: ((result: EngineCompactionResult) => void) | undefined
}

export type DevnetChain = {
  chainId: number
  source: DevnetSourceInfo
  generation: RegistryGeneration
  /** The registry code: its hash and whether it is exactly a shipped genesis's code. */
  registryCode: { codeHash: Hex; match: 'exact' | 'interface'; source: string | null }
  /**
   * anvil's IPC socket, in a directory only this user can enter: the one way to the engine
   * (internal: the reference node fronts it; src/devnet/chain/engine-rpc.ts speaks it).
   */
  engineIpcPath: string
  /** `netns`: nothing but this user's devnet processes reach the engine; `none`: it also listens on a loopback port. */
  engineIsolation: 'netns' | 'none'
  /** Why the engine is not isolated (which port every local user can reach), or null. */
  engineIsolationNotice: string | null
  /** anvil's process id now (for status displays; a compaction starts a new one; stop it with stop()). */
  readonly enginePid: number
  registry: Address
  issuance: Address
  /** The EVM BLS verifier's address when installed (next generation), else null. */
  blsVerifier: Address | null
  /** Funded dev accounts (public devnet keys). Not whitelisted. */
  accounts: DevnetAccount[]
  /** The rehearsal epoch length in seconds, or null when the registry's `epochDuration` rules. */
  epochSeconds: number | null
  blockTime: number
  /** True when an existing devnet in `datadir` was resumed. */
  resumed: boolean
  /** The registry's owner now (what rehearsal governance impersonates). */
  owner(): Promise<Address>
  /** Where the chain stands in its epoch (by time, as the node). */
  position(): Promise<EpochPosition>
  /** Concludes the current epoch now (warping time to its end when needed). */
  advanceEpoch(): Promise<AdvanceEpochResult>
  /** Mines `blocks` blocks. */
  mine(blocks?: number): Promise<void>
  /** REHEARSAL-ONLY governance as the registry's owner. */
  governance(request: GovernanceRequest): Promise<GovernanceResult>
  /** Fork mode: upstream traffic so far; null otherwise. */
  forkStats(): ForkProxyStats | null
  /** Saves the state and stops anvil and the clock. Idempotent. */
  stop(): Promise<void>
  /** Called if the engine dies on its own (exit code, stderr tail). */
  onEngineExit(listener: (info: { code: number | null; signal: string | null; stderrTail: string }) => void): void
}
