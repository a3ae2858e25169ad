/**
 * How every tnv process runs the CLI: bin/run.js (the npm install) and the single executable
 * (./sea.ts) both call `run`. It is oclif's own `Config.load` and `run`, with tnv's help and
 * did-you-mean (src/cli/help.ts, src/cli/did-you-mean.ts); each command is its own bundle in
 * dist/commands, which oclif loads through its manifest.
 *
 * What `run` guarantees on every path:
 * - `tnv --version` prints what this tnv recognises (./version.ts) without loading oclif;
 * - a reader that goes away (EPIPE on stdout or stderr, as in `tnv stake … | head -1`) never ends
 *   the command early: output that can no longer be delivered is dropped, the work goes on, and
 *   the exit code is the command's own result (docs/ci.md, "Closed output");
 * - an event loop that runs dry while a command still waits (an input that never comes) ends as
 *   an internal error, exit 1, never with Node's undocumented 13.
 */
import { isVersionRequest, printVersion, type VersionInfo } from './version.js'

export async function run(argv: string[], distribution: VersionInfo['distribution']): Promise<void> {
  keepWorkingWhenOutputCloses()
  if (isVersionRequest(argv)) return printVersion(argv, distribution)
  let settled = false
  const guard = () => {
    if (settled) return
    process.stderr.write(
      'Error: tnv stopped while still waiting for something that can no longer happen (an internal error). Run again with DEBUG=1 and report it.\n',
    )
    process.exit(1)
  }
  process.once('beforeExit', guard)
  // esbuild hands a lazily imported CommonJS package over as `default`
  const oclif = await import('@oclif/core')
  const { Config, handle } = (typeof oclif.run === 'function' ? oclif : oclif.default) as typeof oclif
  let config: InstanceType<typeof Config> | undefined
  try {
    config = await Config.load(import.meta.url)
    const { runCli } = await import('../cli/help.js')
    // no oclif `flush`: the process ends when the event loop is empty, and Node writes what is
    // pending first; flush's wait for 'drain' never ends on a pipe whose reader has gone
    await runCli(argv, config)
  } catch (err) {
    // a mistyped command: tnv's paragraph with the closest command, never oclif's bare line
    const { reportCommandNotFound } = await import('../cli/did-you-mean.js')
    if (!(config && reportCommandNotFound(err, config, argv))) await handle(err as Error)
  } finally {
    settled = true
    process.removeListener('beforeExit', guard)
  }
}

/**
 * A write to a closed pipe fails with EPIPE (and every later write with ERR_STREAM_DESTROYED).
 * Node would throw that as an uncaught exception and end the process wherever the command was,
 * between a transaction's send and its receipt included. Here it is dropped: the command finishes
 * and exits by its result. Any other stream error is still thrown.
 */
function keepWorkingWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return
      throw err
    })
  }
}
