import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../../cli/flags/chain.js'
import type { IncreaseNonceReturnType } from '../../lib/registry/increase-nonce.js'

export default class DelegationRevoke extends BaseCommand {
  static override summary =
    'Revoke every delegation signature you gave as a validator: increaseNonce() (next generation).'

  static override description =
    `Delegation digests bind the validator's nonce; raising it makes every signature given so far unusable. Sign again afterwards with \`tnv delegation sign\` if a delegator still needs one. The nonce has no view: tnv reads it through the registry's digest before, and from the DelegationNonceIncreased event after.

The adiri registry has no increaseNonce() and no deadline: there the command sends nothing and explains what can and cannot invalidate a signature (exit 2).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore validator.json --yes',
  ]

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags }

  async run(): Promise<IncreaseNonceReturnType> {
    const { flags } = await this.parse(DelegationRevoke)
    const [{ increaseNonce }, { runRegistryCommand }] = await Promise.all([
      import('../../lib/registry/increase-nonce.js'),
      import('../../cli/registry-step.js'),
    ])
    return runRegistryCommand({
      session: this.session,
      out: (line) => this.out(line),
      flags,
      action: 'increaseNonce',
      step: increaseNonce,
      sentLine: (r, sent) =>
        `Revoked the delegation signatures of ${r.validator}: nonce ${r.previousNonce} → ${r.newNonce}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    })
  }
}
