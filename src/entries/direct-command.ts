/**
 * Runs one command the way oclif's `run` does once it has found it (main.run → Config.runCommand
 * → Command.run → `new Command(argv, config)._run()`, then `flush`, and `handle` for what the
 * command lets through), with the config of the command index (./command-index.ts) instead of
 * a reloaded `Config`; no hook runs because package.json declares none (the build checks).
 * Bundled into every command's own bundle (dist/run/<id>.cjs, scripts/fast-bundles.mjs) with
 * the command class, so the process holds one copy of @oclif/core's Command and parser.
 */
import type { Command } from '@oclif/core'
import { flush } from '@oclif/core/flush'
import { handle } from '@oclif/core/handle'
import type { DirectConfig } from './command-index.js'

type CommandClass = (new (argv: string[], config: never) => Command) & { id?: string }

export async function runCommandDirect(
  Cmd: CommandClass,
  id: string,
  argv: string[],
  config: DirectConfig,
): Promise<void> {
  // what oclif's plugin loader sets on the class it returns from findCommand
  Cmd.id = id
  try {
    const command = new Cmd(argv, config as never) as unknown as { _run: () => Promise<unknown> }
    await command._run()
    // oclif's flush waits for stdout's 'drain' when writes are pending. Without any (a file, a
    // terminal or, on Linux, a pipe takes each write at once) it would only set up its 10 s
    // timer, about 1 ms in a new process: docs/decisions.md, "Start-up, stop 31"
    if (process.stdout.writableNeedDrain) await flush()
  } catch (err) {
    await handle(err as Error)
  }
}
