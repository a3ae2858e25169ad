/**
 * oclif's full CLI (`Config.load` and oclif's `run`), bundled with @oclif/core by esbuild
 * (scripts/build.mjs) into the chunks the ES module commands use: what the launcher
 * (src/entries/launch.ts, dist/launch.cjs) hands over when it does not run a command directly
 * (help, topics, aliases, completion, unknown commands). `tnv --version` is answered before
 * oclif is loaded (src/entries/version.ts).
 */
import { isVersionRequest, printVersion } from './version.js'

export async function run(argv: string[] = process.argv.slice(2)): Promise<void> {
  if (isVersionRequest(argv)) return printVersion(argv, 'npm')
  // Every path ends with a documented exit code: should the event loop ever run dry while the
  // command still waits on something (an input that never comes), Node would end with 13
  // ("unsettled top-level await"), a code no table lists. Say so and end as an internal error.
  let settled = false
  const guard = () => {
    if (settled) return
    process.stderr.write(
      'Error: tnv stopped while still waiting for something that can no longer happen (an internal error). Run again with DEBUG=1 and report it.\n',
    )
    process.exit(1)
  }
  process.once('beforeExit', guard)
  // the reader went away (`tnv --help | head`): nothing more can be shown, so stop quietly
  // instead of waiting for a drain that never comes (which the guard would call a bug)
  const closed = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err
    settled = true
    process.exit(process.exitCode ?? 0)
  }
  process.stdout.once('error', closed)
  try {
    // esbuild's chunk for a lazily imported CommonJS module exports it as `default` only
    const mod = await import('@oclif/core')
    const { Config, flush, handle } = (typeof mod.run === 'function' ? mod : mod.default) as typeof mod
    let config: InstanceType<typeof Config> | undefined
    try {
      config = await Config.load(import.meta.url)
      // oclif's run, with tnv's help (one column width per page; src/cli/help.ts)
      const { runCli } = await import('../cli/help.js')
      await runCli(argv, config)
      await flush()
    } catch (err) {
      // a mistyped command: tnv's paragraph with the closest command, never oclif's bare line
      const { reportCommandNotFound } = await import('../cli/did-you-mean.js')
      if (!(config && reportCommandNotFound(err, config, argv))) await handle(err as Error)
    }
  } finally {
    settled = true
    process.removeListener('beforeExit', guard)
  }
}
