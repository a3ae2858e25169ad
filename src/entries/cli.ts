/**
 * The CLI entry, bundled with @oclif/core by esbuild (scripts/build.mjs) into the same chunks
 * the commands use, so start-up loads one pre-linked bundle instead of oclif's module tree.
 */
import { execute } from '@oclif/core'

export async function run(): Promise<void> {
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
  try {
    await execute({ dir: import.meta.url })
  } finally {
    settled = true
    process.removeListener('beforeExit', guard)
  }
}
