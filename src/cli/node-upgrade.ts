/**
 * The session side of `tnv node upgrade` and `tnv node restart`: the hooks that start, stop and
 * probe node binaries as `tnv node start` does, the flags both commands share, and their one call
 * of the library.
 */
import { spawnSync } from 'node:child_process'
import { Flags, type Interfaces } from '@oclif/core'
import { resolveNodeBinary } from '../lib/node/binary.js'
import { nodeBinaryVersion } from '../lib/node/binary-kind.js'
import type { NodeSupervisor } from '../lib/node/supervisor.js'
import type { UpgradeEvent, UpgradeHooks, UpgradeNodeReturnType } from '../lib/node/upgrade.js'
import { datadirFlag } from './flags/common.js'

export const upgradeFlags = {
  ...datadirFlag,
  check: Flags.boolean({ summary: 'Show the plan (preflight included) and change nothing.' }),
  deadline: Flags.integer({
    default: 300,
    min: 5,
    helpValue: '<seconds>',
    summary: 'How long the new node has to report its mode back and advance its headers before the rollback.',
  }),
  now: Flags.boolean({
    summary: 'Restart at once, whatever the committee (you accept missed rounds of a committee seat).',
  }),
  margin: Flags.integer({
    default: 10,
    min: 0,
    helpValue: '<seconds>',
    summary:
      'For a committee member: restart this long after an epoch boundary (the window lasts --window-slack more).',
  }),
  'window-slack': Flags.integer({
    default: 60,
    min: 1,
    helpValue: '<seconds>',
    summary: 'Length of the window after the margin.',
  }),
  'window-timeout': Flags.integer({
    min: 1,
    helpValue: '<seconds>',
    summary: 'Longest wait for the window (default: two epochs).',
  }),
  'epoch-seconds': Flags.integer({
    min: 1,
    helpValue: '<seconds>',
    summary: "The network's epoch length when it is not the registry's (a devnet started with --epoch-seconds).",
  }),
  'ready-timeout': Flags.integer({
    summary:
      "Seconds to wait for the node's RPC to answer (under systemd, 120 more: the unit's tnv node start watches the network for its key first).",
    default: 60,
    min: 1,
  }),
  unit: Flags.string({
    helpValue: '<name>',
    summary:
      "The systemd unit that runs the node (e.g. tnv-node@v1); by default the unit is found from the node's cgroup and confirmed with systemctl show.",
  }),
}

