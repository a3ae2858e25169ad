import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Flags, type Interfaces } from '@oclif/core'
import type { Address, Hex } from 'viem'
import { BaseCommand } from '../cli/base-command.js'
import { skipBackupCheckFlag } from '../cli/flags/backup-gate.js'
import { chainFlags, signerFlags, txFlags } from '../cli/flags/chain.js'
import { passphraseFlags } from '../cli/flags/common.js'
import { p2pAddressFlags } from '../cli/flags/keytool.js'
import { stakeFlowFlags } from '../cli/flags/onboard.js'
import { keyMaterialFlags } from '../cli/flags/registry.js'
import type { StakeFlowReturnType } from '../lib/onboard/stake-flow.js'
import type { StakeReturnType } from '../lib/registry/stake.js'
import type { RegistryContext } from '../lib/registry/types.js'

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

  static override flags = {
    ...keyMaterialFlags,
    ...chainFlags,
    ...signerFlags,
    ...txFlags,
    ...stakeFlowFlags,
    ...passphraseFlags,
    ...p2pAddressFlags,
    ...skipBackupCheckFlag,
    'offline-bundle': Flags.string({
      helpValue: '<file>',
      summary:
        'The funding key is on an offline machine: write the stake bundle to FILE (exit 32, waiting for the offline signature); run again once `tnv offline sign FILE` wrote its signed file beside it, to broadcast it. docs/offline.md',
      exclusive: ['private-key', 'keystore', 'unsigned', 'ledger', 'trezor'],
    }),
  }

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
    const safeFlags = interactive ? await this.offerSafeBatch(flags) : null
    if (safeFlags) return this.stakeOnly(safeFlags)
    return this.stakeFlow(flags)
  }

  /** The onboarding flow (the wizard on a terminal, --through without one): the library's `runStakeFlow`. */
  private async stakeFlow(flags: StakeFlags): Promise<StakeFlowReturnType> {
    this.jsonLines = this.jsonEnabled()
    this.session.output = this.jsonLines ? 'json-lines' : 'human'
    const io = await this.session.wizardIo(this.jsonLines ? 'json-lines' : 'human')
    const { onInterrupt } = await import('../cli/wizard-io.js')
    onInterrupt(io)
    // the data directory is this run's until the stake is settled: no key commit can slip in
    // between the key check and the stake (released by the flow once staked)
    const dir = await this.session.openDatadir(
      flags['node-info'] === undefined ? flags.datadir : await keyDirOf(flags['node-info']),
    )
    if (dir.recovered.action !== 'none') this.note(recoveredNote(dir.recovered, dir.datadir))
    const { runStakeFlow } = await import('../lib/onboard/stake-flow.js')
    if (flags['bls-pubkey'] !== undefined)
      this.note('Note: --bls-pubkey/--pop are used by the plain stake only; the flow reads node-info.yaml.')
    const result = await runStakeFlow(io, {
      datadir: flags.datadir,
      nodeInfo: flags['node-info'],
      through: flags.through,
      chain: flags,
      signer: flags,
      yes: flags.yes,
      createKeys: flags['create-keys'],
      passphraseSource: flags['bls-passphrase-source'],
      envPassphrase:
        flags['bls-passphrase-source'] === 'env' ? this.session.takeEnvSecret('TN_BLS_PASSPHRASE') : undefined,
      env: this.session.signerEnv(),
      externalPrimaryAddr: flags['external-primary-addr'],
      externalWorkerAddrs: flags['external-worker-addrs'],
      offlineBundle: flags['offline-bundle'],
      mint: flags.mint,
      rehearsalMint: (validator) => this.rehearsalMint(validator),
      whitelistWaitSeconds: flags['whitelist-wait'],
      nodeRpcUrl: flags['node-rpc-url'],
      startNode: flags['start-node'],
      nodeBinary: flags['node-binary'],
      timeoutSeconds: flags.timeout,
      skipBackupCheck: flags['skip-backup-check'],
      devnetRelaxed: flags['devnet-relaxed'],
      terminal: (text) => process.stderr.write(text),
      releaseDatadir: () => dir.release(),
    })
    this.renderFlow(result)
    if (result.offline) {
      // the stake (or activate) is not done: never exit 0 for it (docs/decisions.md "The stake wizard's offline path")
      const { ExitCode } = await import('../lib/errors.js')
      process.exitCode = ExitCode.AwaitingOfflineSignature
    }
    return result
  }

  /** The devnet's REHEARSAL-ONLY mint (the devnet node impersonates the registry owner). */
  private async rehearsalMint(validator: Address): Promise<{ txHash: Hex | null; owner: Address }> {
    const [{ defaultDevnetDir }, { rehearseGovernance }] = await Promise.all([
      import('../devnet/paths.js'),
      import('../devnet/node/governance-client.js'),
    ])
    const r = await rehearseGovernance(defaultDevnetDir(this.session.env), { action: 'mint', validator })
    return { txHash: r.txHash, owner: r.owner }
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

  /**
   * When node-info's execution address holds code, no private key can sign for it: the wizard
   * says what it is (a Safe: version, threshold) and offers the onboarding as a Safe
   * Transaction Builder batch instead of asking for a key. Null: not a contract, or declined.
   */
  private async offerSafeBatch(flags: StakeFlags): Promise<StakeFlags | null> {
    if (
      flags.unsigned ||
      flags['private-key'] !== undefined ||
      flags.keystore !== undefined ||
      flags['offline-bundle'] !== undefined
    )
      return null
    const [{ readNodeInfo }, support, { readAccountKind }] = await Promise.all([
      import('../lib/nodeinfo/read.js'),
      import('../lib/registry/command-support.js'),
      import('../lib/safe/account-kind.js'),
    ])
    const address = await readNodeInfo(flags['node-info'] ?? flags.datadir).then(
      (r) => r.info.executionAddress,
      () => null,
    )
    if (address === null) return null
    const kind = await support
      .openRegistryContext(flags)
      .then((ctx) => readAccountKind(ctx.client, address))
      .catch(() => null)
    if (kind?.kind !== 'contract') return null
    this.note(
      kind.safe
        ? `${address} is a Safe ${kind.safe.version} (${kind.safe.threshold} of ${kind.safe.owners.length} owners confirm): no private key signs for it.`
        : `${address} is a contract, not an account: no private key signs for it.`,
    )
    const prompter = this.session.prompter
    if (
      !(await prompter.confirm(
        'Write the onboarding (stake, then activate) as a Safe Transaction Builder batch for its owners?',
        true,
      ))
    )
      return null
    const out = await prompter.input('Batch file', { default: 'tnv-onboarding.safe.json' })
    return { ...flags, unsigned: true, format: 'safe', through: 'active', out: out.trim() }
  }

  /**
   * The plain `tnv stake` (no terminal, no --through) and the Safe batch (--format safe): the
   * key material, the signer, the backup gate, then the one library operation, `stake`. Journaled.
   */
  private async stakeOnly(flags: StakeFlags): Promise<StakeReturnType> {
    const { assertSafeFormat } = await import('../cli/safe-output.js')
    const safe = assertSafeFormat(flags)
    const [{ stake }, support, cli, { adiriProofSigner }, { backupGate, gatedConfirm }] = await Promise.all([
      import('../lib/registry/stake.js'),
      import('../lib/registry/command-support.js'),
      import('../cli/registry-step.js'),
      import('../lib/registry/adiri-proof-signer.js'),
      import('../cli/backup-gate.js'),
    ])
    const note = (line: string) => this.note(line)
    const keys = await this.keyMaterial(flags)
    const ctx = await support.openRegistryContext(flags)
    const { withOfflineBundleFix } = await import('../lib/onboard/errors.js')
    const signer = await cli
      .signerFromFlags(this.session, flags, { action: 'stake', defaultFrom: keys.executionAddress })
      .catch((err: unknown) => {
        throw withOfflineBundleFix(err)
      })
    const passphrase = {
      source: flags['bls-passphrase-source'],
      stdin: this.session.stdin(),
      io: this.session.passphraseIo(),
      env: this.session.passphraseEnv(flags['bls-passphrase-source']),
    }
    await this.checkKeyOnDisk(keys, passphrase)
    // before the key is bound for good: a verified backup or a confirmed phrase (issue 18)
    const keyDir = keys.nodeInfoPath ? keys.keyDir : null
    const gate = backupGate({
      datadir: keyDir ?? flags.datadir,
      publicKey: keys.blsPubkey,
      skip: flags['skip-backup-check'],
      relaxed: flags['devnet-relaxed'],
      action: 'the stake',
      note,
    })
    const result = await stake(ctx, {
      signer,
      blsPubkey: keys.blsPubkey,
      proofOfPossession: keys.proofOfPossession,
      adiriSignature: keys.adiriSignature,
      executionAddress: keys.executionAddress,
      signAdiriProof: adiriProofSigner({ datadir: keys.keyDir, ...passphrase, note }),
      report: this.session.reporter(),
      confirm: gatedConfirm(cli.stepConfirm(this.session, flags), gate),
      // the journal sits beside node-info.yaml; key material given as hex has no data directory
      journal: cli.stepJournal(this.session, { from: signer.address, datadir: keyDir, timeoutSeconds: flags.timeout }),
    })
    if (result.outcome === 'unsigned') await gate(result.chain.chainId)
    if (safe) return this.writeOnboardingBatch(ctx, flags, result)
    await this.renderStake(result)
    return result
  }

  /**
   * The key material: from node-info.yaml, whose data directory is locked (and a half-finished key
   * commit repaired) before it is read and held until the stake is settled; or from the flags.
   */
  private async keyMaterial(flags: StakeFlags): Promise<KeyMaterial> {
    // --check only reads: no lock is taken and no interrupted key commit is repaired
    if (flags['bls-pubkey'] === undefined && !flags.check) {
      const dir = await this.session.openDatadir(
        flags['node-info'] === undefined ? flags.datadir : await keyDirOf(flags['node-info']),
      )
      if (dir.recovered.action !== 'none') this.note(recoveredNote(dir.recovered, dir.datadir))
    }
    const { keyMaterialFromFlags } = await import('../lib/registry/key-material.js')
    const keys = await keyMaterialFromFlags(flags)
    if (keys.nodeInfoPath)
      this.note(`Key material from ${keys.nodeInfoPath} (execution address ${keys.executionAddress}).`)
    return keys
  }

  /** node-info.yaml's key must be the key on disk (a kill in an older key commit, or files copied by hand). */
  private async checkKeyOnDisk(
    keys: KeyMaterial,
    passphrase: Pick<
      Parameters<typeof import('../lib/keys/key-binding.js').assertKeyOnDisk>[0],
      'source' | 'stdin' | 'io' | 'env'
    >,
  ): Promise<void> {
    if (!keys.nodeInfoPath) return
    const { assertKeyOnDisk } = await import('../lib/keys/key-binding.js')
    const how = await assertKeyOnDisk({
      datadir: keys.keyDir,
      nodeInfoKey: Buffer.from(keys.blsPubkey.slice(2), 'hex'),
      ...passphrase,
    })
    if (how === 'match') this.note(`- the key in ${keys.keyDir}/node-keys is the key node-info.yaml records`)
  }

  /** --format safe: the onboarding as the Safe executes it (stake, then with --through active the activate). */
  private async writeOnboardingBatch(
    ctx: RegistryContext,
    flags: StakeFlags,
    result: StakeReturnType,
  ): Promise<StakeReturnType> {
    const [{ onboardingCalls }, { writeSafeBatch }] = await Promise.all([
      import('../lib/registry/onboarding-calls.js'),
      import('../cli/safe-output.js'),
    ])
    if (result.outcome === 'already-done') this.note(result.message)
    const { calls, name } = onboardingCalls({ stake: result, through: flags.through })
    if (calls.length === 0) {
      this.out(`Nothing to put in a batch: ${result.validator} is staked already.`)
      return result
    }
    const batch = await writeSafeBatch({
      ctx,
      flags,
      chainId: result.chain.chainId,
      safe: result.validator,
      calls,
      name,
      out: (line) => this.out(line),
      note: (line) => this.note(line),
    })
    return Object.assign(result, { safe: batch })
  }

  private async renderStake(result: StakeReturnType): Promise<void> {
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
  }
}

type StakeFlags = Interfaces.InferredFlags<typeof Stake.flags>
type KeyMaterial = Awaited<ReturnType<typeof import('../lib/registry/key-material.js').keyMaterialFromFlags>>

/** The data directory of a --node-info value (a node-info.yaml file, or the directory holding it). */
async function keyDirOf(nodeInfo: string): Promise<string> {
  // node builtins statically: a dynamic import() of one fails inside the single executable
  const s = await stat(nodeInfo).catch(() => undefined)
  return s?.isFile() ? dirname(nodeInfo) : nodeInfo
}

function recoveredNote(
  r: Exclude<import('../lib/keys/commit-files.js').RecoverCommitReturnType, { action: 'none' }>,
  datadir: string,
): string {
  return r.action === 'rolled-forward'
    ? `Note: a key commit in ${datadir} started at ${r.startedAt} was interrupted; it was completed now (the replaced files are in ${r.backupDir ?? 'no backup: nothing was replaced'}).`
    : `Note: an interrupted key write in ${datadir} was undone (${r.removed.length} leftover${r.removed.length === 1 ? '' : 's'} removed); the directory is as it was before it.`
}
