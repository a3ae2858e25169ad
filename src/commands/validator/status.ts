import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/base-command.js'
import { chainFlags } from '../../lib/chain/flags.js'
import { datadirFlag } from '../../lib/flags.js'
import type { ValidatorStatus } from '../../lib/registry/read-validator-status.js'

export default class ValidatorStatusCommand extends BaseCommand {
  static override summary = "Show a validator's on-chain state: whitelist, status, epochs, rewards, stake."

  static override description =
    `The validator is --address, or the execution_address of node-info.yaml in --datadir. Shows whether it is whitelisted (holds a ConsensusNFT), its status (Undefined, Staked, PendingActivation, Active, PendingExit, Exited), activation and exit epochs, the current epoch and the blocks to the next boundary, when unstake becomes possible (exit epoch + 1), rewards, stake version and amount, delegated and retired. Reads only; two batched round trips.

--json prints the same fields as one object (wei amounts as decimal strings).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet --datadir ./validator-1',
    '<%= config.bin %> <%= command.id %> --chain testnet --address 0x1234…abcd --json',
  ]

  static override flags = {
    address: Flags.string({
      helpValue: '<address>',
      summary: 'Validator address. Default: execution_address of node-info.yaml in --datadir.',
    }),
    ...datadirFlag,
    ...chainFlags,
  }

  async run(): Promise<ValidatorStatus> {
    const { flags } = await this.parse(ValidatorStatusCommand)
    const [{ readValidatorStatus }, support, { parseAddressFlag }, { formatTelAndWei }] = await Promise.all([
      import('../../lib/registry/read-validator-status.js'),
      import('../../lib/registry/command-support.js'),
      import('../../lib/chain/address.js'),
      import('../../lib/chain/units.js'),
    ])
    let address: `0x${string}`
    if (flags.address !== undefined) address = parseAddressFlag(flags.address, '--address')
    else {
      const [{ readNodeInfo }, { NodeInfoMissingError }] = await Promise.all([
        import('../../lib/nodeinfo/read.js'),
        import('../../lib/nodeinfo/errors.js'),
      ])
      const { path, info } = await readNodeInfo(flags.datadir).catch((err: unknown) => {
        if (err instanceof NodeInfoMissingError)
          err.fix =
            'Name the validator with --address <address>, or point --datadir at the data directory that holds its node-info.yaml.'
        throw err
      })
      this.note(`Validator ${info.executionAddress} from ${path}.`)
      address = info.executionAddress
    }
    const ctx = await support.openRegistryContext(flags)
    const s = await readValidatorStatus(ctx, { address })
    const yesNo = (b: boolean) => (b ? 'yes' : 'no')
    const epochLine =
      s.blocksToNextEpoch === null
        ? `${s.currentEpoch} (started at block ${s.epochStartBlock})`
        : `${s.currentEpoch} (block ${s.blockNumber}; next epoch in ${s.blocksToNextEpoch} blocks, at block ${s.nextEpochBlock})`
    const unstakeLine = s.retired
      ? 'done (retired)'
      : s.canUnstake
        ? 'possible now'
        : s.unstakeEpoch !== null
          ? `from epoch ${s.unstakeEpoch}`
          : s.status === 'PendingExit'
            ? 'from exit epoch + 1, once Exited'
            : s.status === 'Undefined'
              ? '-'
              : 'after exit (tnv exit)'
    const rows: [string, string][] = [
      ['validator', s.address],
      ['network', `${s.chain.name} (chain id ${s.chain.chainId}, ${s.chain.rpcUrl})`],
      ['whitelisted', yesNo(s.whitelisted)],
      ['status', s.status],
      ['activation epoch', s.status === 'Undefined' || s.status === 'Staked' ? '-' : String(s.activationEpoch)],
      ['exit epoch', s.exitEpoch === 0 ? '-' : String(s.exitEpoch)],
      ['current epoch', epochLine],
      ['unstake', unstakeLine],
      ['rewards', formatTelAndWei(BigInt(s.rewards))],
      ['stake', `${formatTelAndWei(BigInt(s.stakeAmount))} (stake version ${s.stakeVersion})`],
      ['delegated', yesNo(s.delegated)],
      ['retired', yesNo(s.retired)],
      ['in committee', yesNo(s.inCommittee)],
      ['bls public key', s.blsPubkey ?? '-'],
      ...(BigInt(s.refund) > 0n ? [['refund to claim', formatTelAndWei(BigInt(s.refund))] as [string, string]] : []),
    ]
    const width = Math.max(...rows.map(([label]) => label.length))
    for (const [label, value] of rows) this.out(`${label.padEnd(width)}  ${value}`)
    return s
  }
}
