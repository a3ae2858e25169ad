/**
 * The CLI entry, bundled with @oclif/core by esbuild (scripts/build.mjs) into the same chunks
 * the commands use, so start-up loads one pre-linked bundle instead of oclif's module tree.
 * `tnv --version` is answered before oclif is loaded (src/entries/version.ts).
 */
import { isVersionRequest, printVersion } from './version.js'

export async function run(argv: string[] = process.argv.slice(2)): Promise<void> {
  if (isVersionRequest(argv)) return printVersion(argv, 'npm')
  // esbuild's chunk for a lazily imported CommonJS module exports it as `default` only
  const mod = await import('@oclif/core')
  const { execute } = (typeof mod.execute === 'function' ? mod : mod.default) as typeof mod
  await execute({ args: argv, dir: import.meta.url })
}
