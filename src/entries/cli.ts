/**
 * The CLI entry, bundled with @oclif/core by esbuild (scripts/build.mjs) into the same chunks
 * the commands use, so start-up loads one pre-linked bundle instead of oclif's module tree.
 */
import { execute } from '@oclif/core'

export async function run(): Promise<void> {
  await execute({ dir: import.meta.url })
}
