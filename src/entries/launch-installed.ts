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

export { launch }

/** The installed CLI (npm, a checkout): dist/run/ beside dist/launch.cjs, oclif's CLI in dist/entries/cli.js. */
export function installedHost(root: string): LaunchHost {
  const require = createRequire(import.meta.url)
  return {
    distribution: 'npm',
    root: () => root,
    index: () => JSON.parse(readFileSync(join(root, 'dist', 'run', 'index.json'), 'utf8')) as CommandIndex,
    loadCommand: (file) => require(join(root, 'dist', 'run', file)) as CommandBundle,
    runFull: async (argv) => {
      const { run } = (await import(pathToFileURL(join(root, 'dist', 'entries', 'cli.js')).href)) as {
        run: (argv: string[]) => Promise<void>
      }
      await run(argv)
    },
  }
}
