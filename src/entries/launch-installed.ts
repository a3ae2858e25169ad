/**
 * dist/launch.cjs, what the installed `tnv` (bin/tnv.cjs) and bin/run.js start: a small boot
 * that answers `--version` itself and otherwise runs the launcher (./launch.ts) from its own run
 * module, dist/run/launcher.cjs, with the files of an npm install or a checkout.
 *
 * The launcher is a run module, not part of this file, so that it compiles with a V8 code cache
 * like a command's bundle (./run-modules.ts): oclif's id resolution and the rest of the launcher
 * (about 50 kB) were compiled from source by every run, 1 to 2 ms of each command's start
 * (docs/decisions.md, "Start-up, stop 29"). What stays here is what finds that cache: the
 * command index (for the build) and the cache directory (./command-index.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type CommandIndex, DirectConfig } from './command-index.js'
import { startEarlyWorkFromArgv } from './early-work.js'
import type { CommandBundle, LaunchHost } from './launch.js'
import { installLightStdio } from './light-stdio.js'
import { readSourceFile } from './read-source.js'
import { codeCacheDir, runModuleLoader } from './run-modules.js'
import { isVersionRequest, printVersion } from './version.js'

/** The launcher's run module in dist/run/ (scripts/direct-bundles.mjs, LAUNCHER_FILE). */
export const LAUNCHER_FILE = 'launcher.cjs'

type Launcher = { launch: (argv: string[], host: LaunchHost) => Promise<void> }

/** The installed CLI (npm, a checkout): dist/run/ beside dist/launch.cjs, oclif's CLI in dist/entries/cli.js. */
export function installedHost(root: string): LaunchHost {
  const runDir = join(root, 'dist', 'run')
  let index: CommandIndex | undefined
  const loader = (config: DirectConfig, index: CommandIndex) =>
    runModuleLoader({
      read: (f) => readSourceFile(join(runDir, f)),
      filename: (f) => join(runDir, f),
      // built-ins, and ws and anvil's platform package from node_modules: this file is CommonJS
      // (dist/launch.cjs), and its require finds in node_modules what one from dist/run/ would
      // (neither directory has its own), without loading node:module for `createRequire`
      require: () => require,
      cacheDir: codeCacheDir(config.cacheDir, index.build),
    })
  return {
    distribution: 'npm',
    root: () => root,
    // read once: the boot and the launcher both need it
    index: () => {
      index ??= JSON.parse(readFileSync(join(runDir, 'index.json'), 'utf8')) as CommandIndex
      return index
    },
    loadCommand: (file, config, index) => loader(config, index)(file) as CommandBundle,
    runFull: async (argv) => {
      const { run } = (await import(pathToFileURL(join(root, 'dist', 'entries', 'cli.js')).href)) as {
        run: (argv: string[]) => Promise<void>
      }
      await run(argv)
    },
  }
}

/** Runs tnv for argv: `--version` here, everything else through the launcher (./launch.ts). */
export async function launch(argv: string[], host: LaunchHost): Promise<void> {
  // before anything prints: the launcher's own call finds it done
  installLightStdio()
  if (isVersionRequest(argv)) return printVersion(argv, host.distribution)
  // `keytool generate`'s key derivation, before the launcher loads (./early-work.ts)
  await startEarlyWorkFromArgv(argv)
  const index = host.index()
  const launcher = host.loadCommand(LAUNCHER_FILE, new DirectConfig(index, host.root()), index) as unknown as Launcher
  return launcher.launch(argv, host)
}
