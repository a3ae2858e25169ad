/**
 * Starts the node binary with a checked argument list, streams (or files) its logs, and
 * resolves once its RPC answers. The plan (src/lib/rpc) has already been checked by the caller.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { redactNodeFlags } from '../rpc/format-plan.js'
import type { RpcPlan } from '../rpc/types.js'
import type { NodeBinary } from './binary.js'
import { parseWorkerEndpointsLine, planEndpoints } from './endpoints.js'
import {
  IpcInUseError,
  NodeExitedError,
  NodeNoRpcEndpointError,
  PortInUseError,
  ProbeAnsweredByOtherError,
  RpcTimeoutError,
} from './errors.js'
import { jsonRpcCall } from './json-rpc.js'
import { NODE_JWT_SECRET_ENV, splitJwtSecret } from './jwt-secret-env.js'
import { nodeChildEnv } from './node-env.js'
import { type RunExit, recordNodeExit, recordNodeStart } from './run-log.js'
import { type NodeState, writeNodeState } from './state.js'

export type StartNodeParameters = {
  binary: NodeBinary
  datadir: string
  /** The node's own flags (after `node`); `--datadir` is added when absent. */
  nodeFlags: string[]
  plan: RpcPlan
  /** Detach: the node outlives tnv, logs go to `logFile`. Otherwise logs stream to `onLog`. */
  detach?: boolean
  logFile?: string
  onLog?: (line: string) => void
  readyTimeoutMs?: number
  /** tnv's environment as the session hands it: the node's is built from it (./node-env.ts). */
  env: NodeJS.ProcessEnv
  /**
   * The BLS key passphrase for the node (it reads TN_BLS_PASSPHRASE), when tnv holds it
   * because it created the keys in this run; otherwise TN_BLS_PASSPHRASE is passed on, and
   * only to a real node that needs it (./node-env.ts).
   */
  passphrase?: string
  /** The supervisor's restart number (0: a start by hand), for the run log. */
  restart?: number
}

export type NodeExit = { code: number | null; signal: NodeJS.Signals | null; recorded: RunExit | null }

export type StartedNode = {
  state: NodeState
  /** The child (foreground only). */
  child: ChildProcess | null
  /**
   * Resolves when the node exits, once the exit is in the run log (./run-log.ts) (foreground
   * only; detached nodes resolve never).
   */
  exited: Promise<NodeExit>
  /** Asks the node to stop (SIGTERM; recorded as a stop tnv asked for). Foreground only. */
  stop: (signal?: NodeJS.Signals) => void
}

export function nodeArgv(datadir: string, nodeFlags: string[]): string[] {
  const hasDatadir = nodeFlags.some((f) => f === '--datadir' || f.startsWith('--datadir='))
  return ['node', ...(hasDatadir ? [] : ['--datadir', datadir]), ...nodeFlags]
}

