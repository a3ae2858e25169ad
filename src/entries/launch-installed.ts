/**
 * dist/launch.cjs, what the installed `tnv` (bin/tnv.cjs) and bin/run.js start: the launcher
 * (./launch.ts) with the files of an npm install or a checkout.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CommandIndex } from './command-index.js'
import { type CommandBundle, type LaunchHost, launch } from './launch.js'
import { readSourceFile } from './read-source.js'
import { codeCacheDir, runModuleLoader } from './run-modules.js'

export { launch }

/** The installed CLI (npm, a checkout): dist/run/ beside dist/launch.cjs, oclif's CLI in dist/entries/cli.js. */
export function installedHost(root: string): LaunchHost {
  const runDir = join(root, 'dist', 'run')
  return {
    distribution: 'npm',
    root: () => root,
    index: () => JSON.parse(readFileSync(join(runDir, 'index.json'), 'utf8')) as CommandIndex,
    loadCommand: (file, config, index) =>
      runModuleLoader({
        read: (f) => readSourceFile(join(runDir, f)),
        filename: (f) => join(runDir, f),
        // ws and anvil's platform package from node_modules, as a require() from dist/run/ finds them
        require: (f) => createRequire(join(runDir, f)),
        cacheDir: codeCacheDir(config.cacheDir, index.build),
      })(file) as CommandBundle,
    runFull: async (argv) => {
      const { run } = (await import(pathToFileURL(join(root, 'dist', 'entries', 'cli.js')).href)) as {
        run: (argv: string[]) => Promise<void>
      }
      await run(argv)
    },
  }
}
