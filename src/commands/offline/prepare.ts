import { Args } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { checkFlag } from '../../cli/flags/check.js'
import { type OfflinePrepareFlags, offlinePrepareFlags } from '../../cli/flags/offline-prepare.js'
import type { PlannedFile } from '../../cli/keytool-check.js'
import { DELEGATION_SIGNATURE, OFFLINE_STEPS } from '../../cli/offline-prepare.js'
import type { AnyBundle, Bundle } from '../../lib/offline/bundle.js'

export type OfflinePrepareResult =
  | {
      outcome: 'prepared'
      file: string
      step: AnyBundle['step']
      digest: string
      expiresAt: string
      /** null for a delegation signature (no transaction). */
      transaction: Bundle['transaction'] | null
    }
  | {
      /** --check: the bundle that would be written to its file; nothing written. */
      outcome: 'would-change'
      check: true
      message: string
      files: PlannedFile[]
      step: AnyBundle['step']
      expiresAt: string
      transaction: Bundle['transaction'] | null
    }
  | { outcome: 'already-done' | 'nothing-to-do'; message: string; check?: true }

export default class OfflinePrepare extends BaseCommand {
  static override summary =
    'Prepare a registry step for a key kept offline: one bundle file to sign on the offline host.'

  static override description =
    `On a networked host: runs every check of the step and its simulation for --from (the account whose key is offline), then writes one bundle file (docs/offline.md): the chain id, the registry's address, code hash and generation, the decoded call with its calldata, the value in TEL and wei, the nonce, fees and gas limit, the validator's status, stake version and epoch it assumes, for a stake node-info.yaml's key binding (checked against the key on disk), and an expiry, sealed with a sha256 digest. Nothing is signed or sent. --check runs all of it (the simulation and the backup gate included) and says the bundle it would write (outcome would-change, the file with its path and mode) without writing it or locking the data directory.

Carry the file to the offline host and run \`tnv offline sign BUNDLE\` there; bring back the .signed.json file written beside it and run \`tnv offline broadcast BUNDLE\` here, which checks every precondition again before it sends.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> stake --chain testnet --datadir ./validator --out stake.bundle.json',
    '<%= config.bin %> <%= command.id %> activate --chain testnet --from 0xVALIDATOR --out activate.bundle.json',
    '<%= config.bin %> <%= command.id %> unstake --chain testnet --from 0xVALIDATOR --expires-in 2h --out unstake.bundle.json',
    '<%= config.bin %> <%= command.id %> delegation-stake --chain testnet --signature delegation.json --out delegate.bundle.json',
    '<%= config.bin %> <%= command.id %> delegation-signature --chain testnet --datadir ./validator --delegator 0xDELEGATOR --deadline 7d --out delegation.bundle.json',
  ]

  static override args = {
    step: Args.string({
      required: true,
      options: [...Object.keys(OFFLINE_STEPS), DELEGATION_SIGNATURE],
      description: 'The registry step to prepare.',
    }),
  }

  static override flags = { ...offlinePrepareFlags, ...checkFlag }

  async run(): Promise<OfflinePrepareResult> {
    const { args, flags } = await this.parse(OfflinePrepare)
    return this.prepareToFile(args.step, flags, flags.check)
  }

  /** Prepares STEP from the flags and writes the bundle to --out (also the first stop of `offline wizard`). */
  protected async prepareToFile(
    step: string,
    flags: OfflinePrepareFlags,
    check = false,
  ): Promise<OfflinePrepareResult> {
    const [{ prepareBundleFile }, { checkLines }] = await Promise.all([
      import('../../cli/offline-prepare.js'),
      import('../../cli/keytool-check.js'),
    ])
    // the command that prepares a fresh bundle (the wizard's own argv is prepare's, with the step first)
    const argv = this.argv.filter((a) => a !== '--json' && a !== '--check')
    const prepareCommand = `${this.config.bin} offline prepare ${argv.join(' ')}`
    const r = await prepareBundleFile(this.session, flags, step, prepareCommand, (line) => this.note(line), check)
    if (!('bundle' in r)) {
      this.out(r.message)
      return check ? { ...r, check: true } : r
    }
    const { bundle } = r
    if (r.outcome === 'would-change') {
      const result = {
        outcome: 'would-change' as const,
        check: true as const,
        message: `would write the bundle of ${bundle.intent.title}`,
        files: r.files,
        step: bundle.step,
        expiresAt: bundle.expiresAt,
        transaction: bundle.step === 'delegationSignature' ? null : bundle.transaction,
      }
      for (const line of checkLines(result)) this.out(line)
      return result
    }
    if (bundle.step === 'delegationSignature') {
      this.out(`Wrote ${flags.out}: ${bundle.intent.title}, valid until ${bundle.expiresAt}.`)
      this.out(`Digest ${bundle.digest}`)
      this.note(`Next, on the offline host: tnv offline sign ${flags.out} (with the validator's key)`)
    } else {
      this.out(
        `Wrote ${flags.out}: ${bundle.intent.title}, nonce ${bundle.transaction.nonce}, valid until ${bundle.expiresAt}.`,
      )
      this.out(`Digest ${bundle.digest}`)
      this.note(`Next, on the offline host: tnv offline sign ${flags.out}`)
    }
    return {
      outcome: 'prepared',
      file: flags.out,
      step: bundle.step,
      digest: bundle.digest,
      expiresAt: bundle.expiresAt,
      transaction: bundle.step === 'delegationSignature' ? null : bundle.transaction,
    }
  }
}
