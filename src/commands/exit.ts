import type { Interfaces } from '@oclif/core'
import { BaseCommand } from '../lib/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../lib/chain/flags.js'
import { datadirFlag } from '../lib/flags.js'
import type { ExitFlowReturnType } from '../lib/onboard/exit-flow.js'
import { exitFlowFlags } from '../lib/onboard/flags.js'
import type { BeginExitReturnType } from '../lib/registry/begin-exit.js'

export default class Exit extends BaseCommand {
  static override summary = 'Exit a validator: beginExit(), and on request through Exited to unstake. Irreversible.'

  static override description =
    `The validator becomes PendingExit. The protocol marks it Exited once it has no committee assignment left in the current and the 2 next epochs (this can take several epochs), and unstake is accepted from exit epoch + 1.

--through exited waits until Exited; --through unstaked then waits for exit epoch + 1, unstakes (with --accept-reward-shortfall when the issuance pool cannot cover the rewards) and shows what was paid and to whom. On a terminal the wizard asks how far to go, and asks again (default No) before each irreversible transaction; without one, pass --yes. Without a terminal and without --through it begins the exit only, as before.

Resumable and safe to repeat: each run reads the chain first; transactions are recorded in <datadir>/tnv-journal.json when the data directory exists, and a rerun waits for one whose outcome is unknown instead of sending another.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore validator.json --yes',
    'TN_PRIVATE_KEY=… <%= config.bin %> <%= command.id %> --chain devnet --through unstaked --yes --json',
  ]

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags, ...exitFlowFlags, ...datadirFlag }

  private jsonLines = false

  override logJson(json: unknown): void {
    if (this.jsonLines) process.stdout.write(`${JSON.stringify(json)}\n`)
    else super.logJson(json)
  }

  async run(): Promise<BeginExitReturnType | ExitFlowReturnType> {
    const { flags } = await this.parse(Exit)
    const { createWizardIo, isTerminal, onInterrupt } = await import('../lib/wizard/io.js')
    const { pathExists } = await import('../lib/fs/atomic.js')
    const interactive = !flags['non-interactive'] && isTerminal()
    // the journal lives in an existing data directory only: tnv exit creates none
    const journalDir = (await pathExists(flags.datadir)) ? flags.datadir : null
    if (!interactive && flags.through === undefined) return this.beginExitOnly(flags, journalDir)

    this.jsonLines = this.jsonEnabled()
    const io = createWizardIo({ interactive, events: this.jsonLines ? 'json-lines' : 'human' })
    onInterrupt(io)
    const { runExitFlow } = await import('../lib/onboard/exit-flow.js')
    const result = await runExitFlow(io, {
      datadir: journalDir,
      through: flags.through,
      chain: flags,
      signer: flags,
      yes: flags.yes,
      acceptRewardShortfall: flags['accept-reward-shortfall'],
      timeoutSeconds: flags.timeout,
    })
    this.out(
      `${result.validator} is ${result.status} on ${result.chain.name} (epoch ${result.epoch}). Steps: ${result.steps.map((s) => `${s.step} ${s.outcome}`).join(', ') || 'none needed'}.`,
    )
    return result
  }

  /** The plain `tnv exit` of issue 6: beginExit only. Journaled when the data directory exists. */
  private async beginExitOnly(
    flags: Interfaces.InferredFlags<typeof Exit.flags>,
    journalDir: string | null,
  ): Promise<BeginExitReturnType> {
    const [{ beginExit }, support, { journaledStep }, { createWizardIo }] = await Promise.all([
      import('../lib/registry/begin-exit.js'),
      import('../lib/registry/command-support.js'),
      import('../lib/wizard/journaled-step.js'),
      import('../lib/wizard/io.js'),
    ])
    const note = (line: string) => this.note(line)
    const ctx = await support.openRegistryContext(flags)
    const signer = await support.signerFromFlags(flags, { action: 'beginExit' }, note)
    const { result } = await journaledStep({
      ctx,
      datadir: journalDir,
      step: 'beginExit',
      from: signer.address,
      io: createWizardIo({ interactive: false, events: this.jsonEnabled() ? 'none' : 'human' }),
      show: support.createReporter(note),
      run: (report) => beginExit(ctx, { signer, report, confirm: support.createConfirm({ yes: flags.yes, note }) }),
    })
    for (const line of support.outcomeLines(
      result,
      (sent) =>
        `Exit begun for ${result.validator}: PendingExit from epoch ${result.currentEpoch}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    ))
      this.out(line)
    if (result.outcome === 'sent')
      note(
        'Next: wait until `tnv validator status` shows Exited and canUnstake, then run `tnv exit --through unstaked`.',
      )
    return result
  }
}
