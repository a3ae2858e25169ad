import type { Interfaces } from '@oclif/core'
import { BaseCommand } from '../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../cli/flags/chain.js'
import { datadirFlag } from '../cli/flags/common.js'
import { exitFlowFlags } from '../cli/flags/onboard.js'
import type { ExitFlowReturnType } from '../lib/onboard/exit-flow.js'
import type { BeginExitReturnType } from '../lib/registry/begin-exit.js'

export default class Exit extends BaseCommand {
  static override summary = 'Exit a validator: beginExit(), and on request through Exited to unstake. Irreversible.'

  static override description =
    `The validator becomes PendingExit. The protocol marks it Exited once it has no committee assignment left in the current and the 2 next epochs (this can take several epochs), and unstake is accepted from exit epoch + 1.

--through exited waits until Exited; --through unstaked then waits for exit epoch + 1, unstakes (with --accept-reward-shortfall when the issuance pool cannot cover the rewards) and shows what was paid and to whom. On a terminal the wizard asks how far to go, and asks again (default No) before each irreversible transaction; without one, pass --yes. Without a terminal and without --through it begins the exit (beginExit) and stops there.

Resumable and safe to repeat: each run reads the chain first; transactions are recorded in <datadir>/tnv-journal.json when the data directory exists, and a rerun waits for one whose outcome is unknown instead of sending another.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore validator.json --yes',
    '<%= config.bin %> <%= command.id %> --chain testnet --from 0xVALIDATOR --check --json   # what it would send; nothing is sent',
    'TN_PRIVATE_KEY=… <%= config.bin %> <%= command.id %> --chain devnet --through unstaked --yes --json',
  ]

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags, ...exitFlowFlags, ...datadirFlag }

  async run(): Promise<BeginExitReturnType | ExitFlowReturnType> {
    const { flags } = await this.parse(Exit)
    const { pathExists } = await import('../lib/fs/atomic.js')
    const { interactive } = this.session
    // the journal lives in an existing data directory only: tnv exit creates none
    const journalDir = (await pathExists(flags.datadir)) ? flags.datadir : null
    if (flags.format === 'safe' && flags.through !== undefined) {
      const { UsageError } = await import('../lib/errors.js')
      throw new UsageError(
        '--format safe writes the one step that can be proposed now; --through waits across epochs.',
        {
          fix: 'Propose the exit with `tnv exit --unsigned --format safe`, and once `tnv validator status` shows canUnstake, the unstake with `tnv unstake --unsigned --format safe`.',
        },
      )
    }
    if (flags.check && flags.through !== undefined) {
      const { UsageError } = await import('../lib/errors.js')
      throw new UsageError(
        '--check checks the one step that can be sent now (beginExit); --through waits across epochs.',
        {
          fix: 'Drop --through: `tnv exit --check`, and once `tnv validator status` shows canUnstake, `tnv unstake --check`.',
        },
      )
    }
    if ((!interactive && flags.through === undefined) || flags.format === 'safe' || flags.check)
      return this.beginExitOnly(flags, journalDir)

    this.jsonLines = this.jsonEnabled()
    this.session.output = this.jsonLines ? 'json-lines' : 'human'
    const io = await this.session.wizardIo(this.jsonLines ? 'json-lines' : 'human')
    const { onInterrupt } = await import('../cli/wizard-io.js')
    onInterrupt(io)
    const { runExitFlow } = await import('../lib/onboard/exit-flow.js')
    const result = await runExitFlow(io, {
      datadir: journalDir,
      through: flags.through,
      chain: flags,
      signer: flags,
      env: this.session.signerEnv(),
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
    const [{ beginExit }, support, cli] = await Promise.all([
      import('../lib/registry/begin-exit.js'),
      import('../lib/registry/command-support.js'),
      import('../cli/registry-step.js'),
    ])
    const note = (line: string) => this.note(line)
    const ctx = await support.openRegistryContext(flags)
    const signer = await cli.signerFromFlags(this.session, flags, { action: 'beginExit' })
    const result = await beginExit(ctx, {
      signer,
      report: this.session.reporter(),
      confirm: cli.stepConfirm(this.session, flags),
      journal: cli.stepJournal(this.session, {
        from: signer.address,
        datadir: journalDir,
        timeoutSeconds: flags.timeout,
      }),
    })
    const { safeBatchOfStep } = await import('../cli/safe-output.js')
    const batch = await safeBatchOfStep(ctx, flags, result, {
      name: 'tnv exit (beginExit)',
      out: (line) => this.out(line),
      note: (line) => this.note(line),
    })
    if (batch) return Object.assign(result, { safe: batch })
    for (const line of support.outcomeLines(
      result,
      (sent) =>
        `Exit begun for ${result.validator}: PendingExit from epoch ${result.currentEpoch}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    ))
      this.out(line)
    if (result.outcome === 'sent')
      note(
        'Next: wait until `tnv validator status` shows status Exited and "unstake  possible now", then run `tnv exit --through unstaked` (or `tnv unstake`).',
      )
    return result
  }
}
