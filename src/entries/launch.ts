/**
 * How every tnv process starts (bin/tnv.cjs, bin/run.js, the single executable's loader):
 * CommonJS, built into dist/launch.cjs, so no ES module loader runs on the way to a command.
 *
 * - `tnv --version`: answered here (./version.ts), nothing else loaded.
 * - A command: oclif's own id resolution (`normalizeArgv`, @oclif/core's help/util) finds it in
 *   the command index (dist/run/index.json, from the oclif manifest); its own CommonJS bundle
 *   (dist/run/<id>.cjs: the command class, tnv's base command and session, the parts of
 *   @oclif/core a command runs with, and only the library code the command imports) is loaded
 *   and run with the same class, flag definitions, parser, session and error handling as under
 *   oclif's `run` (./direct-command.ts), with a config built from the index (./command-index.ts).
 * - Everything else goes to oclif's full CLI (./cli.ts: `Config.load`, help, topics, completion,
 *   did-you-mean, unknown commands): no arguments, a help flag before `--`, a command that is
 *   an alias or a bundled plugin's, a user theme file, oclif's debug mode.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
// oclif's own id resolution, from the one small module that has it (the package's `help`
// export would bring the whole help renderer): the same function oclif's `run` calls.
import { normalizeArgv } from '../../node_modules/@oclif/core/lib/help/util.js'
import { type CommandIndex, DirectConfig, type IndexedCommand } from './command-index.js'
import { endEarlyWorkIfUnused, startEarlyWork } from './early-work.js'
import { installLightStdio } from './light-stdio.js'
import { isVersionRequest, printVersion, type VersionInfo } from './version.js'

/** A command's bundle (dist/run/<id>.cjs): runs the command like oclif's `run` would. */
export type CommandBundle = {
  runDirect: (id: string, argv: string[], config: DirectConfig) => Promise<void>
}

export type LaunchHost = {
  distribution: VersionInfo['distribution']
  /** The directory holding package.json, dist/ and the data files (an install, or the executable's cache). */
  root: () => string
  index: () => CommandIndex
  /** Loads dist/run/<file>. */
  loadCommand: (file: string, config: DirectConfig, index: CommandIndex) => CommandBundle
  /** oclif's full CLI, for everything the direct path does not run. */
  runFull: (argv: string[]) => Promise<void>
}

/** The command to run directly, or null when oclif's full CLI must answer. */
export function directTarget(
  argv: string[],
  config: DirectConfig,
): { id: string; argv: string[]; file: string } | null {
  if (argv.length === 0) return null
  // oclif's helpAddition / versionAddition: a help flag anywhere before `--`
  const helpFlags = new Set(['--help', ...(config.pjson.oclif.additionalHelpFlags ?? [])])
  for (const arg of argv) {
    if (arg === '--') break
    if (helpFlags.has(arg)) return null
  }
  const versionFlags = ['--version', ...(config.pjson.oclif.additionalVersionFlags ?? [])]
  if (argv.length === 1 && versionFlags.includes(argv[0] as string)) return null
  // what Config.load would have read differently: oclif's debug switch, a user theme
  if (config.scopedEnvVarTrue('DEBUG')) return null
  if (!config.scopedEnvVarTrue('DISABLE_THEME') && existsSync(join(config.configDir, 'theme.json'))) return null
  const [id, ...rest] = normalizeArgv(config as never, [...argv])
  const command = id === undefined ? undefined : config.findCommand(id)
  if (!command?.file) return null
  return { id: id as string, argv: rest, file: bundleFor(command.file, command.lean, rest) }
}

/**
 * The command's lean bundle when no argument names one of the flags whose code it leaves out
 * (`--flag value` or `--flag=value`; any argument is looked at, so at worst the full bundle runs).
 */
function bundleFor(file: string, lean: IndexedCommand['lean'], argv: string[]): string {
  if (!lean) return file
  const named = argv.some((arg) => lean.unlessFlags.some((f) => arg === f || arg.startsWith(`${f}=`)))
  return named ? file : lean.file
}

/**
 * Runs tnv for argv. Every path ends with a documented exit code: should the event loop run
 * dry while a command still waits for something (an input that never comes), Node would end
 * with 13 ("unsettled top-level await"), a code no table lists: say so and end as an internal
 * error.
 */
export async function launch(argv: string[], host: LaunchHost): Promise<void> {
  if (isVersionRequest(argv)) return printVersion(argv, host.distribution)
  let settled = false
  const guard = () => {
    if (settled) return
    process.stderr.write(
      'Error: tnv stopped while still waiting for something that can no longer happen (an internal error). Run again with DEBUG=1 and report it.\n',
    )
    process.exit(1)
  }
  process.once('beforeExit', guard)
  // stdout and stderr written without Node's stream modules until something needs them
  installLightStdio()
  // the reader went away (`tnv --help | head`, `tnv devnet status | head -1`): nothing more can
  // be shown, so stop quietly instead of waiting for a drain that never comes (which the guard
  // would call a bug)
  const closed = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err
    settled = true
    process.exit(process.exitCode ?? 0)
  }
  process.stdout.once('error', closed)
  try {
    const index = host.index()
    const config = new DirectConfig(index, host.root())
    const target = directTarget(argv, config)
    try {
      if (target) {
        await startEarlyWork(target.id, target.argv)
        await host.loadCommand(target.file, config, index).runDirect(target.id, target.argv, config)
      } else await host.runFull(argv)
    } finally {
      // a derivation the command did not take (or that the boot started for another path)
      endEarlyWorkIfUnused()
    }
  } finally {
    settled = true
    process.removeListener('beforeExit', guard)
  }
}
