import { Args } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../../cli/flags/chain.js'
import type { GovernanceResult } from '../../devnet/chain/governance.js'
import type { MintReturnType } from '../../lib/registry/mint.js'

/** The devnet path: REHEARSAL-ONLY, the devnet node impersonates the registry owner. */
export type DevnetMintResult = GovernanceResult & { chain: { name: 'devnet'; chainId: number } }

export default class GovernanceMint extends BaseCommand {
  static override summary = 'Whitelist a validator address: mint(validatorAddress) by the registry owner.'

  static override description =
    `Issues the ConsensusNFT that lets the address stake. Only the registry owner (governance) may do it, after verifying the address off-chain; a retired address can never be whitelisted again. Already whitelisted: says so and sends nothing.

On the devnet (--chain devnet, or no --chain and no --rpc-url), without signer flags, the mint is REHEARSAL-ONLY: the devnet node sends it by impersonating the registry's owner (the devnet has no governance key; see \`tnv devnet governance --help\`).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> 0x1234…abcd --chain devnet',
    '<%= config.bin %> <%= command.id %> 0x1234…abcd --chain testnet --unsigned --from 0xGOVERNANCE_SAFE',
  ]

  static override args = {
    address: Args.string({ required: true, description: 'Validator address to whitelist.' }),
  }

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags }

  async run(): Promise<MintReturnType | DevnetMintResult> {
    const { args, flags } = await this.parse(GovernanceMint)
    const { parseAddressFlag } = await import('../../lib/chain/address.js')
    const validator = parseAddressFlag(args.address, 'the address')
    const devnet = flags.chain === 'devnet' || (flags.chain === undefined && flags['rpc-url'] === undefined)
    const signer =
      flags.keystore !== undefined || flags.unsigned || flags.from !== undefined || Boolean(process.env.TN_PRIVATE_KEY)
    if (devnet && !signer) {
      if (flags.check) {
        const { UsageError } = await import('../../lib/errors.js')
        throw new UsageError("The devnet's rehearsal mint (by impersonation) has no --check.", {
          fix: 'Check the mint from the owner: add --from <owner address> (`tnv devnet status` names it).',
        })
      }
      return this.rehearse(validator)
    }

    const [{ mint }, { runRegistryCommand }] = await Promise.all([
      import('../../lib/registry/mint.js'),
      import('../../cli/registry-step.js'),
    ])
    return runRegistryCommand({
      session: this.session,
      out: (line) => this.out(line),
      flags,
      action: 'mint',
      step: (ctx, options) => mint(ctx, { ...options, validator }),
      sentLine: (r, sent) =>
        `Whitelisted ${r.validator} (ConsensusNFT minted). Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    })
  }

  /** The devnet's rehearsal mint, through the running devnet node's control socket. */
  private async rehearse(validator: `0x${string}`): Promise<DevnetMintResult> {
    const [{ defaultDevnetDir }, { rehearseGovernance, governanceLines }, { findRunningDevnet }] = await Promise.all([
      import('../../devnet/paths.js'),
      import('../../devnet/node/governance-client.js'),
      import('../../devnet/node/runtime-file.js'),
    ])
    const dir = defaultDevnetDir(this.session.env)
    const running = await findRunningDevnet(dir)
    if (!running.info) {
      const { DevnetNodeNotRunningError } = await import('../../devnet/node/errors.js')
      throw new DevnetNodeNotRunningError(dir)
    }
    this.note(`On the devnet: REHEARSAL-ONLY mint by impersonating the registry owner (${running.info.owner}).`)
    const r = await rehearseGovernance(dir, { action: 'mint', validator })
    for (const line of governanceLines(r)) this.out(line)
    return { ...r, chain: { name: 'devnet', chainId: running.info.chainId } }
  }
}
