/**
 * oclif's full CLI (`Config.load` and oclif's `run`), bundled with @oclif/core by esbuild
 * (scripts/build.mjs) into the chunks the ES module commands use: what the launcher
 * (src/entries/launch.ts, dist/launch.cjs) hands over when it does not run a command directly
 * (help, topics, aliases, completion, unknown commands). `tnv --version` is answered before
 * oclif is loaded (src/entries/version.ts). The launcher also guards every run's end (an event
 * loop run dry, a closed stdout), on this path too.
 */
import { isVersionRequest, printVersion } from './version.js'

export async function run(argv: string[] = process.argv.slice(2)): Promise<void> {
  if (isVersionRequest(argv)) return printVersion(argv, 'npm')
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
}
