import { BaseCommand } from '../lib/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../lib/chain/flags.js'
import { keyMaterialFlags } from '../lib/registry/flags.js'
import type { StakeReturnType } from '../lib/registry/stake.js'

export default class Stake extends BaseCommand {
  static override summary = 'Stake for a whitelisted validator address: stake(blsPubkey, proofOfPossession).'

  static override description =
    `Reads node-info.yaml (or --bls-pubkey and --pop) and checks everything before sending: the signer is node-info's execution_address, the proof of possession verifies for it, the address holds a ConsensusNFT, it has not staked, the key is not registered, and the balance covers the stake plus gas. The amount is stakeAmount of stakeConfig(getCurrentStakeVersion()). Then it simulates, shows the amount in TEL and wei and the chain, sends, and waits for the receipt.

Safe to repeat: if this address already staked with this key, it says so and sends nothing.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet --datadir ./validator-1',
    'TN_KEYSTORE_PASSWORD=… <%= config.bin %> <%= command.id %> --chain testnet --keystore ~/.foundry/keystores/validator --yes',
    '<%= config.bin %> <%= command.id %> --chain testnet --unsigned   # print the transaction for a multisig or hardware wallet',
  ]

  static override flags = {
    ...keyMaterialFlags,
    ...chainFlags,
    ...signerFlags,
    ...txFlags,
  }

  async run(): Promise<StakeReturnType> {
    const { flags } = await this.parse(Stake)
    const [{ stake }, support, { keyMaterialFromFlags }, { formatTelAndWei }] = await Promise.all([
      import('../lib/registry/stake.js'),
      import('../lib/registry/command-support.js'),
      import('../lib/registry/key-material.js'),
      import('../lib/chain/units.js'),
    ])
    const note = (line: string) => this.note(line)
    const keys = await keyMaterialFromFlags(flags)
    if (keys.nodeInfoPath) note(`Key material from ${keys.nodeInfoPath} (execution address ${keys.executionAddress}).`)
    const ctx = await support.openRegistryContext(flags)
    const signer = await support.signerFromFlags(flags, { action: 'stake', defaultFrom: keys.executionAddress }, note)
    const result = await stake(ctx, {
      signer,
      blsPubkey: keys.blsPubkey,
      proofOfPossession: keys.proofOfPossession,
      executionAddress: keys.executionAddress,
      report: support.createReporter(note),
      confirm: support.createConfirm({ yes: flags.yes, note }),
    })
    for (const line of support.outcomeLines(
      result,
      (sent) =>
        `Staked ${formatTelAndWei(BigInt(result.stakeAmount))} for ${result.validator} on ${result.chain.name}: transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    ))
      this.out(line)
    if (result.outcome === 'sent') note('Next: once the node is synced, run `tnv activate`.')
    return result
  }
}
