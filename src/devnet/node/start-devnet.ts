/**
 * `tnv devnet start`: runs the reference node (bin/tnv-node.js) on a devnet directory and
 * waits until it serves (its runtime file appears with its pid). Foreground: the node's log
 * lines are handed to `onLog`, and the returned `exited` settles when it stops. Detached: the
 * node outlives tnv, its log goes to `<dir>/node.log`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { childEnv } from '../../lib/child-env.js'
import { ensureDir } from '../../lib/fs/atomic.js'
import { referenceNodePath } from '../../lib/node/binary.js'
import { splitJwtSecret } from '../../lib/node/jwt-secret-env.js'
import type { DevnetRuntimeInfo } from '../paths.js'
import { DevnetAlreadyRunningError, DevnetStartFailedError } from './errors.js'
import { findRunningDevnet, NODE_LOG_FILE, readRuntimeInfo } from './runtime-file.js'

export type StartDevnetParameters = {
  dir: string
  /** The node's flags (RPC and others), without --datadir and --chain. */
  nodeFlags: string[]
  /** --genesis: adiri, next or a genesis file. */
  genesis?: string | undefined
  /** --fork-url: handed to the node in its environment (TNV_DEVNET_FORK_URL), never on its command line. */
  forkUrl?: string | undefined
  forkBlock?: bigint | undefined
  /** --chain-id: a number, or `genesis` for the genesis file's / the forked chain's. */
  chainId?: number | 'genesis' | undefined
  epochSeconds?: number | undefined
  blockTime?: number | undefined
  /** --history-blocks: the blocks the engine keeps when it is compacted. */
  historyBlocks?: number | undefined
  detach?: boolean
  onLog?: (line: string) => void
  readyTimeoutMs?: number
}

export type StartedDevnet = {
  info: DevnetRuntimeInfo
  /** The node's full argument list (a JWT secret given in the node flags travels in its environment instead). */
  args: string[]
  logFile: string | null
  /** Foreground only: the node process. */
  child: ChildProcess | null
  /** Foreground only: settles with the node's exit. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null
}

export function devnetNodeArgs(
  p: Pick<
    StartDevnetParameters,
    'dir' | 'nodeFlags' | 'genesis' | 'forkBlock' | 'chainId' | 'epochSeconds' | 'blockTime' | 'historyBlocks'
  >,
): string[] {
  return [
    'node',
    '--datadir',
    p.dir,
    '--chain',
    'dev',
    ...(p.genesis !== undefined ? ['--devnet.genesis', p.genesis] : []),
    ...(p.forkBlock !== undefined ? ['--devnet.fork-block', p.forkBlock.toString()] : []),
    ...(p.chainId !== undefined ? ['--devnet.chain-id', String(p.chainId)] : []),
    ...(p.epochSeconds !== undefined ? ['--devnet.epoch-seconds', String(p.epochSeconds)] : []),
    ...(p.blockTime !== undefined ? ['--devnet.block-time', String(p.blockTime)] : []),
    ...(p.historyBlocks !== undefined ? ['--devnet.history-blocks', String(p.historyBlocks)] : []),
    ...p.nodeFlags,
  ]
}

export { splitJwtSecret }

export async function startDevnet(p: StartDevnetParameters): Promise<StartedDevnet> {
  const { dir, detach = false, onLog = () => {}, readyTimeoutMs = 90_000 } = p
  const running = await findRunningDevnet(dir)
  if (running.info) throw new DevnetAlreadyRunningError(dir, running.info.pid, running.info.rpcUrl)
  const created = !existsSync(dir)
  await ensureDir(dir, 0o700)
  const { flags: nodeFlags, secret: jwtSecret } = splitJwtSecret(p.nodeFlags)
  const args = devnetNodeArgs({ ...p, nodeFlags })
  // the node's own environment carries what must stay off its command line: nothing else of tnv's secrets
  const env = childEnv(process.env)
  if (p.forkUrl !== undefined) env.TNV_DEVNET_FORK_URL = p.forkUrl
  if (jwtSecret !== null) env.TNV_NODE_JWT_SECRET = jwtSecret
  const logFile = detach ? join(dir, NODE_LOG_FILE) : null
  let tail = ''
  let child: ChildProcess
  if (logFile) {
    const fd = openSync(logFile, 'a', 0o600)
    child = spawn(process.execPath, [referenceNodePath(), ...args], {
      detached: true,
      env,
      stdio: ['ignore', fd, fd],
    })
    closeSync(fd)
  } else {
    child = spawn(process.execPath, [referenceNodePath(), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    for (const stream of [child.stdout, child.stderr]) {
      let pending = ''
      stream?.setEncoding('utf8')
      stream?.on('data', (chunk: string) => {
        pending += chunk
        const lines = pending.split('\n')
        pending = lines.pop() ?? ''
        for (const line of lines) {
          tail = `${tail}${line}\n`.slice(-8000)
          onLog(line)
        }
      })
    }
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null
  void exited.then((e) => {
    exit = e
  })
  const logTail = () => {
    if (!logFile) return tail
    try {
      return readFileSync(logFile, 'utf8').slice(-8000)
    } catch {
      return ''
    }
  }

  // a start that fails leaves no new directory behind (its log tail is in the error)
  const failed = async (err: Error): Promise<never> => {
    if (created) await rm(dir, { recursive: true, force: true }).catch(() => {})
    throw err
  }
  const deadline = Date.now() + readyTimeoutMs
  for (;;) {
    if (exit) {
      const { code, signal } = exit as { code: number | null; signal: NodeJS.Signals | null }
      return failed(
        new DevnetStartFailedError(
          `the node exited (${signal ?? `exit code ${code}`}) before it served`,
          logTail(),
          created ? null : logFile,
        ),
      )
    }
    const info = await readRuntimeInfo(dir)
    if (info && info.pid === child.pid) {
      if (detach) child.unref()
      return { info, args, logFile, child: detach ? null : child, exited: detach ? null : exited }
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      await exited
      return failed(
        new DevnetStartFailedError(
          `it did not serve within ${Math.round(readyTimeoutMs / 1000)} s (stopped it)`,
          logTail(),
          created ? null : logFile,
        ),
      )
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}
