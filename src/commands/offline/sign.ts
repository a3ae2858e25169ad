import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { signerFlags } from '../../cli/flags/chain.js'
import { checkFlag } from '../../cli/flags/check.js'
import { yesFlag } from '../../cli/flags/common.js'
import type { OfflineSignCheckResult } from '../../cli/offline-sign.js'

export type OfflineSignResult = {
  file: string
  bundle: string
  step: string
  from: string
  /** The transaction's nonce; null for a delegation signature. */
  nonce: number | null
  /** The signed transaction's hash, or the delegation digest signed. */
  hash: string
}

const { keystore, 'keystore-password-source': keystorePasswordSource, ledger, trezor } = signerFlags

export default class OfflineSign extends BaseCommand {
  static override summary = 'Sign a bundle from `tnv offline prepare` on a host with no network.'

  static override description =
    `Opens no connection of any kind (a guard makes every socket, HTTP request and DNS lookup fail before the bundle is read). Checks the bundle's digest (a changed or truncated file is refused), decodes its calldata again and shows what it changes on chain, in TEL and wei, and what cannot be undone; asks for confirmation on a terminal (default No), else needs --yes. Signs the transaction exactly as prepared with --keystore, TN_PRIVATE_KEY, --ledger or --trezor, and writes it to BUNDLE's name with .signed.json (or --out). Carry that file back and run \`tnv offline broadcast BUNDLE\`. --check runs the same checks of the bundle, asks nothing, opens no key and writes nothing: it says the signed file it would write (outcome would-change), or already-done when that file already holds a signature of this bundle (the broadcast checks the signature itself).`

  static override examples = [
    'TN_KEYSTORE_PASSWORD=… <%= config.bin %> <%= command.id %> stake.bundle.json --keystore validator.json',
    '<%= config.bin %> <%= command.id %> activate.bundle.json --ledger --yes',
  ]

  static override args = {
    bundle: Args.string({ required: true, description: 'The bundle file from `tnv offline prepare`.' }),
  }

  static override flags = {
    keystore,
    'keystore-password-source': keystorePasswordSource,
    ledger: Flags.boolean({ ...ledger, exclusive: ['keystore', 'trezor'] }),
    trezor: Flags.boolean({ ...trezor, exclusive: ['keystore', 'ledger'] }),
    'hd-path': signerFlags['hd-path'],
    'hd-index': signerFlags['hd-index'],
    ...yesFlag,
    qr: Flags.boolean({
      summary:
        'Also show the signed transaction as a QR code (stderr), for a host without removable media; scan it into `tnv offline broadcast BUNDLE --signed-raw -`.',
    }),
    out: Flags.string({
      helpValue: '<file>',
      summary: 'Where to write the signed transaction (default: beside the bundle, .signed.json).',
    }),
    ...checkFlag,
  }

  async run(): Promise<OfflineSignResult | OfflineSignCheckResult> {
    // before anything is read: from here on, any socket this process tries to open fails
    const { forbidNetwork } = await import('../../lib/offline/no-network.js')
    forbidNetwork()
    const { args, flags } = await this.parse(OfflineSign)
    const [
      { parseAnyBundle, signedPathOf, fileText, DELEGATION_SIGNATURE_STEP },
      { signBundle, checkBundleIntent, checkDelegationIntent, bundleRows, delegationRows, signDelegationBundle },
      { readSmallFile },
    ] = await Promise.all([
      import('../../lib/offline/bundle.js'),
      import('../../lib/offline/sign-bundle.js'),
      import('../../lib/fs/read-small-file.js'),
    ])
    const bundle = parseAnyBundle(
      await readSmallFile(args.bundle, { what: 'an offline bundle', maxBytes: 256 * 1024, explainMissing: true }),
      args.bundle,
    )
    const delegation = bundle.step === DELEGATION_SIGNATURE_STEP ? bundle : null
    if (bundle.step === DELEGATION_SIGNATURE_STEP) checkDelegationIntent({ bundle, path: args.bundle })
    else checkBundleIntent({ bundle, path: args.bundle })
    const rows = bundle.step === DELEGATION_SIGNATURE_STEP ? delegationRows(bundle) : bundleRows(bundle)
    const out = flags.out ?? signedPathOf(args.bundle)
    const { checkOfflineSigning, confirmOfflineSigning } = await import('../../cli/offline-sign.js')
    if (flags.check) {
      const { checkLines } = await import('../../cli/keytool-check.js')
      const r = await checkOfflineSigning(bundle, args.bundle, out)
      for (const line of checkLines(r)) this.out(line)
      return r
    }
    await confirmOfflineSigning(this.session, { showIntent: !this.jsonEnabled(), bundle, rows, yes: flags.yes })

    const [{ resolveSigner }, { signerOptionsOf }] = await Promise.all([
      import('../../lib/chain/signer.js'),
      import('../../lib/options.js'),
    ])
    const { signer } = await resolveSigner({
      action: `sign the ${bundle.step} bundle`,
      ...signerOptionsOf(flags),
      prompter: this.session.prompter,
      env: this.session.signerEnv(),
    })
    if (signer.type !== 'local') throw new Error('offline sign: no signing key') // resolveSigner never returns unsigned here
    const { writeFileAtomic } = await import('../../lib/fs/atomic.js')
    if (delegation) {
      const file = await signDelegationBundle({ bundle: delegation, path: args.bundle, account: signer.account })
      await writeFileAtomic(out, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
      this.out(`Signed ${delegation.intent.title}: wrote ${out}.`)
      this.note(`Next: give ${out} to the delegator, who runs \`tnv delegation stake --signature ${out}\`.`)
      return { file: out, bundle: args.bundle, step: bundle.step, from: signer.address, nonce: null, hash: file.digest }
    }
    if (bundle.step === DELEGATION_SIGNATURE_STEP) throw new Error('unreachable') // narrowed above
    const signed = await signBundle({ bundle, path: args.bundle, account: signer.account })
    await writeFileAtomic(out, fileText(signed), { mode: 0o600 })
    this.out(`Signed ${bundle.intent.title} (nonce ${bundle.transaction.nonce}): wrote ${out}.`)
    if (flags.qr) {
      const { signedTransactionQr } = await import('../../lib/offline/qr.js')
      process.stderr.write(`${signedTransactionQr(signed.raw)}\n`)
      this.note(`Next, on the networked host: scan it into tnv offline broadcast ${args.bundle} --signed-raw -`)
    } else this.note(`Next, on the networked host: tnv offline broadcast ${args.bundle}`)
    return {
      file: out,
      bundle: args.bundle,
      step: bundle.step,
      from: signed.from,
      nonce: bundle.transaction.nonce,
      hash: signed.hash,
    }
  }
}
