/**
 * Starts anvil as a child process and waits until it answers JSON-RPC on its IPC socket, the
 * one way the devnet talks to it (./engine-isolation.ts: with a network namespace nothing else
 * can reach it). The socket lives in `engineDir`, a directory private to this engine (0700),
 * which is also anvil's working and temporary directory.
 *
 * anvil gets an environment of its own (PATH, HOME, TMPDIR, NO_COLOR), never
 * tnv's: no secret tnv was given (keys, passphrases, a JWT secret, a fork URL) reaches it.
 * Options that keep a long-running engine's memory flat are always on (./engine-memory.ts).
 * The child never outlives its parent: on Linux through `setpriv --pdeathsig TERM` (the kernel
 * sends SIGTERM when the parent dies, even by SIGKILL), and everywhere an `exit` handler sends
 * SIGTERM. On SIGTERM anvil writes its state file, so even then the chain is kept.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { resolveAnvilBinary } from './anvil-binary.js'
import type { EngineIsolation, EngineLauncher } from './engine-isolation.js'
import { ENGINE_ALLOCATOR_ENV, ENGINE_MEMORY_ARGS } from './engine-memory.js'
import { engineCallOnce } from './engine-rpc.js'
import { AnvilStartError } from './errors.js'
import { onProcessExit } from './exit-hooks.js'

export type SpawnAnvilParameters = {
  /** A directory private to this engine (mode 0700): its IPC socket, working and temporary directory. */
  engineDir: string
  /** How anvil is started: in a network namespace of its own, or plainly (./engine-isolation.ts). */
  launcher: EngineLauncher
  /** The loopback port, required when the launcher does not isolate (anvil then listens there too). */
  port?: number | undefined
  chainId: number
  /** anvil `--hardfork` (default prague, the node's). */
  hardfork?: string | undefined
  /**
   * anvil `--state`: loaded when it exists, written on SIGTERM and every `stateIntervalSeconds`.
   * anvil refuses it together with `initPath` (a chain made from a genesis is saved by the caller
   * with `anvil_dumpState` and resumed from that file).
   */
  statePath?: string | undefined
  /** anvil `--init`: a geth-style genesis JSON file to start from (accounts, code, storage, chain id). */
  initPath?: string | undefined
  /** anvil `--timestamp`: the genesis block's timestamp (with `initPath`). */
  genesisTimestamp?: number | undefined
  /** Fork mode: the upstream endpoint (an IPC path or URL anvil can reach) and the pinned block. */
  fork?: { url: string; blockNumber: bigint } | undefined
  /**
   * HOME for anvil: its fork RPC cache lives in `$HOME/.foundry/cache/rpc/<chain>/<block>/`, so a
   * devnet directory keeps its own cache (reused on resume, gone with the directory). Default: engineDir.
   */
  home?: string | undefined
  /** The memory options (default ENGINE_MEMORY_ARGS, ./engine-memory.ts); the soak benchmark compares with none. */
  memoryArgs?: readonly string[] | undefined
  /** Interval mining in seconds on top of automine; 0 = automine only. */
  blockTime: number
  stateIntervalSeconds?: number
  readyTimeoutMs?: number
}

export type AnvilExit = { code: number | null; signal: string | null; stderrTail: string }

export type AnvilProcess = {
  pid: number
  /** The IPC socket: the engine's endpoint. */
  ipcPath: string
  /** `netns`: nothing but this process reaches the engine; `none`: it also listens on `httpUrl`. */
  isolation: EngineIsolation
  /** Why the engine is not isolated, or null. */
  isolationNotice: string | null
  /** anvil's loopback TCP endpoint when one is reachable (isolation `none`), else null. */
  httpUrl: string | null
  wsUrl: string | null
  /** The last lines anvil wrote to stderr. */
  stderrTail(): string
  /** Settles when the process has exited (for any reason). */
  exited: Promise<AnvilExit>
  /** SIGTERM, wait for anvil to save its state and exit; SIGKILL after `timeoutMs`. Idempotent. */
  stop(timeoutMs?: number): Promise<AnvilExit>
}

/** The port was taken between choosing it and anvil binding it. */
export class AnvilPortInUseError extends AnvilStartError {
  override readonly code: string = 'AnvilPortInUse'
}

const TAIL_BYTES = 4096
export const ENGINE_SOCKET = 'anvil.ipc'
/** anvil's port inside its own network namespace (nothing else listens there). */
const NAMESPACED_PORT = 8545

