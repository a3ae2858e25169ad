import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags } from '../../cli/flags/chain.js'
import { checkFlag } from '../../cli/flags/check.js'
import type { BroadcastBundleReturnType, BroadcastCheckReturnType } from '../../lib/offline/broadcast-bundle.js'

export type OfflineBroadcastResult = (BroadcastBundleReturnType | BroadcastCheckReturnType) & {
  bundle: string
  signed: string
}

export default class OfflineBroadcast extends BaseCommand {
  static override summary = 'Send a bundle signed offline, once every precondition it was prepared against still holds.'

  static override description =
    `On a networked host: checks that the signed file is the bundle's transaction (digests, signer, every field), then reads again everything the bundle assumed: the chain id, the registry's code hash, the sender's nonce (not used by another transaction), the validator's status, the stake version, the epoch constraint, the base fee against the signed max fee, the balance, the expiry; and simulates the exact call. When any of them changed, nothing is sent (exit 24) and each change is named, with the command that prepares a new bundle. Otherwise the signed transaction is written to the sender's transaction journal (fsynced) before it is sent, and the receipt is awaited: a run killed at any point is settled by the next run from the journal, which never sends a second transaction. Running it again after success says so and sends nothing. --check runs every one of these checks and the simulation, then says the transaction it would send (outcome would-change, decoded) or that it is mined (already-done); nothing is journaled or sent. Without --chain or --rpc-url it uses the network the bundle was prepared on.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> stake.bundle.json --chain testnet',
    '<%= config.bin %> <%= command.id %> activate.bundle.json --rpc-url https://rpc.example --signed /media/usb/activate.bundle.signed.json',
    '<%= config.bin %> <%= command.id %> exit.bundle.json --chain testnet --signed-raw -   # scanned from the QR code sign showed',
  ]

  static override args = {
    bundle: Args.string({ required: true, description: 'The bundle file from `tnv offline prepare`.' }),
  }

  static override flags = {
    ...chainFlags,
    signed: Flags.string({
      helpValue: '<file>',
      summary: 'The signed file from `tnv offline sign` (default: beside the bundle, .signed.json).',
    }),
    'signed-raw': Flags.string({
      helpValue: '<0x…|->',
      exclusive: ['signed'],
      summary:
        'The signed transaction as text, e.g. scanned from the QR code `tnv offline sign --qr` shows; - reads one line of standard input.',
    }),
    timeout: Flags.integer({ min: 1, default: 180, helpValue: '<seconds>', summary: 'Longest wait for the receipt.' }),
    ...checkFlag,
  }

  async run(): Promise<OfflineBroadcastResult> {
    const { args, flags } = await this.parse(OfflineBroadcast)
    const [
      { parseBundle, parseSignedFile, signedPathOf },
      { broadcastBundle, checkBroadcastBundle },
      { readSmallFile },
      support,
      cli,
    ] = await Promise.all([
      import('../../lib/offline/bundle.js'),
      import('../../lib/offline/broadcast-bundle.js'),
      import('../../lib/fs/read-small-file.js'),
      import('../../lib/registry/command-support.js'),
      import('../../cli/registry-step.js'),
    ])
    const bundlePath = args.bundle
    const raw = flags['signed-raw']
    const signedPath = raw !== undefined ? '--signed-raw' : (flags.signed ?? signedPathOf(bundlePath))
    const read = (path: string, what: string) =>
      readSmallFile(path, { what, maxBytes: 256 * 1024, explainMissing: true })
    const bundle = parseBundle(await read(bundlePath, 'an offline bundle'), bundlePath)
    const signed =
      raw === undefined
        ? parseSignedFile(await read(signedPath, 'a signed offline transaction'), signedPath)
        : await (await import('../../lib/offline/qr.js')).signedFromRaw(
            bundle,
            raw === '-' ? ((await this.session.stdin().next()) ?? '') : raw,
            signedPath,
          )
    // the transaction goes to the registry it was signed for, whatever preset the flags name;
    // without --chain or --rpc-url, the network the bundle was prepared on
    const preset = (['testnet', 'mainnet', 'devnet'] as const).find((n) => n === bundle.chain.name)
    const chain = flags.chain ?? (flags['rpc-url'] === undefined ? preset : undefined)
    const ctx = await support.openRegistryContext({ ...flags, chain, registry: bundle.registry.address })
    if (flags.check) {
      const c = await checkBroadcastBundle(ctx, { bundle, bundlePath, signed, signedPath })
      if (c.outcome === 'already-done') this.out(`${bundle.intent.title}: ${c.message} (check: nothing was sent)`)
      else for (const line of support.outcomeLines(c, () => '')) this.out(line)
      return { ...c, bundle: bundlePath, signed: signedPath }
    }
    const r = await broadcastBundle(ctx, {
      bundle,
      bundlePath,
      signed,
      signedPath,
      journal: cli.stepJournal(this.session, {
        from: bundle.transaction.from,
        datadir: null,
        timeoutSeconds: flags.timeout,
      }),
      report: this.session.reporter(),
    })
    this.out(
      r.outcome === 'sent'
        ? `${bundle.intent.title}: transaction ${r.txHash} in block ${r.blockNumber}.`
        : `${bundle.intent.title}: already done by transaction ${r.txHash} in block ${r.blockNumber}; nothing was sent.`,
    )
    return { ...r, bundle: bundlePath, signed: signedPath }
  }
}