export function upgradeHooks(
  datadir: string,
  readyTimeoutMs: number,
  note: (t: string) => void,
  env: NodeJS.ProcessEnv,
  command = 'tnv node upgrade',
  skipReason = 'the key ran here, under the fence, until this restart: a copy elsewhere would have shown before',
  supervisor: NodeSupervisor = tnvSupervisor(datadir, readyTimeoutMs, note, env, command, skipReason),
): UpgradeHooks {
  return {
    supervisor,
    resolveBinary: (path) => resolveNodeBinary({ flag: path, env }),
    version: (binary) => nodeBinaryVersion(binary, env),
    help: (binary) => {
      const r = spawnSync(binary.command, [...binary.prefix, 'node', '--help'], {
        encoding: 'utf8',
        timeout: 10_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      return r.error || r.status !== 0 ? null : `${r.stdout ?? ''}\n${r.stderr ?? ''}`
    },
  }
}

/** tnv's own node: stopped as `tnv node stop` does, started detached under the key guard. */
function tnvSupervisor(
  datadir: string,
  readyTimeoutMs: number,
  note: (t: string) => void,
  env: NodeJS.ProcessEnv,
  command: string,
  skipReason: string,
): NodeSupervisor {
  return {
    kind: 'tnv',
    stop: async () => {
      const { stopNode } = await import('../lib/node/stop.js')
      await stopNode({ datadir })
    },
    start: async (binary, nodeFlags) => {
      const [{ nodeBinaryKind }, { resolveRpcPlan }, { startNode }, { guardKey }] = await Promise.all([
        import('../lib/node/binary-kind.js'),
        import('../lib/rpc/resolve.js'),
        import('../lib/node/start.js'),
        import('./flags/key-guard.js'),
      ])
      const kind = nodeBinaryKind(binary, env)
      const plan = resolveRpcPlan(nodeFlags, { behaviour: kind === 'released' ? 'released' : 'spec' })
      const guard = await guardKey(
        note,
        { datadir, 'skip-doppelganger-check': false, 'doppelganger-window': 60 },
        nodeFlags,
        env,
        command,
        skipReason,
      )
      try {
        const started = await startNode({ binary, datadir, nodeFlags, plan, detach: true, readyTimeoutMs, env })
        return started.state
      } catch (err) {
        await guard.fence?.release().catch(() => {})
        throw err
      }
    },
  }
}

/** The flag values `node upgrade` and `node restart` share. */
type UpgradeFlagValues = Interfaces.InferredFlags<typeof upgradeFlags>

/**
 * `node upgrade` (a new binary) and `node restart` (the same one): the library's upgradeNode for
 * the data directory's key, with the commands' flags, each event handed to `emit`.
 */
export async function upgradeWithFlags(
  flags: UpgradeFlagValues,
  newBinary: string | undefined,
  { env, note, emit }: { env: NodeJS.ProcessEnv; note: (line: string) => void; emit: (e: UpgradeEvent) => void },
): Promise<UpgradeNodeReturnType> {
  const [{ upgradeNode, readUnfinishedUpgrade }, { keyIdentities }, systemd, { readNodeState }] = await Promise.all([
    import('../lib/node/upgrade.js'),
    import('../lib/node/fence.js'),
    import('../lib/node/systemd.js'),
    import('../lib/node/state.js'),
  ])
  const key = (await keyIdentities(flags.datadir)).find((i) => i.blsPublicKey)?.blsPublicKey ?? null
  const systemctl = systemd.systemctlFrom(env)
  const unfinished = await readUnfinishedUpgrade(flags.datadir)
  const ref = systemd.detectSupervisor({
    state: await readNodeState(flags.datadir),
    unit: flags.unit,
    recorded: unfinished ? (unfinished.supervisor ?? { kind: 'tnv' }) : null,
    systemctl,
  })
  const readyTimeoutMs = flags['ready-timeout'] * 1000
  const hooks =
    ref.kind === 'systemd'
      ? upgradeHooks(
          flags.datadir,
          readyTimeoutMs,
          note,
          env,
          undefined,
          undefined,
          systemd.systemdSupervisor({
            unit: ref.unit,
            datadir: flags.datadir,
            systemctl,
            startTimeoutMs: readyTimeoutMs + 120_000,
          }),
        )
      : upgradeHooks(flags.datadir, readyTimeoutMs, note, env)
  return upgradeNode({
    datadir: flags.datadir,
    ...(newBinary !== undefined ? { newBinary } : {}),
    blsPublicKey: key,
    deadlineSeconds: flags.deadline,
    now: flags.now,
    marginSeconds: flags.margin,
    slackSeconds: flags['window-slack'],
    ...(flags['window-timeout'] ? { windowTimeoutSeconds: flags['window-timeout'] } : {}),
    ...(flags['epoch-seconds'] ? { epochSeconds: flags['epoch-seconds'] } : {}),
    check: flags.check,
    hooks,
    onEvent: emit,
  })
}

/** One human line for an upgrade event. */
export function describeUpgradeEvent(e: UpgradeEvent): string {
  switch (e.event) {
    case 'step':
      return `${e.step}: ${e.status}${e.detail ? ` ${JSON.stringify(e.detail)}` : ''}`
    case 'resume':
      return `resuming an interrupted run (done: ${e.done.join(', ') || 'none'}; ${e.phase})`
    case 'waiting':
      return `waiting for the safe window: ${e.reason} (until about ${e.waitUntil})`
    case 'verify-progress':
      return `  mode ${e.mode ?? '-'}, header ${e.header ?? '-'}, advanced ${e.advanced}`
    case 'plan':
      return `plan: ${JSON.stringify(e.plan, null, 2)}`
  }
}
