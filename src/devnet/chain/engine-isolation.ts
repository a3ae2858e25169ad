/**
 * How the engine (anvil) is kept out of every other local user's reach.
 *
 * anvil has no authentication and always serves JSON-RPC on a TCP port (its `--host` cannot be
 * empty), so on a loopback port anyone on the machine could call `anvil_setBalance` or
 * impersonate the registry's owner around the reference node. The devnet therefore reaches
 * anvil only over its IPC socket, in a directory of its own (mode 0700), and on Linux starts
 * anvil in a network namespace of its own (`unshare --user --map-current-user --net`, no root
 * needed): its TCP listener then exists only inside that namespace, where no other process
 * lives. Where user namespaces are not available (macOS, or a kernel or container that forbids
 * them) the policy decides: `auto` (default) runs anvil on a loopback port and says so,
 * `required` refuses to start, `none` skips the namespace (tests of the fallback).
 * Policy: `TNV_DEVNET_ENGINE_ISOLATION=auto|required|none`.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { ExitCode, TnvError } from '../../lib/errors.js'
import { InvalidDevnetParameterError } from './errors.js'

export type EngineIsolationPolicy = 'auto' | 'required' | 'none'
/** `netns`: only the devnet reaches the engine (IPC in a 0700 directory); `none`: also a loopback TCP port. */
export type EngineIsolation = 'netns' | 'none'

export const ISOLATION_ENV = 'TNV_DEVNET_ENGINE_ISOLATION'

const UNSHARE_PATHS = ['/usr/bin/unshare', '/bin/unshare']
const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv']

/** The engine cannot be isolated and the policy requires it. */
export class EngineIsolationUnavailableError extends TnvError {
  override readonly code: string = 'EngineIsolationUnavailable'
  constructor(reason: string) {
    super(`The devnet engine cannot be isolated from other local users: ${reason}.`, {
      fix: `Enable unprivileged user namespaces (Linux: sysctl kernel.unprivileged_userns_clone=1, and on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0), or accept an engine on a loopback port with ${ISOLATION_ENV}=auto on a machine no one else uses.`,
      exitCode: ExitCode.NodeConfig,
    })
  }
}

export function isolationPolicy(env: NodeJS.ProcessEnv = process.env): EngineIsolationPolicy {
  const value = env[ISOLATION_ENV]
  if (value === undefined || value === '') return 'auto'
  if (value === 'auto' || value === 'required' || value === 'none') return value
  throw new InvalidDevnetParameterError(`${ISOLATION_ENV}=${value} is not a policy tnv knows.`, {
    fix: `Set ${ISOLATION_ENV} to auto (default), required or none, or unset it.`,
  })
}

export type EngineLauncher = {
  isolation: EngineIsolation
  /** The command and arguments that run anvil (`[…prefix, anvil, …args]`). */
  command(anvil: string, args: string[]): { file: string; args: string[] }
  /** Why the engine is not isolated (isolation `none`), for the log and `tnv devnet status`. */
  notice: string | null
}

let probe: Promise<{ unshare: string; mapFlag: string } | { unshare: null; reason: string }> | null = null

function run(file: string, args: string[]): Promise<{ ok: boolean; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (err, _out, stderr) =>
      resolve({ ok: !err, stderr: String(stderr).trim() }),
    )
  })
}

/** Whether this process may create a user + network namespace (probed once per process). */
function probeNamespaces() {
  probe ??= (async () => {
    if (process.platform !== 'linux') return { unshare: null, reason: `${process.platform} has no network namespaces` }
    const unshare = UNSHARE_PATHS.find((p) => existsSync(p))
    if (!unshare) return { unshare: null, reason: 'util-linux `unshare` is not installed' }
    let last = ''
    // --map-current-user (util-linux 2.38+) keeps anvil's uid; older versions have only --map-root-user
    for (const mapFlag of ['--map-current-user', '--map-root-user']) {
      const r = await run(unshare, ['--user', mapFlag, '--net', '--', 'true'])
      if (r.ok) return { unshare, mapFlag }
      last = r.stderr
    }
    return { unshare: null, reason: `user namespaces are not available here (${last || 'unshare failed'})` }
  })()
  return probe
}

/**
 * How to start anvil under `policy`.
 * @throws EngineIsolationUnavailableError when the policy is `required` and namespaces are unavailable
 */
export async function engineLauncher(policy: EngineIsolationPolicy = isolationPolicy()): Promise<EngineLauncher> {
  const setpriv = process.platform === 'linux' ? SETPRIV_PATHS.find((p) => existsSync(p)) : undefined
  // on Linux the kernel sends SIGTERM to anvil when its parent dies, even by SIGKILL (anvil then saves its state)
  const deathSignal = (anvil: string, args: string[]) =>
    setpriv ? [setpriv, '--pdeathsig', 'TERM', '--', anvil, ...args] : [anvil, ...args]
  const plain = (notice: string): EngineLauncher => ({
    isolation: 'none',
    notice,
    command(anvil, args) {
      const [file, ...rest] = deathSignal(anvil, args) as [string, ...string[]]
      return { file, args: rest }
    },
  })
  if (policy === 'none') return plain(`engine isolation is off (${ISOLATION_ENV}=none)`)
  const found = await probeNamespaces()
  if (found.unshare === null) {
    if (policy === 'required') throw new EngineIsolationUnavailableError(found.reason)
    return plain(found.reason)
  }
  const { unshare, mapFlag } = found
  return {
    isolation: 'netns',
    notice: null,
    command(anvil, args) {
      // the death signal is set inside the namespace, right before anvil runs (same process, same parent)
      return { file: unshare, args: ['--user', mapFlag, '--net', '--', ...deathSignal(anvil, args)] }
    },
  }
}
