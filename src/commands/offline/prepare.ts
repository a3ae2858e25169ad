import { Args } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { type OfflinePrepareFlags, offlinePrepareFlags } from '../../cli/flags/offline-prepare.js'
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
  | { outcome: 'already-done' | 'nothing-to-do'; message: string }

export default class OfflinePrepare extends BaseCommand {
  static override summary =
    'Prepare a registry step for a key kept offline: one bundle file to sign on the offline host.'

  static override description =
    `On a networked host: runs every check of the step and its simulation for --from (the account whose key is offline), then writes one bundle file (docs/offline.md): the chain id, the registry's address, code hash and generation, the decoded call with its calldata, the value in TEL and wei, the nonce, fees and gas limit, the validator's status, stake version and epoch it assumes, for a stake node-info.yaml's key binding (checked against the key on disk), and an expiry, sealed with a sha256 digest. Nothing is signed or sent.

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

  static override flags = offlinePrepareFlags

  async run(): Promise<OfflinePrepareResult> {
    const { args, flags } = await this.parse(OfflinePrepare)
    return this.prepareToFile(args.step, flags)
  }

  /** Prepares STEP from the flags and writes the bundle to --out (also the first stop of `offline wizard`). */
  protected async prepareToFile(step: string, flags: OfflinePrepareFlags): Promise<OfflinePrepareResult> {
    const { prepareBundleFile } = await import('../../cli/offline-prepare.js')
    // the command that prepares a fresh bundle (the wizard's own argv is prepare's, with the step first)
    const prepareCommand = `${this.config.bin} offline prepare ${this.argv.filter((a) => a !== '--json').join(' ')}`
    const r = await prepareBundleFile(this.session, flags, step, prepareCommand, (line) => this.note(line))
    if (r.outcome !== 'prepared') {
      this.out(r.message)
      return r
    }
    const { bundle } = r
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
