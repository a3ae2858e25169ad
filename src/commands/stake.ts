import { BaseCommand } from '../cli/base-command.js'
import { type StakeFlags, stakeFlags } from '../cli/flags/stake.js'
import type { StakeFlowReturnType } from '../lib/onboard/stake-flow.js'
import type { StakeReturnType } from '../lib/registry/stake.js'

export default class Stake extends BaseCommand {
  static override summary =
    'Stake a validator: on a terminal, a wizard from nothing to Active; in CI, the same flow from flags.'

  static override description =
    `On a terminal (stdin, stdout and stderr, and no --non-interactive) it is a wizard: it finds node-info.yaml in --datadir or offers to generate keys, asks for the network and the signer, shows the identity and the prerequisites (static IP, UDP ports 49590 and 49594, node binary, balance), waits for governance's ConsensusNFT (on the devnet it offers to mint it), shows the stake amount in TEL and wei and asks (default No), stakes, starts or attaches to the node and waits until it is synced, activates, and follows PendingActivation to Active across the epoch boundary.

Without a terminal every answer comes from flags and the environment, and a missing one is an error naming the flag. By default it stops after the stake: checks (signer = node-info's execution_address, proof of possession, ConsensusNFT, not staked, key not registered, balance), simulation, the amount (stakeAmount of stakeConfig(getCurrentStakeVersion())), send, receipt. --through active continues to Active.

The registry generation is detected from the code at the registry address. On the next generation (the specification's) node-info.yaml's proof of possession is sent as it is. On adiri (the test network's registry) the registry checks a proof over its own 218-byte message with the uncompressed key, which node-info.yaml does not hold: tnv signs it with the BLS key in the data directory, asking for the passphrase source (--bls-passphrase-source) only then, or takes it from --adiri-pop. Code tnv does not recognise is refused (exit 12); see --registry-generation and --accept-registry-code.

Resumable and safe to repeat: each run reads the chain first and continues from the right step; every transaction sent is recorded in <datadir>/tnv-journal.json, and a rerun waits for one whose outcome is unknown instead of sending another. With --through, --json prints one JSON object per progress event and the result object as the last line. Exit codes per failure class: docs/ci.md.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>   # the wizard, on a terminal',
    '<%= config.bin %> <%= command.id %> --chain devnet --datadir ./validator-1',
    'TN_PRIVATE_KEY=… TN_BLS_PASSPHRASE=… <%= config.bin %> <%= command.id %> --chain devnet --datadir ./v1 --create-keys --mint --through active --start-node --yes --json',
    'TN_KEYSTORE_PASSWORD=… <%= config.bin %> <%= command.id %> --chain testnet --keystore ~/.foundry/keystores/validator --through active --node-rpc-url http://127.0.0.1:8545',
    '<%= config.bin %> <%= command.id %> --chain testnet --unsigned   # print the transaction for a multisig or hardware wallet',
    '<%= config.bin %> <%= command.id %> --chain testnet --datadir ./v --offline-bundle v.stake.bundle.json   # key offline: write the bundle (exit 32); run again once signed to broadcast',
    '<%= config.bin %> <%= command.id %> --chain devnet --datadir ./validator-1 --check --json   # what it would send; nothing is sent',
  ]

  static override flags = stakeFlags

  async run(): Promise<StakeReturnType | StakeFlowReturnType> {
    const { flags } = await this.parse(Stake)
    const { interactive } = this.session
    if (flags.mint && flags.through === undefined && (!interactive || flags.format === 'safe')) {
      const { MintNeedsFlowError } = await import('../lib/onboard/errors.js')
      throw new MintNeedsFlowError()
    }
    if (flags.check) {
      // --check: the one step that can be sent now, checked; the flow's later steps wait on the chain
      if (flags.through !== undefined) {
        const { UsageError } = await import('../lib/errors.js')
        throw new UsageError(
          '--check checks the one step that can be sent now (the stake); --through waits across steps.',
          {
            fix: 'Drop --through: `tnv stake --check`, and once staked `tnv activate --check`.',
          },
        )
      }
      return this.stakeOnly(flags)
    }
    // --format safe: the stake (and with --through active the activate after it) as one Safe batch
    if (
      (!interactive && flags.through === undefined && flags['offline-bundle'] === undefined) ||
      flags.format === 'safe'
    )
      return this.stakeOnly(flags)
    // the wizard, for a validator address that is a contract (a Safe): no key can sign for it
    const safeFlags = interactive
      ? await (await import('../cli/stake-command.js')).offerSafeBatch(this.session, flags, (line) => this.note(line))
      : null
    if (safeFlags) return this.stakeOnly(safeFlags)
    return this.stakeFlow(flags)
  }

  /** The onboarding flow (the wizard on a terminal, --through without one), rendered. */
  private async stakeFlow(flags: StakeFlags): Promise<StakeFlowReturnType> {
    this.jsonLines = this.jsonEnabled()
    this.session.output = this.jsonLines ? 'json-lines' : 'human'
    const { stakeFlow } = await import('../cli/stake-command.js')
    const result = await stakeFlow(this.session, flags, this.jsonLines, (line) => this.note(line))
    this.renderFlow(result)
    if (result.offline) {
      // the stake (or activate) is not done: never exit 0 for it (docs/decisions.md "The stake wizard's offline path")
      const { ExitCode } = await import('../lib/errors.js')
      process.exitCode = ExitCode.AwaitingOfflineSignature
    }
    return result
  }

  private renderFlow(result: StakeFlowReturnType): void {
    if (result.unsigned) {
      const { cast, ...tx } = result.unsigned
      this.out(JSON.stringify(tx, null, 2))
      this.out(cast)
    } else if (result.offline)
      this.out(
        `${result.validator} is ${result.status} on ${result.chain.name}: the ${result.offline.step} waits for its offline signature (${result.offline.bundle}).`,
      )
    else
      this.out(
        `${result.validator} is ${result.status} on ${result.chain.name} (epoch ${result.epoch}). Steps: ${result.steps.map((s) => `${s.step} ${s.outcome}`).join(', ') || 'none needed'}.`,
      )
    if (result.node?.how === 'started')
      this.note(
        `The node tnv started keeps running (pid ${result.node.pid}, log ${result.node.logFile}); stop it with \`tnv node stop --datadir ${result.datadir}\`.`,
      )
    if (result.through === 'staked' && result.status === 'Staked')
      this.note('Next: once the node is synced, run `tnv stake --through active` (or `tnv activate`).')
  }

  /** The plain `tnv stake` and the Safe batch (--format safe), rendered. */
  private async stakeOnly(flags: StakeFlags): Promise<StakeReturnType> {
    const { assertSafeFormat } = await import('../cli/safe-output.js')
    const safe = assertSafeFormat(flags)
    const { stakeOnly, writeOnboardingBatch } = await import('../cli/stake-command.js')
    const note = (line: string) => this.note(line)
    const staked = await stakeOnly(this.session, flags, note)
    if (safe) return writeOnboardingBatch(staked, flags, { note, out: (line) => this.out(line) })
    const { result } = staked
    const [support, { formatTelAndWei }] = await Promise.all([
      import('../lib/registry/command-support.js'),
      import('../lib/chain/units.js'),
    ])
    for (const line of support.outcomeLines(
      result,
      (sent) =>
        `Staked ${formatTelAndWei(BigInt(result.stakeAmount))} for ${result.validator} on ${result.chain.name} (${result.registry.generation} registry): transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    ))
      this.out(line)
    if (result.outcome === 'sent') this.note('Next: once the node is synced, run `tnv activate`.')
    return result
  }
}
