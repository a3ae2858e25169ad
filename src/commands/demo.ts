import { Flags } from '@oclif/core'
import { BaseCommand } from '../cli/base-command.js'
import type { DemoReturnType } from '../lib/demo/lifecycle.js'

export default class Demo extends BaseCommand {
  static override summary = 'Rehearse the whole validator lifecycle on an embedded devnet, in a temporary directory.'
  static override description =
    `Starts a local devnet (the reference node on an embedded chain with short epochs) and runs every step an operator takes, through tnv's own commands, printing each command as it runs: generate keys, export the staking arguments, governance mints the ConsensusNFT, stake, start the validator's node and wait until it is synced, activate, wait for Active at the epoch boundary, exit, wait for Exited, wait for exit epoch + 1, unstake. Then it prints a summary, stops everything it started and removes the directory (keep it with --keep). The keys and accounts used are public devnet keys.`
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']
  static override flags = {
    keep: Flags.boolean({ summary: 'Keep the temporary directory (keys, devnet state, logs) and print where it is.' }),
    'epoch-seconds': Flags.integer({
      summary: 'Epoch length on the demo devnet, in seconds (a rehearsal setting; the registry says a day).',
      default: 5,
      min: 1,
    }),
  }

  async run(): Promise<DemoReturnType> {
    const { flags } = await this.parse(Demo)
    const { runDemo } = await import('../lib/demo/lifecycle.js')
    const { renderDemoSummary } = await import('../lib/demo/summary.js')
    const r = await runDemo({
      keep: flags.keep,
      epochSeconds: flags['epoch-seconds'],
      env: this.session.env,
      // progress always goes to stderr (also with --json, where stdout carries only the result)
      onEvent: (e) => process.stderr.write(`${e.line}\n`),
    })
    this.out(renderDemoSummary(r))
    return r
  }
}
