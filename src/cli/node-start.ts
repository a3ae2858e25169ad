/**
 * The session side of `tnv node start`: where the JWT secret comes from, the start under the key
 * guard (docs/node.md, "One key, one node") with the stop signals caught, and the foreground
 * supervision with its notes and exit code. The checks and the start itself are the library's
 * (src/lib/node/start-plan.ts, start.ts, supervise.ts).
 */
import { constants } from 'node:os'
import type { NodeBinary } from '../lib/node/binary.js'
import type { StartedNode, StartNodeParameters } from '../lib/node/start.js'
import type { GuardStartReturnType } from '../lib/node/start-guard.js'
import type { PlanNodeStartParameters, PlanNodeStartReturnType } from '../lib/node/start-plan.js'
import { guardKey } from './flags/key-guard.js'

/** Where the JWT secret comes from: --jwt-secret-file, else TNV_JWT_SECRET (hex or @file), else none. */
export function jwtSecretSource(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): PlanNodeStartParameters['jwtSecret'] {
  if (file !== undefined) return { file }
  const value = env.TNV_JWT_SECRET
  return value ? { value } : null
}

type StartFlags = {
  datadir: string
  detach: boolean
  'ready-timeout': number
  'skip-doppelganger-check': boolean
  'network-url'?: string | undefined
  'doppelganger-window': number
}

export type GuardedStart = {
  started: StartedNode
  startParameters: StartNodeParameters
  guard: GuardStartReturnType
  /** Aborted by Ctrl-C / SIGTERM (foreground only). */
  signal: AbortSignal
  /** Stops catching the signals. */
  unhook: () => void
}

/**
 * Starts the node once every refusal has run: not already running, its ports free, the key
 * guarded; the fence is released and the signals unhooked again when the start fails.
 */
export async function startGuardedNode(
  note: (text: string) => void,
  flags: StartFlags,
  binary: NodeBinary,
  nodeFlags: string[],
  start: PlanNodeStartReturnType,
  env: NodeJS.ProcessEnv,
): Promise<GuardedStart> {
  const [{ startNode, assertPortsFree }, { assertNotRunning }, { redactNodeFlags }] = await Promise.all([
    import('../lib/node/start.js'),
    import('../lib/node/status.js'),
    import('../lib/rpc/format-plan.js'),
  ])
  if (start.jwtOnNodeArgv) {
    const { JWT_ON_NODE_ARGV_WARNING } = await import('../lib/rpc/jwt-warnings.js')
    process.stderr.write(`warning: ${JWT_ON_NODE_ARGV_WARNING}\n`)
  }
  await assertNotRunning(flags.datadir)
  // a taken port is named before anything is started (startNode checks again, just before spawning)
  await assertPortsFree(start.plan)
  // one live copy of a validator key: the local fence, then the network (docs/node.md)
  const guard = await guardKey(note, flags, nodeFlags, env)
  note(
    `starting ${binary.path} node --datadir ${flags.datadir} ${redactNodeFlags(start.nodeFlags, start.plan).join(' ')}`,
  )
  const startParameters: StartNodeParameters = {
    binary,
    datadir: flags.datadir,
    nodeFlags: start.nodeFlags,
    plan: start.plan,
    detach: flags.detach,
    readyTimeoutMs: flags['ready-timeout'] * 1000,
    onLog: (line: string) => note(`  node | ${line}`),
    env,
  }
  // foreground: a stop asked for (Ctrl-C, SIGTERM from a service manager) is caught from before the
  // start, so one arriving while the node starts still stops it cleanly once it runs. `on`, not
  // `once`: the listener stays during the signal's dispatch, so signal-exit (proper-lockfile's lock
  // release) sees another listener and does not re-raise the signal to kill tnv; a second signal
  // only aborts again.
  const aborter = new AbortController()
  const stop = () => aborter.abort()
  if (!flags.detach) {
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  }
  const unhook = () => {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
  const started = await startNode(startParameters).catch(async (err: unknown) => {
    unhook()
    await guard.fence?.release().catch(() => {})
    throw err
  })
  return { started, startParameters, guard, signal: aborter.signal, unhook }
}

type SuperviseFlags = {
  datadir: string
  restart: 'on-failure' | 'never'
  'restart-max': number
  'restart-window': number
}

/**
 * The foreground: until Ctrl-C / SIGTERM (the node is stopped, not restarted) or the node ends,
 * restarting it per --restart. Each restart's state is one JSON line on stdout with --json.
 * @returns the exit code tnv ends with when the node ended by itself uncleanly (its own code, or
 *   128 + the signal's number), undefined when it was stopped or ended cleanly
 */
export async function superviseForeground(
  note: (text: string) => void,
  json: boolean,
  flags: SuperviseFlags,
  run: GuardedStart,
): Promise<number | undefined> {
  const [{ superviseNode }, { removeNodeState }] = await Promise.all([
    import('../lib/node/supervise.js'),
    import('../lib/node/state.js'),
  ])
  const policy = { mode: flags.restart, maxRestarts: flags['restart-max'], windowSeconds: flags['restart-window'] }
  const result = await superviseNode({
    first: run.started,
    startParameters: run.startParameters,
    policy,
    signal: run.signal,
    onEvent: (e) => {
      if (e.event === 'exited')
        note(
          `node exited (${e.exit.signal ?? `code ${e.exit.code}`})${e.exit.recorded ? `: ${e.exit.recorded.how}${e.exit.recorded.clean ? '' : ', not clean'}` : ''}`,
        )
      else if (e.event === 'restarting')
        note(
          `restarting the node in ${e.inMs / 1000} s (restart ${e.restartsInWindow} of at most ${policy.maxRestarts} in ${policy.windowSeconds} s)`,
        )
      else if (e.event === 'start-failed') note(`the restart failed: ${e.error}`)
      else if (e.event === 'gave-up')
        note(
          `not restarting again: ${e.restartsInWindow} restarts in the last ${policy.windowSeconds} s. The node keeps crashing; read its output above for the cause.`,
        )
      else if (e.event === 'ready') {
        note(`node running again (pid ${e.state.pid}, restart ${e.restart})`)
        if (json) process.stdout.write(`${JSON.stringify(e.state)}\n`)
      }
    },
  })
  run.unhook()
  await removeNodeState(flags.datadir)
  await run.guard.fence?.release().catch(() => {})
  const exit = result.exit
  if (!result.stopped && exit && exit.recorded?.clean !== true)
    return exit.code !== null && exit.code !== 0
      ? exit.code
      : exit.signal
        ? 128 + (constants.signals[exit.signal] ?? 0)
        : 1
  if (!result.stopped && !exit) return 1
  return undefined
}