function anvilArgs(p: SpawnAnvilParameters, ipcPath: string, port: number): string[] {
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--ipc',
    ipcPath,
    '--hardfork',
    p.hardfork ?? 'prague',
    '--chain-id',
    String(p.chainId),
    '--accounts',
    '0',
    '--quiet',
    ...(p.memoryArgs ?? ENGINE_MEMORY_ARGS),
  ]
  if (p.initPath) args.push('--init', p.initPath)
  if (p.initPath && p.genesisTimestamp !== undefined) args.push('--timestamp', String(p.genesisTimestamp))
  if (p.fork) args.push('--fork-url', p.fork.url, '--fork-block-number', p.fork.blockNumber.toString())
  if (p.statePath) args.push('--state', p.statePath)
  if (p.statePath && p.stateIntervalSeconds) args.push('--state-interval', String(p.stateIntervalSeconds))
  if (p.blockTime > 0) args.push('--block-time', String(p.blockTime), '--mixed-mining')
  return args
}

/**
 * anvil's whole environment: nothing of tnv's (no secret can be handed on by accident), and its
 * allocator told to give freed pages back at once (ENGINE_ALLOCATOR_CONF, ./engine-memory.ts).
 */
export function anvilEnv(engineDir: string, home: string | undefined): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home ?? engineDir,
    TMPDIR: engineDir,
    NO_COLOR: '1',
    ...ENGINE_ALLOCATOR_ENV,
  }
}

async function answers(ipcPath: string): Promise<boolean> {
  try {
    await engineCallOnce(ipcPath, 'eth_chainId')
    return true
  } catch {
    return false
  }
}

/**
 * Spawns anvil and resolves once it answers `eth_chainId` on its IPC socket.
 * @example const anvil = await spawnAnvil({ engineDir, exposure: 'private', chainId: 911329, statePath, blockTime: 0 })
 */
export async function spawnAnvil(params: SpawnAnvilParameters): Promise<AnvilProcess> {
  const { readyTimeoutMs = 15_000, engineDir } = params
  const { launcher } = params
  const namespaced = launcher.isolation === 'netns'
  if (!namespaced && !params.port) throw new TypeError('an engine outside a network namespace needs a free port')
  const port = namespaced ? NAMESPACED_PORT : (params.port as number)
  const ipcPath = join(engineDir, ENGINE_SOCKET)
  // a socket file left by the engine's previous process (a restart) would keep anvil from binding
  await rm(ipcPath, { force: true })
  const { file, args } = launcher.command(resolveAnvilBinary(), anvilArgs(params, ipcPath, port))
  const child: ChildProcess = spawn(file, args, {
    cwd: engineDir,
    env: anvilEnv(engineDir, params.home),
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let tail = ''
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-TAIL_BYTES)
  })
  const forgetExitHook = onProcessExit(() => child.kill('SIGTERM'))
  const exited = new Promise<AnvilExit>((resolve) => {
    child.on('error', (err) => {
      tail += `\n${err.message}`
    })
    child.on('close', (code, signal) => {
      forgetExitHook()
      resolve({ code, signal, stderrTail: tail })
    })
  })
  let exitedEarly: AnvilExit | undefined
  void exited.then((e) => {
    exitedEarly = e
  })

  const deadline = Date.now() + readyTimeoutMs
  while (!(await answers(ipcPath))) {
    if (exitedEarly) {
      const how = exitedEarly.signal ? `signal ${exitedEarly.signal}` : `code ${exitedEarly.code}`
      const Err = /address already in use/i.test(exitedEarly.stderrTail) ? AnvilPortInUseError : AnvilStartError
      throw new Err(`anvil exited (${how}) before it answered on ${ipcPath}.`, exitedEarly.stderrTail)
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      await exited
      throw new AnvilStartError(`anvil did not answer on ${ipcPath} within ${readyTimeoutMs} ms.`, tail)
    }
    await new Promise((r) => setTimeout(r, 10))
  }

  let stopping: Promise<AnvilExit> | undefined
  const httpUrl = namespaced ? null : `http://127.0.0.1:${port}`
  return {
    pid: child.pid ?? -1,
    ipcPath,
    isolation: launcher.isolation,
    isolationNotice: namespaced
      ? null
      : `the engine also listens on 127.0.0.1:${port} without authentication, so any local user can change the chain (${launcher.notice})`,
    httpUrl,
    wsUrl: namespaced ? null : `ws://127.0.0.1:${port}`,
    stderrTail: () => tail,
    exited,
    stop(timeoutMs = 10_000) {
      stopping ??= (async () => {
        if (exitedEarly) return exitedEarly
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
        const result = await exited
        clearTimeout(timer)
        return result
      })()
      return stopping
    },
  }
}
