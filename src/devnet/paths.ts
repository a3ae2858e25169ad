/**
 * Where the local devnet lives, and the runtime file a running devnet node writes so other
 * commands (`--chain devnet`, `tnv devnet status|stop`) can find it.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Address, Hex } from 'viem'

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
  chainId: number
  /** The reference node's HTTP endpoint (worker 0), null when HTTP is off. */
  rpcUrl: string | null
  wsUrl: string | null
  ipcPath: string | null
  registry: Address
  issuance: Address
  governance: { address: Address; privateKey: Hex }
  accounts: { address: Address; privateKey: Hex }[]
  epochBlocks: number
  startedAt: string
  /**
   * The execution engine (anvil) behind the devnet node, for reference nodes that join this
   * devnet (`node --chain devnet`). Internal: never a public endpoint. Absent in files written
   * before it was added.
   */
  engine?: { httpUrl: string; wsUrl: string }
}
