import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags } from '../../cli/flags/chain.js'
import { datadirFlag } from '../../cli/flags/common.js'
import type { ValidatorStatus } from '../../lib/registry/read-validator-status.js'

export default class ValidatorStatusCommand extends BaseCommand {
  static override summary = "Show a validator's on-chain state: whitelist, status, epochs, rewards, stake."

  static override description =
    `The validator is --address, or the execution_address of node-info.yaml in --datadir. Shows the registry generation found at the address (detected from its code), whether the validator is whitelisted (holds a ConsensusNFT; an address that never held one is "not whitelisted"), its status (Undefined, Staked, PendingActivation, Active, PendingExit, Exited, or Retired for status 6 with isRetired), activation and exit epochs ("not set" where the registry holds its uint32-max sentinel), the current epoch, when unstake becomes possible (exit epoch + 1), rewards and the Issuance pool that pays them, stake version and amount, delegated, the delegation nonce (read through the registry's digest: no view exposes it) and, on the next generation, refunds. The delegator's address is not shown: neither registry has a view for it. Reads only; two batched round trips.

--json prints the same fields as one object (wei amounts as decimal strings; what the registry does not have is null).`

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

  async run(): Promise<ValidatorStatus & { blsPubkeyBase58: string | null }> {
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
    const { encodeBase58 } = await import('../../lib/nodeinfo/base58.js')
    const ctx = await support.openRegistryContext(flags)
    const s = await readValidatorStatus(ctx, { address })
    support.noteRegistry(s.registry, (line) => this.note(line))
    const yesNo = (b: boolean) => (b ? 'yes' : 'no')
    const tel = (wei: string | null, missing: string) => (wei === null ? missing : formatTelAndWei(BigInt(wei)))
    const length =
      s.epochSecondsSource === 'rehearsal'
        ? `epochs of ${s.epochSeconds} s: a devnet rehearsal setting; the registry says ${s.epochDuration} s`
        : `epochs of ${s.epochDuration} s`
    const epochLine =
      s.nextEpochTime !== null
        ? `${s.currentEpoch} (started at block ${s.epochStartBlock}; next epoch due ${new Date(s.nextEpochTime * 1000).toISOString()}, ${length})`
        : `${s.currentEpoch} (started at block ${s.epochStartBlock}; ${length})`
    const unstakeLine =
      s.status === 'Retired'
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
    const notSet = (e: number | null, unset: string) => (e === null ? unset : String(e))
    const pool = BigInt(s.rewardPool)
    const rows: [string, string][] = [
      ['validator', s.address],
      ['network', `${s.chain.name} (chain id ${s.chain.chainId}, ${s.chain.rpcUrl})`],
      [
        'registry',
        s.registry.generation === null
          ? `not recognised (code hash ${s.registry.codeHash})`
          : `${s.registry.generation}${s.registry.match === 'exact' ? '' : ` (unknown build ${s.registry.codeHash})`}`,
      ],
      ['whitelisted', s.whitelisted ? 'yes' : s.status === 'Retired' ? 'no (retired)' : 'no (holds no ConsensusNFT)'],
      ['status', s.status],
      ['activation epoch', s.status === 'Undefined' ? '-' : notSet(s.activationEpoch, 'not set')],
      ['exit epoch', s.status === 'PendingExit' ? 'not set (PendingExit)' : notSet(s.exitEpoch, '-')],
      ['current epoch', epochLine],
      ['unstake', unstakeLine],
      ['rewards', formatTelAndWei(BigInt(s.rewards))],
      ...(s.claimableRewards !== null && s.claimableRewards !== '0'
        ? [['claimableRewards()', formatTelAndWei(BigInt(s.claimableRewards))] as [string, string]]
        : []),
      [
        'reward pool',
        `${formatTelAndWei(pool)}${pool === 0n ? ' (empty: claims revert until governance funds it)' : pool < BigInt(s.rewards) ? ' (less than the rewards owed)' : ''}`,
      ],
      // stakeAmount is the current version's required amount, not what the registry holds for this
      // validator: a retired validator was paid out, one that never staked holds nothing
      [
        'stake',
        s.status === 'Retired'
          ? `none: paid out at unstake (the registry holds ${formatTelAndWei(BigInt(s.balance))} for it)`
          : s.status === 'Undefined'
            ? `not staked (the stake amount is ${formatTelAndWei(BigInt(s.stakeAmount))}, stake version ${s.stakeVersion})`
            : `${formatTelAndWei(BigInt(s.stakeAmount))} (stake version ${s.stakeVersion})`,
      ],
      ['delegated', s.delegated ? 'yes (the registry has no view naming the delegator)' : 'no'],
      ['delegation nonce', s.delegationNonce ?? '-'],
      ['retired', yesNo(s.retired)],
      ['in committee', yesNo(s.inCommittee)],
      ['bls public key', s.blsPubkey ?? '-'],
      ...(s.blsPubkey
        ? [['bls key (base58)', encodeBase58(Buffer.from(s.blsPubkey.slice(2), 'hex'))] as [string, string]]
        : []),
      ['refund to claim', tel(s.refund, 'none (this registry keeps no refunds)')],
    ]
    const width = Math.max(...rows.map(([label]) => label.length))
    for (const [label, value] of rows) this.out(`${label.padEnd(width)}  ${value}`)
    // keys in tnv's one JSON shape: hex under the plain name, base58 (node-info.yaml's) beside
    return { ...s, blsPubkeyBase58: s.blsPubkey ? encodeBase58(Buffer.from(s.blsPubkey.slice(2), 'hex')) : null }
  }
}
