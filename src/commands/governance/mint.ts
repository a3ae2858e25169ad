import { Args } from '@oclif/core'
import { BaseCommand } from '../../lib/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../../lib/chain/flags.js'
import type { MintReturnType } from '../../lib/registry/mint.js'

export default class GovernanceMint extends BaseCommand {
  static override summary = 'Whitelist a validator address: mint(validatorAddress) by the registry owner.'

  static override description =
    `Issues the ConsensusNFT that lets the address stake. Only the registry owner (governance) may do it, after verifying the address off-chain; a retired address can never be whitelisted again. Already whitelisted: says so and sends nothing.

On the devnet, without signer flags, the devnet's public governance key signs.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> 0x1234…abcd --chain devnet',
    '<%= config.bin %> <%= command.id %> 0x1234…abcd --chain testnet --unsigned --from 0xGOVERNANCE_SAFE',
  ]

  static override args = {
    address: Args.string({ required: true, description: 'Validator address to whitelist.' }),
  }

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags }

  async run(): Promise<MintReturnType> {
    const { args, flags } = await this.parse(GovernanceMint)
    const [{ mint }, { runRegistryStep }, { parseAddressFlag }] = await Promise.all([
      import('../../lib/registry/mint.js'),
      import('../../lib/registry/command-support.js'),
      import('../../lib/chain/address.js'),
    ])
    const validator = parseAddressFlag(args.address, 'the address')
    return runRegistryStep({
      io: { note: (line) => this.note(line), out: (line) => this.out(line) },
      flags,
      action: 'mint',
      devnetGovernance: true,
      step: (ctx, options) => mint(ctx, { ...options, validator }),
      sentLine: (r, sent) =>
        `Whitelisted ${r.validator} (ConsensusNFT minted). Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    })
  }
}
