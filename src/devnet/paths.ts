/**
 * Where the local devnet lives, and the runtime file a running devnet node writes so other
 * commands (`--chain devnet`, `tnv devnet status|stop`) can find it.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Address, Hex } from 'viem'
import type { RegistryGeneration } from '../lib/registry/generations/detect.js'
import type { DevnetSourceInfo } from './chain/types.js'

/** Default devnet directory: $TNV_DEVNET_DIR, else $XDG_DATA_HOME/tnv/devnet, else ~/.local/share/tnv/devnet. */
export function defaultDevnetDir(env = process.env): string {
  if (env.TNV_DEVNET_DIR) return env.TNV_DEVNET_DIR
  const base =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.length > 0 ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share')
  return join(base, 'tnv', 'devnet')
}

/** `<devnet dir>/devnet.json`, written atomically by the running node, removed on clean stop. */
export const RUNTIME_FILE = 'devnet.json'

export type DevnetRuntimeInfo = {
  pid: number
  /** The rehearsal's chain id (911329 unless the devnet was started with --chain-id). */
  chainId: number
  /** The reference node's HTTP endpoint (worker 0), null when HTTP is off. */
  rpcUrl: string | null
  wsUrl: string | null
  ipcPath: string | null
  registry: Address
  issuance: Address
  /** Funded dev accounts: PUBLIC devnet keys, never to be used anywhere else. */
  accounts: { address: Address; privateKey: Hex }[]
  startedAt: string
  /**
   * The execution engine (anvil) behind the devnet node, for reference nodes that join this
   * devnet (`node --chain devnet`): its IPC socket, in a directory only this user can enter.
   * Internal: never a public endpoint.
   */
  engine: { ipcPath: string }
  /** What the devnet runs: embedded, a genesis file, or a fork (URL redacted). */
  source: DevnetSourceInfo
  /** The registry generation of the code that runs. */
  generation: RegistryGeneration
  /** keccak256 of the registry's runtime code, and whether it is exactly a shipped genesis's. */
  registryCodeHash: Hex
  registryCodeMatch: 'exact' | 'interface'
  /** The EVM BLS verifier at the node's precompile address, when the generation calls it. */
  blsVerifier: Address | null
  /** The registry's owner at start (what REHEARSAL-ONLY governance impersonates). */
  owner: Address
  /** Rehearsal epoch length in seconds, or null when the registry's epochDuration rules. */
  epochSeconds: number | null
  /**
   * @deprecated The devnet has no governance key any more (governance is rehearsed by
   * impersonating the registry's owner: `tnv devnet governance`); never written. Kept optional so
   * readers written for older files still compile.
   */
  governance?: { address: Address; privateKey: Hex }
}
