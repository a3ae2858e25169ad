/**
 * Starts anvil as a child process on a loopback port and waits until it answers JSON-RPC.
 * The child never outlives its parent: on Linux it is started through `setpriv --pdeathsig TERM`
 * (the kernel sends SIGTERM when the parent dies, even by SIGKILL), and everywhere an `exit`
 * handler sends SIGTERM. On SIGTERM anvil writes its state file, so even then the chain is kept.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { childEnv } from '../../lib/child-env.js'
import { resolveAnvilBinary } from './anvil-binary.js'
import { AnvilStartError } from './errors.js'
import { onProcessExit } from './exit-hooks.js'

export type SpawnAnvilParameters = {
  port: number
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
  /** Fork mode: the upstream endpoint and the pinned block (anvil `--fork-url`, `--fork-block-number`). */
  fork?: { url: string; blockNumber: bigint } | undefined
  /**
   * HOME for anvil: its fork RPC cache lives in `$HOME/.foundry/cache/rpc/<chain>/<block>/`, so a
   * devnet directory keeps its own cache (reused on resume, gone with the directory).
   */
  home?: string | undefined
  /** Interval mining in seconds on top of automine; 0 = automine only. */
  blockTime: number
  stateIntervalSeconds?: number
  readyTimeoutMs?: number
}

export type AnvilExit = { code: number | null; signal: string | null; stderrTail: string }

export type AnvilProcess = {
  pid: number
  httpUrl: string
  wsUrl: string
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
const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv']

function anvilArgs(p: SpawnAnvilParameters): string[] {
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(p.port),
    '--hardfork',
    p.hardfork ?? 'prague',
    '--chain-id',
    String(p.chainId),
    '--accounts',
    '0',
    '--quiet',
  ]
  if (p.initPath) args.push('--init', p.initPath)
  if (p.initPath && p.genesisTimestamp !== undefined) args.push('--timestamp', String(p.genesisTimestamp))
  if (p.fork) args.push('--fork-url', p.fork.url, '--fork-block-number', p.fork.blockNumber.toString())
  if (p.statePath) args.push('--state', p.statePath)
  if (p.statePath && p.stateIntervalSeconds) args.push('--state-interval', String(p.stateIntervalSeconds))
  if (p.blockTime > 0) args.push('--block-time', String(p.blockTime), '--mixed-mining')
  return args
}

function launch(binary: string, args: string[], home: string | undefined): ChildProcess {
  const env = childEnv()
  if (home) env.HOME = home
  const options = { env, stdio: ['ignore', 'ignore', 'pipe'] as ('ignore' | 'pipe')[] }
  const setpriv = process.platform === 'linux' ? SETPRIV_PATHS.find((p) => existsSync(p)) : undefined
  if (setpriv) return spawn(setpriv, ['--pdeathsig', 'TERM', '--', binary, ...args], options)
  return spawn(binary, args, options)
}

async function answersRpc(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      signal: AbortSignal.timeout(1000),
    })
    return res.ok
  } catch {
    return false
  }
}

/**
 * Spawns anvil and resolves once it answers `eth_chainId`.
 * @example const anvil = await spawnAnvil({ port, chainId: 911329, statePath, blockTime: 0 })
 */
export async function spawnAnvil(params: SpawnAnvilParameters): Promise<AnvilProcess> {
  const { readyTimeoutMs = 15_000 } = params
  const child = launch(resolveAnvilBinary(), anvilArgs(params), params.home)
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

  const httpUrl = `http://127.0.0.1:${params.port}`
  const deadline = Date.now() + readyTimeoutMs
  while (!(await answersRpc(httpUrl))) {
    if (exitedEarly) {
      const how = exitedEarly.signal ? `signal ${exitedEarly.signal}` : `code ${exitedEarly.code}`
      const Err = /address already in use/i.test(exitedEarly.stderrTail) ? AnvilPortInUseError : AnvilStartError
      throw new Err(`anvil exited (${how}) before it answered on ${httpUrl}.`, exitedEarly.stderrTail)
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      await exited
      throw new AnvilStartError(`anvil did not answer on ${httpUrl} within ${readyTimeoutMs} ms.`, tail)
    }
    await new Promise((r) => setTimeout(r, 10))
  }

  let stopping: Promise<AnvilExit> | undefined
  return {
    pid: child.pid ?? -1,
    httpUrl,
    wsUrl: `ws://127.0.0.1:${params.port}`,
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
