import type { BroadcastBundleReturnType } from '../../lib/offline/broadcast-bundle.js'
import OfflinePrepare, { type OfflinePrepareResult } from './prepare.js'

export type OfflineWizardResult = OfflinePrepareResult & { broadcast?: BroadcastBundleReturnType }

export default class OfflineWizard extends OfflinePrepare {
  static override summary =
    'Walk a registry step whose key is offline, on a terminal: prepare the bundle, wait while you sign it on the offline host, broadcast it.'

  static override description =
    `The same step and flags as \`tnv offline prepare\`. It writes the bundle (--out), prints the command to run on the offline host (\`tnv offline sign BUNDLE\`), then waits on this terminal for the signed file to be back (the path is asked; Enter takes the one beside the bundle), and broadcasts it as \`tnv offline broadcast\` does: every precondition checked again, journaled, the receipt awaited. Stopping at the question (Ctrl-C) loses nothing: the bundle stays, and \`tnv offline broadcast BUNDLE\` finishes later. It needs a terminal; without one, run the three commands.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> stake --chain testnet --datadir ./validator --out stake.bundle.json',
    '<%= config.bin %> <%= command.id %> activate --chain testnet --from 0xVALIDATOR --out activate.bundle.json',
  ]

  // oclif's parse copies a command class's own properties only: the step and flags are prepare's
  static override args = OfflinePrepare.args
  static override flags = OfflinePrepare.flags

  override async run(): Promise<OfflineWizardResult> {
    const { args, flags } = await this.parse(OfflineWizard)
    const { UsageError } = await import('../../lib/errors.js')
    if (!this.session.interactive)
      throw new UsageError('tnv offline wizard asks on a terminal, and there is none.', {
        fix: `Run the steps yourself: \`tnv offline prepare ${args.step} … --out B\`, then \`tnv offline sign B\` on the offline host, then \`tnv offline broadcast B\`.`,
      })
    const prepared = await this.prepareToFile(args.step, flags)
    if (prepared.outcome !== 'prepared') return prepared
    const [{ parseBundle, parseSignedFile, signedPathOf }, { broadcastBundle }, { readSmallFile }, atomic] =
      await Promise.all([
        import('../../lib/offline/bundle.js'),
        import('../../lib/offline/broadcast-bundle.js'),
        import('../../lib/fs/read-small-file.js'),
        import('../../lib/fs/atomic.js'),
      ])
    const beside = signedPathOf(prepared.file)
    if (prepared.transaction === null) {
      this.note(
        `Carry ${prepared.file} to the offline host, run \`tnv offline sign ${prepared.file}\` with the validator's key, and give the file it writes (${beside}) to the delegator: \`tnv delegation stake --signature ${beside}\`. There is nothing to broadcast.`,
      )
      return prepared
    }
    this.note(`Carry ${prepared.file} to the offline host and run there:`)
    this.note(`  tnv offline sign ${prepared.file}`)
    this.note(`Then bring back ${beside} (or show it with --qr and broadcast with --signed-raw later).`)
    const { prompter } = this.session
    let signedPath = beside
    for (;;) {
      signedPath = (await prompter.input('Path of the signed file, once it is back', { default: beside })).trim()
      if (await atomic.pathExists(signedPath)) break
      this.note(
        `${signedPath} is not there yet. Stop with Ctrl-C and run \`tnv offline broadcast ${prepared.file}\` later if you like.`,
      )
    }
    const read = (path: string, what: string) =>
      readSmallFile(path, { what, maxBytes: 256 * 1024, explainMissing: true })
    const bundle = parseBundle(await read(prepared.file, 'an offline bundle'), prepared.file)
    const signed = parseSignedFile(await read(signedPath, 'a signed offline transaction'), signedPath)
    const [support, cli] = await Promise.all([
      import('../../lib/registry/command-support.js'),
      import('../../cli/registry-step.js'),
    ])
    const ctx = await support.openRegistryContext({ ...flags, registry: bundle.registry.address })
    const broadcast = await broadcastBundle(ctx, {
      bundle,
      bundlePath: prepared.file,
      signed,
      signedPath,
      journal: cli.stepJournal(this.session, { from: bundle.transaction.from, datadir: null }),
      report: this.session.reporter(),
    })
    this.out(
      broadcast.outcome === 'sent'
        ? `${bundle.intent.title}: transaction ${broadcast.txHash} in block ${broadcast.blockNumber}.`
        : `${bundle.intent.title}: already done by transaction ${broadcast.txHash} in block ${broadcast.blockNumber}; nothing was sent.`,
    )
    return { ...prepared, broadcast }
  }
}
