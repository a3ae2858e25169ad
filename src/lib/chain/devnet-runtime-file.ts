/**
 * Discovery of the local devnet: where it lives and the runtime file `<devnet dir>/devnet.json`
 * a running devnet node writes (atomically, once it serves; removed on a clean stop). This is
 * the ONE reader of that file: `--chain devnet`, `tnv node sync`, the devnet's own commands and
 * the devnet node all use it, so every reader applies the same pid-reuse check. The library
 * owns it because the library must not import src/devnet (the devnet uses the library).
 */
import { promises as fs, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Address, Hex } from 'viem'
import { writeFileAtomic } from '../fs/atomic.js'
import { isProcessAlive } from '../os/process-alive.js'
import type { RegistryGeneration } from '../registry/generations/detect.js'

export { defaultDevnetDir } from './devnet-dir.js'

/** `<devnet dir>/devnet.json`, written atomically by the running node, removed on clean stop. */
export const RUNTIME_FILE = 'devnet.json'

/** What a devnet runs: the embedded genesis, a genesis file, or a fork (URL without credentials). */
export type DevnetSourceInfo = {
  kind: 'embedded' | 'genesis' | 'fork'
  genesis: {
    /** `adiri` / `next`, or null for a file. */
    name: RegistryGeneration | null
    path: string
    /** The chain id the genesis file says. */
    chainId: number
    /** sha256 of the file. */
    sha256: string
  } | null
  fork: {
    /** The upstream URL without path, query or credentials. */
    url: string
    blockNumber: string
    upstreamChainId: number
  } | null
}

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
   * devnet (`node --chain devnet`): its IPC socket, in a directory only this user can enter (the
   * engine listens on no port another process reaches). Internal: never a public endpoint.
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

export { isProcessAlive }

export function runtimeFilePath(dir: string): string {
  return join(dir, RUNTIME_FILE)
}

/**
 * True unless the pid now runs something other than the reference node (a pid reused after a
 * reboot or a crash). Where /proc is missing, a live pid is all there is to go on.
 */
export function isReferenceNodeProcess(pid: number): boolean {
  if (!isProcessAlive(pid)) return false
  let cmdline: string
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  } catch {
    return true
  }
  return cmdline.split('\0').some((arg) => arg.endsWith('tnv-node.js') || arg.endsWith(join('entries', 'node.js')))
}

/** The runtime file as written, or null when absent or unreadable (not JSON, no numeric pid). */
export async function readRuntimeInfo(dir: string): Promise<DevnetRuntimeInfo | null> {
  try {
    const info = JSON.parse(await fs.readFile(runtimeFilePath(dir), 'utf8')) as DevnetRuntimeInfo
    return typeof info?.pid === 'number' ? info : null
  } catch {
    return null
  }
}

export type RunningDevnet =
  | { info: DevnetRuntimeInfo }
  /** Why there is none: no file, an unreadable one, or a stale one (removed). */
  | { info: null; staleRemoved: boolean; reason: 'absent' | 'unreadable' | 'stale' }

/**
 * The devnet running for `dir`, if any. A stale runtime file (its pid is dead, or now runs
 * something other than the reference node) is removed.
 * @example const { info } = await findRunningDevnet(defaultDevnetDir())
 */
export async function findRunningDevnet(dir: string): Promise<RunningDevnet> {
  let text: string
  try {
    text = await fs.readFile(runtimeFilePath(dir), 'utf8')
  } catch {
    return { info: null, staleRemoved: false, reason: 'absent' }
  }
  let info: DevnetRuntimeInfo | null = null
  try {
    const parsed = JSON.parse(text) as DevnetRuntimeInfo
    if (typeof parsed?.pid === 'number' && typeof parsed.chainId === 'number') info = parsed
  } catch {
    // reported as unreadable below
  }
  if (!info) return { info: null, staleRemoved: false, reason: 'unreadable' }
  if (isReferenceNodeProcess(info.pid)) return { info }
  await fs.rm(runtimeFilePath(dir), { force: true })
  return { info: null, staleRemoved: true, reason: 'stale' }
}

export async function writeRuntimeInfo(dir: string, info: DevnetRuntimeInfo): Promise<void> {
  // holds the (public) devnet keys: owner-only anyway
  await writeFileAtomic(runtimeFilePath(dir), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 })
}

/** Removes the runtime file if it is this process's (never another node's). */
export async function removeRuntimeInfo(dir: string, pid = process.pid): Promise<void> {
  const info = await readRuntimeInfo(dir)
  if (info && info.pid !== pid) return
  await fs.rm(runtimeFilePath(dir), { force: true })
}
