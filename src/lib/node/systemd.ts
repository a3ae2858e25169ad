/**
 * A node that systemd runs, driven through `systemctl` (./supervisor.ts): which unit it is, and the
 * supervisor `tnv node upgrade` and `restart` use for it.
 *
 * - The unit is `--unit NAME`, or the one systemd placed the node in: the last component of its
 *   cgroup (`/proc/<pid>/cgroup`, what sd_pid_get_unit(3) reads) when it ends in `.service`. Either
 *   way `systemctl show` must confirm it: the unit's MainPID is the node or its parent (the unit's
 *   `tnv node start` in the foreground), and the binary the unit runs is the node's: its
 *   `TN_NODE_BINARY` (tnv-node@.service) or its ExecStart path (a unit that runs the node itself).
 * - The binary is swapped in place: tnv renames the new file over that path (../fs/atomic.ts), so
 *   the unit file, drop-ins and `daemon-reload` stay untouched; the old one is kept beside it.
 * - stop is `systemctl stop` (synchronous: systemd's KillMode and TimeoutStopSec apply); start is
 *   `systemctl reset-failed` (a rollback may follow failed starts that used up StartLimitBurst),
 *   then `systemctl start`, then tnv waits until the unit's node serves. The node's record
 *   (`<datadir>/tnv-node.json`) is the one the unit's `tnv node start` writes.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { isProcessAlive } from '../os/process-alive.js'
import type { NodeBinary } from './binary.js'
import { isNodeProcess, type NodeState, readNodeState } from './state.js'
import type { NodeSupervisor, SupervisorRef } from './supervisor.js'
import { SystemdUnitError } from './upgrade-errors.js'

export type Systemctl = (args: string[]) => { code: number; stdout: string; stderr: string }

/** `systemctl` from the PATH of the environment the session hands over. */
export function systemctlFrom(env: NodeJS.ProcessEnv): Systemctl {
  return (args) => {
    const r = spawnSync('systemctl', args, { env, encoding: 'utf8', timeout: 90_000 })
    if (r.error) return { code: 127, stdout: '', stderr: r.error.message }
    return { code: r.status ?? 1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' }
  }
}

export type UnitProperties = {
  loadState: string
  activeState: string
  subState: string
  mainPid: number
  environment: Record<string, string>
  /** The program of the first ExecStart=. */
  execPath: string | null
}

/** `systemctl show UNIT` for the properties tnv needs; null when systemctl does not answer. */
export function showUnit(systemctl: Systemctl, unit: string): UnitProperties | null {
  const r = systemctl([
    'show',
    unit,
    '-p',
    'LoadState',
    '-p',
    'ActiveState',
    '-p',
    'SubState',
    '-p',
    'MainPID',
    '-p',
    'Environment',
    '-p',
    'ExecStart',
  ])
  if (r.code !== 0) return null
  const props = new Map<string, string>()
  for (const line of r.stdout.split('\n')) {
    const eq = line.indexOf('=')
    if (eq > 0) props.set(line.slice(0, eq), line.slice(eq + 1))
  }
  const environment: Record<string, string> = {}
  for (const pair of (props.get('Environment') ?? '').split(/\s+/)) {
    const eq = pair.indexOf('=')
    if (eq > 0) environment[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return {
    loadState: props.get('LoadState') ?? '',
    activeState: props.get('ActiveState') ?? '',
    subState: props.get('SubState') ?? '',
    mainPid: Number(props.get('MainPID') ?? 0),
    environment,
    execPath: /\bpath=([^ ;]+)/.exec(props.get('ExecStart') ?? '')?.[1] ?? null,
  }
}

/** The service unit a process runs in, from its cgroup (cgroup v2 `0::/…/NAME.service`, or v1's systemd line). */
export function unitOfCgroup(cgroup: string): string | null {
  for (const line of cgroup.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line)
    if (!m || !(m[1] === '' || m[1] === 'name=systemd')) continue
    const last = (m[2] as string).split('/').at(-1) ?? ''
    if (last.endsWith('.service')) return last
  }
  return null
}

function parentPid(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return null
  }
}

/** Whether the unit's main process is the node or its parent. */
function mainOf(props: UnitProperties, nodePid: number): boolean {
  return props.mainPid > 0 && (props.mainPid === nodePid || props.mainPid === parentPid(nodePid))
}

export type DetectSupervisorParameters = {
  /** The node's record; null when none runs (a run resumed after its stop). */
  state: NodeState | null
  /** --unit, as given (`.service` is added when it has no suffix). */
  unit?: string | undefined
  /** The supervisor an unfinished run recorded. */
  recorded?: SupervisorRef | null
  systemctl: Systemctl
}

/**
 * @example const s = detectSupervisor({ state, unit: 'tnv-node@v1', systemctl: systemctlFrom(env) })
 */
export function detectSupervisor({ state, unit, recorded, systemctl }: DetectSupervisorParameters): SupervisorRef {
  const named = unit === undefined ? null : /\.[a-z]+$/.test(unit) ? unit : `${unit}.service`
  if (recorded) {
    if (named && !(recorded.kind === 'systemd' && recorded.unit === named))
      throw new SystemdUnitError(
        named,
        `the unfinished run in this data directory drives ${recorded.kind === 'systemd' ? recorded.unit : "tnv's own node"}`,
        'Run the same command without --unit (or with the unit it recorded) to finish it first.',
      )
    return recorded
  }
  const live = state && isNodeProcess(state) ? state : null
  let candidate = named
  if (!candidate && live) {
    try {
      candidate = unitOfCgroup(readFileSync(`/proc/${live.pid}/cgroup`, 'utf8'))
    } catch {
      candidate = null
    }
  }
  if (!candidate) return { kind: 'tnv' }
  const props = showUnit(systemctl, candidate)
  const confirmed = props !== null && props.loadState === 'loaded' && live !== null && mainOf(props, live.pid)
  if (!confirmed) {
    // found through the cgroup only: a node started by hand inside some other service stays tnv's
    if (!named) return { kind: 'tnv' }
    const why =
      props === null
        ? '`systemctl show` did not answer for it'
        : props.loadState !== 'loaded'
          ? `systemd has it ${props.loadState || 'not loaded'}`
          : live === null
            ? 'no node runs for this data directory'
            : `its main process is ${props.mainPid || 'none'}, and the node of this data directory runs as pid ${live.pid}, which is neither it nor its child`
    throw new SystemdUnitError(
      named,
      why,
      'Name the unit that runs this node (`systemctl status <unit>` shows its main process), and start it first if it is stopped.',
    )
  }
  const runs = props.environment.TN_NODE_BINARY ?? props.execPath
  if (runs !== live.binary)
    throw new SystemdUnitError(
      candidate,
      `it runs the node from ${runs ?? '(no path)'} while the node's binary is ${live.binary}, so swapping ${live.binary} would not change what the unit starts`,
      'Give the unit the node binary as a path of its own (`tnv node unit --node-binary /usr/local/bin/telcoin-network`, then `systemctl daemon-reload` and restart it), then upgrade.',
    )
  return { kind: 'systemd', unit: candidate }
}

export type SystemdSupervisorParameters = {
  unit: string
  datadir: string
  systemctl: Systemctl
  /** How long `start` waits for the unit's node to serve: the unit's `tnv node start` runs its own checks first. */
  startTimeoutMs: number
  pollMs?: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * @example const s = systemdSupervisor({ unit: 'tnv-node@v1.service', datadir, systemctl: systemctlFrom(env), startTimeoutMs: 180_000 })
 */
export function systemdSupervisor({
  unit,
  datadir,
  systemctl,
  startTimeoutMs,
  pollMs = 250,
}: SystemdSupervisorParameters): NodeSupervisor {
  const run = (args: string[]) => {
    const r = systemctl(args)
    if (r.code !== 0)
      throw new Error(`\`systemctl ${args.join(' ')}\` failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`)
  }
  return {
    kind: 'systemd',
    unit,
    async stop() {
      const before = await readNodeState(datadir)
      run(['stop', unit])
      // systemctl stop returns once the unit's processes are gone; the node's exit is checked all the same
      if (before && isNodeProcess(before)) {
        const until = Date.now() + 35_000
        while (isProcessAlive(before.pid) && Date.now() < until) await sleep(pollMs)
        if (isProcessAlive(before.pid))
          throw new Error(`\`systemctl stop ${unit}\` returned and the node (pid ${before.pid}) still runs`)
      }
    },
    async start(_binary: NodeBinary, _nodeFlags: string[]) {
      // the unit's own ExecStart names the binary and the flags; the binary was swapped at that path
      systemctl(['reset-failed', unit])
      run(['start', unit])
      const until = Date.now() + startTimeoutMs
      for (;;) {
        const props = showUnit(systemctl, unit)
        const state = await readNodeState(datadir)
        if (props && state && isNodeProcess(state) && mainOf(props, state.pid)) return state
        if (
          props &&
          (props.activeState === 'failed' || props.activeState === 'inactive' || props.subState === 'auto-restart')
        )
          throw new Error(
            `the unit ${unit} is ${props.activeState}${props.subState ? ` (${props.subState})` : ''} after its start: \`journalctl -u ${unit}\` shows why`,
          )
        if (Date.now() > until)
          throw new Error(
            `within ${Math.round(startTimeoutMs / 1000)} s of \`systemctl start ${unit}\` its node did not serve (\`journalctl -u ${unit}\`)`,
          )
        await sleep(pollMs)
      }
    },
  }
}