export async function startNode({
  binary,
  datadir,
  nodeFlags,
  plan,
  detach = false,
  logFile = join(datadir, 'logs', 'node.log'),
  onLog = () => {},
  readyTimeoutMs = 60_000,
  passphrase,
  restart = 0,
  env: tnvEnv,
}: StartNodeParameters): Promise<StartedNode> {
  const rpc = planEndpoints(plan)
  // tnv dials the node over IPC first (no JWT there), then HTTP (with a token when needed).
  const probe = rpc.ipc ?? rpc.http
  if (!probe) throw new NodeNoRpcEndpointError()
  // the reference node takes a JWT secret from its own environment, never from its argv
  const jwt = binary.origin === 'reference' ? splitJwtSecret(nodeFlags) : { flags: [...nodeFlags], secret: null }
  const args = nodeArgv(datadir, jwt.flags)
  await assertPortsFree(plan)
  mkdirSync(datadir, { recursive: true })

  let tail = ''
  let workerEndpoints: string[] = []
  const onLine = (line: string) => {
    tail = `${tail}\n${line}`.slice(-4000)
    const eps = parseWorkerEndpointsLine(line)
    if (eps) workerEndpoints = eps
    onLog(line)
  }

  // No secret of tnv's; the BLS passphrase only for the real node that needs it (./node-env.ts).
  const { env } = nodeChildEnv({ binary, datadir, nodeFlags, passphrase, env: tnvEnv })
  if (jwt.secret !== null) env[NODE_JWT_SECRET_ENV] = jwt.secret
  let child: ChildProcess
  let logFd: number | null = null
  if (detach) {
    mkdirSync(dirname(logFile), { recursive: true })
    logFd = openSync(logFile, 'a', 0o644)
    child = spawn(binary.command, [...binary.prefix, ...args], {
      detached: true,
      env,
      stdio: ['ignore', logFd, logFd],
    })
  } else {
    child = spawn(binary.command, [...binary.prefix, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    for (const stream of [child.stdout, child.stderr]) {
      let pending = ''
      stream?.setEncoding('utf8')
      stream?.on('data', (chunk: string) => {
        pending += chunk
        const lines = pending.split('\n')
        pending = lines.pop() ?? ''
        for (const l of lines) onLine(l)
      })
    }
  }
  const exitedRaw = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null
  void exitedRaw.then((info) => {
    exitInfo = info
  })
  // the run log: this start, and (while tnv is its parent) its exit with the code or signal
  let requested = false
  let notReady: string | null = null
  const pid = child.pid
  const startRecorded =
    pid === undefined
      ? Promise.resolve()
      : recordNodeStart(datadir, { pid, binary: binary.path, mode: detach ? 'detached' : 'foreground', restart }).catch(
          () => {},
        )
  const exited: Promise<NodeExit> = exitedRaw.then(async ({ code, signal }) => {
    if (pid === undefined) return { code, signal, recorded: null }
    await startRecorded
    const recorded = await recordNodeExit(datadir, pid, {
      code,
      signal,
      requested,
      ...(notReady !== null ? { how: 'not-ready' as const, reason: notReady } : {}),
    }).catch(() => null)
    return { code, signal, recorded }
  })
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    requested = true
    child.kill(signal)
  }
  const readLogFileTail = () => {
    if (!detach) return
    try {
      const text = readFileSync(logFile, 'utf8').slice(-20_000)
      tail = text.slice(-4000)
      for (const line of text.split('\n')) {
        const eps = parseWorkerEndpointsLine(line)
        if (eps) workerEndpoints = eps
      }
    } catch {
      // not written yet
    }
  }

  const deadline = Date.now() + readyTimeoutMs
  for (;;) {
    if (exitInfo) {
      readLogFileTail()
      if (logFd !== null) closeSync(logFd)
      const { code, signal } = exitInfo
      await exited
      throw new NodeExitedError(code, signal, tail.trim())
    }
    try {
      // a node behind --rpc.jwtsecret needs a fresh token on HTTP (IPC needs none)
      const { createJwt } = await import('../rpc/jwt.js')
      const headers: Record<string, string> =
        probe.startsWith('http') && plan.jwt.source === 'hex' && plan.jwtSecret
          ? { authorization: `Bearer ${await createJwt(plan.jwtSecret)}` }
          : {}
      await jsonRpcCall({ endpoint: probe, method: 'eth_blockNumber', timeoutMs: 1_000, headers })
      // answered while the child had already exited: the answer was not the child's
      if (exitInfo) continue
    } catch {
      if (Date.now() > deadline) {
        notReady = `its RPC did not answer within ${Math.round(readyTimeoutMs / 1000)} s; tnv stopped it`
        child.kill('SIGTERM')
        await settle(exited)
        if (logFd !== null) closeSync(logFd)
        throw new RpcTimeoutError(
          `The node's RPC at ${probe}`,
          Math.round(readyTimeoutMs / 1000),
          `Read the node's log${detach ? ` (${logFile})` : ''} for the cause; the node was stopped.`,
        )
      }
      await new Promise((r) => setTimeout(r, 150))
      continue
    }
    // The answer must come from the node tnv started: a probe over TCP checks who listens on the
    // port (when the system can tell), and the child must not have exited already.
    const other = await probeHolder(probe, child.pid)
    if (other) {
      notReady = `another process (pid ${other.pid}) answered on its RPC port; tnv stopped it`
      child.kill('SIGTERM')
      await settle(exited)
      if (logFd !== null) closeSync(logFd)
      throw new ProbeAnsweredByOtherError(probe, other, child.pid ?? -1)
    }
    break
  }
  // The endpoints line comes before the servers listen; give a detached log a moment to flush.
  readLogFileTail()
  if (logFd !== null) closeSync(logFd)
  if (detach) child.unref()

  const state: NodeState = {
    pid: child.pid ?? -1,
    binary: binary.path,
    args: redactNodeFlags(args, plan),
    datadir,
    logFile: detach ? logFile : null,
    rpc,
    workerEndpoints,
    startedAt: new Date().toISOString(),
  }
  await writeNodeState(state)
  await startRecorded
  return { state, child: detach ? null : child, exited: detach ? new Promise(() => {}) : exited, stop }
}

/** Waits for the stopped node's exit to be recorded, at most a few seconds (a node that ignores SIGTERM is not waited for). */
async function settle(exited: Promise<unknown>, ms = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, ms)))])
  clearTimeout(timer)
}

/** HTTP and WS ports of worker 0 must be free before the node starts (a clash is named, not discovered). */
export async function assertPortsFree(plan: RpcPlan): Promise<void> {
  const { canListen, findPortHolder, findSocketHolder, socketAnswers } = await import('../net/port-holder.js')
  const { http, ws } = plan.transports
  const checks = [
    { t: http, what: 'HTTP RPC', flag: '--http.port' },
    { t: ws, what: 'WebSocket RPC', flag: '--ws.port' },
  ]
  for (const { t, what, flag } of checks) {
    if (!t.enabled || t.port === 0) continue
    if (await canListen(t.address, t.port)) continue
    throw new PortInUseError({ what, address: t.address, port: t.port, flag, holder: await findPortHolder(t.port) })
  }
  // a socket file another live process answers on: the new node would take it over or fail, and
  // tnv's readiness probe (IPC first) would be answered by the other process
  const { ipc } = plan.transports
  if (ipc.enabled && (await socketAnswers(ipc.path)))
    throw new IpcInUseError({ path: ipc.path, holder: await findSocketHolder(ipc.path) })
}

/** The process serving a TCP probe when it is known and is not `childPid`; null otherwise. */
async function probeHolder(
  probe: string,
  childPid: number | undefined,
): Promise<{ pid: number; command: string } | null> {
  if (!/^(https?|wss?):/.test(probe) || childPid === undefined) return null
  const url = new URL(probe)
  const port = Number(url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80))
  const { findPortHolder, isSameOrDescendant } = await import('../net/port-holder.js')
  const holder = await findPortHolder(port)
  return holder && !(await isSameOrDescendant(holder.pid, childPid)) ? holder : null
}
