/**
 * `tnv stake` from nothing to Active, as one resumable flow (a wizard on a terminal, flags
 * and env in CI): keys → network → signer → identity and prerequisites → whitelist (wait for
 * governance, or mint on the devnet) → stake → node started or attached, synced → activate →
 * PendingActivation followed to Active across the epoch boundary.
 *
 * Every run reads the chain first and starts at the step the chain calls for; every
 * transaction goes through the journal (../wizard/journaled-step.ts), so a rerun after a kill
 * waits for what was sent instead of sending it again. Nothing here prints: progress goes
 * through the WizardIo (human lines, spinners, prompts, or JSON lines).
 */
import { dirname } from 'node:path'
import type { Address, Hex } from 'viem'
import { DEVNET_CHAIN_ID } from '../chain/addresses.js'
import type { ChainInfo } from '../chain/check-chain-id.js'
import type { UnsignedTransaction } from '../chain/transaction.js'
import { formatTelAndWei } from '../chain/units.js'
import { errorMessage } from '../errors.js'
import type { NodeInfo } from '../nodeinfo/types.js'
import type { ChainFlagValues, PassphraseSource, SignerFlagValues } from '../options.js'
import {
  AddressRetiredError,
  ConfirmationRequiredError,
  NotWhitelistedError,
  SignerMismatchError,
  WrongStatusError,
} from '../registry/errors.js'
import type { ValidatorStatus } from '../registry/read-validator-status.js'
import type { RegistryContext } from '../registry/types.js'
import { journalsFor } from '../tx/journal.js'
import { type StepJournal, settleJournal } from '../tx/run-step.js'
import type { WizardIo } from '../wizard/io.js'
import { wizardReporter } from '../wizard/reporter.js'
import { wizardConfirm } from './confirm.js'
import { ensureBackup } from './ensure-backup.js'
import { createKeys, findKeys } from './ensure-keys.js'
import { type EnsureNodeReturnType, ensureNode, waitForNodeSync } from './ensure-node.js'
import { epochProgress, followStatus } from './follow-status.js'
import { pickNetwork } from './pick-network.js'
import { pickSigner } from './pick-signer.js'
import { checkPrerequisites } from './prerequisites.js'
import { rememberSignerChoice, type SignerChoice } from './signer-memory.js'
import { resumedOf, type StepRecord, stepRecord } from './steps.js'

export const STAKE_THROUGH = ['staked', 'active'] as const
export type StakeThrough = (typeof STAKE_THROUGH)[number]

export type StakeFlowParameters = {
  datadir: string
  nodeInfo?: string | undefined
  /** undefined: asked on a terminal (default active); staked without one (issue 6's contract). */
  through?: StakeThrough | undefined
  chain: ChainFlagValues
  signer: SignerFlagValues
  yes: boolean
  createKeys: boolean
  passphraseSource: PassphraseSource
  externalPrimaryAddr?: string | undefined
  externalWorkerAddrs?: string | undefined
  /** On the devnet: whitelist by the devnet's rehearsal mint without asking. */
  mint: boolean
  /**
   * On the devnet: the devnet's REHEARSAL-ONLY mint (the devnet node impersonates the registry
   * owner). Given by the command layer, which may reach the devnet; absent elsewhere.
   */
  rehearsalMint?: ((validator: Address) => Promise<{ txHash: Hex | null; owner: Address }>) | undefined
  /** Seconds to wait for governance's ConsensusNFT without a terminal (0: fail at once, exit 20). */
  whitelistWaitSeconds: number
  nodeRpcUrl?: string | undefined
  startNode: boolean
  nodeBinary?: string | undefined
  /** Longest wait for each of: sync, activation, a pending transaction. */
  timeoutSeconds: number
  /** Lets go of the data directory's lock once the stake is settled (the rest of the flow only waits). */
  releaseDatadir?: (() => Promise<void>) | undefined
  /** --skip-backup-check: stake without a verified backup or confirmed phrase (with a warning). */
  skipBackupCheck?: boolean | undefined
  /** --devnet-relaxed: on the rehearsal chain id only, no backup gate and no recovery-phrase offer. */
  devnetRelaxed?: boolean | undefined
  /** The terminal (stderr) a recovery phrase is shown on, when the wizard makes keys from one. */
  terminal?: ((text: string) => void) | undefined
}

export type StakeFlowReturnType = {
  validator: Address
  chain: ChainInfo
  datadir: string
  nodeInfo: string
  through: StakeThrough
  /** On-chain status when the flow ended. */
  status: ValidatorStatus['status']
  epoch: number
  steps: StepRecord[]
  node: EnsureNodeReturnType | null
  /** The stake transaction for another wallet (--unsigned); the flow stops there. */
  unsigned?: UnsignedTransaction
}

export async function runStakeFlow(io: WizardIo, p: StakeFlowParameters): Promise<StakeFlowReturnType> {
  const [
    support,
    { readValidatorStatus },
    { stake },
    { activate },
    { identityView, formatIdentity },
    { adiriProofSigner },
  ] = await Promise.all([
    import('../registry/command-support.js'),
    import('../registry/read-validator-status.js'),
    import('../registry/stake.js'),
    import('../registry/activate.js'),
    import('../keys/identity.js'),
    import('../registry/adiri-proof-signer.js'),
  ])
  const steps: StepRecord[] = []
  const timeoutMs = p.timeoutSeconds * 1000

  // 1. keys present? (created below, once the signer's address is known)
  let keys = await findKeys({ datadir: p.datadir, nodeInfo: p.nodeInfo })
  if (keys) io.emit({ event: 'keys', nodeInfo: keys.path }, `Validator keys: ${keys.path}`)

  // 2. network, 3. signer
  const chainFlags = await pickNetwork(io, p.chain)
  const ctx: RegistryContext = await support.openRegistryContext(chainFlags)
  // A rerun reads the state before asking anything else: a validator already Active needs no
  // signer, key or plan (issue 16). What earlier runs signed is settled first (the journal holds
  // the signed bytes: no signer is needed to wait for them or send them again).
  if (keys) {
    await settleJournal({
      client: ctx.client,
      rpcUrl: ctx.target.rpcUrl,
      from: keys.info.executionAddress,
      journal: {
        journals: journalsFor({ datadir: p.datadir, from: keys.info.executionAddress }),
        command: 'tnv stake',
        timeoutMs,
      },
      report: wizardReporter(io, 'journal', new Map()),
    })
    const known = await readValidatorStatus(ctx, { address: keys.info.executionAddress })
    if (known.status === 'Active') {
      io.emit(
        {
          event: 'state',
          validator: known.address,
          chain: known.chain,
          status: known.status,
          epoch: known.currentEpoch,
          exitEpoch: known.exitEpoch,
        },
        `${known.address} is already Active on ${known.chain.name} (epoch ${known.currentEpoch}): nothing to do. \`tnv validator status\` shows its state; \`tnv exit\` begins an exit.`,
      )
      return {
        validator: known.address,
        chain: known.chain,
        datadir: p.datadir,
        nodeInfo: keys.path,
        through: p.through ?? 'active',
        status: known.status,
        epoch: known.currentEpoch,
        steps: [],
        node: null,
      }
    }
  }
  let signerChoice: SignerChoice | undefined
  const signer = await pickSigner(io, {
    action: 'stake',
    flags: p.signer,
    defaultFrom: keys?.info.executionAddress,
    datadir: p.datadir,
    onChosen: (c) => {
      signerChoice = c
    },
  })
  const validator = signer.address
  io.emit(
    { event: 'signer', address: validator, type: signer.type, network: ctx.target.name, rpcUrl: ctx.target.rpcUrl },
    `Network ${ctx.target.name} (${ctx.target.rpcUrl}); validator address ${validator}${signer.type === 'unsigned' ? ' (unsigned: transactions are printed, not sent)' : ''}.`,
  )
  // the passphrase of keys created in this run, for the node tnv may start (never printed)
  let nodePassphrase: string | null = null
  if (!keys) {
    const created = await createKeys(io, {
      datadir: p.datadir,
      address: validator,
      create: p.createKeys,
      passphraseSource: p.passphraseSource,
      externalPrimaryAddr: p.externalPrimaryAddr,
      externalWorkerAddrs: p.externalWorkerAddrs,
      // a recovery phrase is offered (and recommended) on every network, the devnet included,
      // unless --devnet-relaxed says otherwise on the rehearsal chain
      offerPhrase: !(p.devnetRelaxed === true && ctx.target.expectedChainId === DEVNET_CHAIN_ID),
      terminal: p.terminal,
    })
    keys = created
    nodePassphrase = created.passphrase
    // the data directory exists only now: remember the signer chosen at the prompts
    if (signerChoice) await rememberSignerChoice(p.datadir, signerChoice).catch(() => {})
    steps.push({ step: 'keys', outcome: 'done' })
  }
  const info: NodeInfo = keys.info
  if (info.executionAddress.toLowerCase() !== validator.toLowerCase())
    throw new SignerMismatchError({ signer: validator, executionAddress: info.executionAddress })
  // the key on disk must be the key node-info.yaml records (a kill in an older key commit, or
  // files copied by hand, could leave them apart): refused with how to repair
  {
    const { assertKeyOnDisk } = await import('../keys/key-binding.js')
    const env: NodeJS.ProcessEnv = {
      TN_BLS_PASSPHRASE: nodePassphrase ?? process.env.TN_BLS_PASSPHRASE,
    }
    const had = env.TN_BLS_PASSPHRASE
    await assertKeyOnDisk({
      datadir: dirname(keys.path),
      nodeInfoKey: info.blsPublicKey,
      source: nodePassphrase !== null ? 'env' : p.passphraseSource,
      stdin: io.stdin(),
      io: { isTTY: io.interactive, ask: (m) => io.secret(m) },
      env,
    })
    // the key was opened with TN_BLS_PASSPHRASE (read, so removed from tnv's environment, as
    // every read does): tnv keeps it in memory for the adiri proof and the node it may start
    if (nodePassphrase === null && had && env.TN_BLS_PASSPHRASE === undefined) {
      nodePassphrase = had
      delete process.env.TN_BLS_PASSPHRASE
    }
  }

  // every transaction of this run is journaled in the data directory (and the sender's state
  // journal is settled too); --unsigned writes nothing
  const journal: StepJournal = {
    journals: journalsFor({ datadir: p.datadir, from: validator }),
    command: 'tnv stake',
    timeoutMs,
  }
  const resumed = new Map<string, Hex>()
  // 4. state first (after what earlier runs sent): everything after depends on it
  if (signer.type === 'local')
    await settleJournal({
      client: ctx.client,
      rpcUrl: ctx.target.rpcUrl,
      from: validator,
      journal,
      report: wizardReporter(io, 'journal', resumed),
    })
  let status = await readValidatorStatus(ctx, { address: validator })
  const chain = status.chain
  const balance = await ctx.client.getBalance({ address: validator })
  const view = identityView(info)
  const nodeBinary = await import('../node/binary.js').then(({ resolveNodeBinary }) => {
    try {
      return { path: resolveNodeBinary({ ...(p.nodeBinary !== undefined ? { flag: p.nodeBinary } : {}) }).path }
    } catch (err) {
      return { error: errorMessage(err) }
    }
  })
  const prereqs = checkPrerequisites({
    info,
    nodeBinary,
    balance,
    stakeAmount: BigInt(status.stakeAmount),
    staked: status.status !== 'Undefined',
  })
  io.emit(
    {
      event: 'identity',
      validator,
      chain,
      blsPublicKey: view.blsPublicKey,
      blsPublicKeyBase58: view.blsPublicKeyBase58,
      primary: view.primary.networkAddress,
      workers: view.workers.map((w) => w.networkAddress),
      status: status.status,
      whitelisted: status.whitelisted,
      epoch: status.currentEpoch,
      balance: balance.toString(),
      stakeAmount: status.stakeAmount,
      prerequisites: prereqs,
    },
    [
      '',
      ...formatIdentity(view).map((l) => `  ${l}`),
      '',
      'Prerequisites:',
      ...prereqs.map((r) => `  ${r.ok === true ? '[ok]' : r.ok === false ? '[!!]' : '[  ]'} ${r.detail}`),
      '',
      `On chain (${chain.name}, chain id ${chain.chainId}, epoch ${status.currentEpoch}): ${status.status}${status.whitelisted ? ', whitelisted' : ', not whitelisted'}.`,
    ],
  )
  if (status.retired)
    throw new WrongStatusError(
      `${validator} has unstaked and is retired: it cannot be onboarded again.`,
      new AddressRetiredError(validator).fix ?? '',
    )
  if (status.status === 'PendingExit' || status.status === 'Exited')
    throw new WrongStatusError(
      `${validator} is ${status.status}: it is leaving the validator set, so there is nothing to stake or activate.`,
      'Follow the exit with `tnv exit --through unstaked`; to validate again, onboard a new validator address with new keys.',
    )

  // 5. how far
  const through: StakeThrough =
    p.through ??
    (io.interactive
      ? await io.select(
          'How far should tnv take this validator now?',
          [
            {
              value: 'active',
              name: 'to Active: stake, start or attach to the node, wait for sync, activate, follow to Active',
            },
            { value: 'staked', name: 'to Staked only (activate later with `tnv stake` again or `tnv activate`)' },
          ],
          'active',
        )
      : 'staked')

  // 6. backup (issue 18), 7. whitelist, 8. stake
  if (status.status === 'Undefined') {
    // the stake needs a confirmation: without a terminal and without --yes it would be refused at
    // the stake, so refuse now, before a backup is asked for or a devnet mint is sent
    if (!io.interactive && !p.yes && signer.type !== 'unsigned') throw new ConfirmationRequiredError('stake', 'money')
    // before the key is bound for good: a verified backup or a confirmed phrase
    await ensureBackup(io, {
      datadir: dirname(keys.path),
      publicKey: view.blsPublicKey,
      chainId: chain.chainId,
      skip: p.skipBackupCheck === true,
      relaxed: p.devnetRelaxed === true,
      passphrase: nodePassphrase,
      passphraseSource: p.passphraseSource,
    })
    if (!status.whitelisted) {
      steps.push(...(await whitelist(io, ctx, { validator, keysPath: keys.path, info, p })))
    }
    io.emit(
      { event: 'stake-amount', stakeVersion: status.stakeVersion, stakeAmount: status.stakeAmount },
      `Stake amount (stake version ${status.stakeVersion}): ${formatTelAndWei(BigInt(status.stakeAmount))}.`,
    )
    const result = await stake(ctx, {
      signer,
      blsPubkey: view.blsPublicKey,
      proofOfPossession: view.proofOfPossession,
      executionAddress: info.executionAddress,
      // adiri: its proof is signed with the key; keys made in this run open with the passphrase in hand
      signAdiriProof: adiriProofSigner({
        datadir: dirname(keys.path),
        source: nodePassphrase !== null ? 'env' : p.passphraseSource,
        env: nodePassphrase !== null ? { TN_BLS_PASSPHRASE: nodePassphrase } : undefined,
        stdin: io.stdin(),
        io: { isTTY: io.interactive, ask: (m) => io.secret(m) },
        note: (line) => io.emit({ event: 'note', message: line }, line),
      }),
      report: wizardReporter(io, 'stake', resumed),
      confirm: wizardConfirm(io, { yes: p.yes }),
      journal,
    })
    steps.push(stepRecord('stake', result, resumedOf(resumed, 'stake')))
    if (result.outcome === 'unsigned') {
      io.emit(
        { event: 'unsigned', step: 'stake', transaction: result.unsigned },
        'Sign and send this stake transaction with your wallet, then run this command again to continue:',
      )
      return {
        validator,
        chain,
        datadir: p.datadir,
        nodeInfo: keys.path,
        through,
        status: status.status,
        epoch: status.currentEpoch,
        steps,
        node: null,
        unsigned: result.unsigned,
      }
    }
    io.emit({ event: 'staked', validator }, `${validator} is Staked.`)
    status = await readValidatorStatus(ctx, { address: validator })
  }
  // staked (now or before): the keys are bound on chain, the rest of the flow only waits
  await p.releaseDatadir?.()
  if (through === 'staked' || status.status === 'Undefined') return done(status, null)

  // 8. node, synced; 9. activate
  let node: EnsureNodeReturnType | null = null
  if (status.status === 'Staked') {
    if (signer.type === 'unsigned')
      io.emit(
        { event: 'note', message: 'activate is printed unsigned' },
        'Activation will be printed unsigned for your wallet.',
      )
    node = await ensureNode(io, {
      datadir: p.datadir,
      target: ctx.target,
      nodeRpcUrl: p.nodeRpcUrl,
      start: p.startNode,
      nodeBinary: p.nodeBinary,
      passphrase: nodePassphrase,
    })
    io.emit({ event: 'node', rpcUrl: node.rpcUrl, how: node.how, pid: node.pid }, `Node: ${node.rpcUrl} (${node.how}).`)
    const synced = await waitForNodeSync(io, { localUrl: node.rpcUrl, target: ctx.target, timeoutMs })
    io.emit({
      event: 'synced',
      local: synced.local,
      network: synced.network,
      polls: synced.polls,
      method: synced.method,
      nodeMode: synced.nodeMode,
    })
    steps.push({ step: 'sync', outcome: 'done' })
    const result = await activate(ctx, {
      signer,
      report: wizardReporter(io, 'activate', resumed),
      confirm: wizardConfirm(io, { yes: p.yes }),
      journal,
    })
    steps.push(stepRecord('activate', result, resumedOf(resumed, 'activate')))
    if (result.outcome === 'unsigned') {
      io.emit(
        { event: 'unsigned', step: 'activate', transaction: result.unsigned },
        'Sign and send this activate transaction with your wallet, then run this command again to follow it to Active:',
      )
      return { ...done(status, node), unsigned: result.unsigned }
    }
  }

  // 10. PendingActivation → Active at the epoch boundary
  const wasActive = status.status === 'Active'
  status = await followStatus(io, ctx, {
    address: validator,
    what: 'Active',
    until: (s) => s.status === 'Active',
    describe: (s) => `${s.status}: Active from the next epoch boundary; ${epochProgress(s)}`,
    timeoutMs,
    fix: 'Nothing is lost: run the same command again to keep following it (`tnv validator status` shows the state).',
  })
  if (wasActive) return done(status, node)
  steps.push({ step: 'active', outcome: 'done' })
  io.emit(
    { event: 'active', validator, epoch: status.currentEpoch },
    `${validator} is Active from epoch ${status.activationEpoch ?? status.currentEpoch}: eligible for committee selection in later epochs (inclusion is not guaranteed).`,
  )
  return done(status, node)

  function done(s: ValidatorStatus, n: EnsureNodeReturnType | null): StakeFlowReturnType {
    return {
      validator,
      chain,
      datadir: p.datadir,
      nodeInfo: keys?.path ?? '',
      through,
      status: s.status,
      epoch: s.currentEpoch,
      steps,
      node: n,
    }
  }
}

/**
 * Not whitelisted: on the devnet, mint with the devnet governance key (asked, or --mint);
 * elsewhere print what governance needs and wait for the ConsensusNFT (polling; without a
 * terminal only with --whitelist-wait, else NotWhitelisted, exit 20).
 */
async function whitelist(
  io: WizardIo,
  ctx: RegistryContext,
  {
    validator,
    keysPath,
    info,
    p,
  }: {
    validator: Address
    keysPath: string
    info: NodeInfo
    p: StakeFlowParameters
  },
): Promise<StepRecord[]> {
  if (ctx.target.devnet && p.rehearsalMint) {
    const useMint =
      p.mint ||
      (io.interactive &&
        (await io.confirm(
          `${validator} is not whitelisted. This is the devnet: mint its ConsensusNFT now (REHEARSAL-ONLY: the devnet impersonates the registry owner)?`,
          true,
        )))
    if (useMint) {
      const minted = await io.wait(`Minting the ConsensusNFT of ${validator} on the devnet (rehearsal)`, () =>
        (p.rehearsalMint as NonNullable<StakeFlowParameters['rehearsalMint']>)(validator),
      )
      io.emit(
        { event: 'whitelisted', validator, by: 'devnet-rehearsal', owner: minted.owner, txHash: minted.txHash },
        `${validator} is whitelisted (REHEARSAL-ONLY mint as the registry owner ${minted.owner}).`,
      )
      return [
        minted.txHash
          ? { step: 'mint', outcome: 'sent', txHash: minted.txHash, message: 'REHEARSAL-ONLY mint' }
          : { step: 'mint', outcome: 'already-done', message: 'already whitelisted' },
      ]
    }
  }
  const { encodeBase58 } = await import('../nodeinfo/base58.js')
  io.emit(
    {
      event: 'whitelist-needed',
      validator,
      nodeInfo: keysPath,
      blsPublicKey: `0x${Buffer.from(info.blsPublicKey).toString('hex')}`,
      blsPublicKeyBase58: encodeBase58(info.blsPublicKey),
      proofOfPossession: `0x${Buffer.from(info.proofOfPossession).toString('hex')}`,
      proofOfPossessionBase58: encodeBase58(info.proofOfPossession),
    },
    [
      `${validator} is not whitelisted yet. Send governance:`,
      `  - the validator address: ${validator}`,
      `  - node-info.yaml: ${keysPath} (it holds the BLS public key and the proof of possession for this address)`,
      `Governance verifies them and runs \`mint(${validator})\` on the registry.`,
    ],
  )
  if (!io.interactive && p.whitelistWaitSeconds <= 0)
    throw new NotWhitelistedError(validator, {
      details: [
        `node-info.yaml: ${keysPath}`,
        'Pass --whitelist-wait SECONDS to wait for governance instead of failing.',
      ],
    })
  const waitMs = io.interactive ? Number.POSITIVE_INFINITY : p.whitelistWaitSeconds * 1000
  await followStatus(io, ctx, {
    address: validator,
    what: 'whitelisted',
    until: (s) => s.whitelisted || s.status !== 'Undefined',
    describe: (s) =>
      `Waiting for governance to whitelist ${validator} (epoch ${s.currentEpoch}, block ${s.blockNumber}); Ctrl-C stops, and rerunning continues here`,
    timeoutMs: waitMs,
    pollMs: 3000,
    fix: `Ask governance to mint a ConsensusNFT for ${validator}, then run the same command again.`,
  })
  io.emit({ event: 'whitelisted', validator, by: 'governance' }, `${validator} is whitelisted.`)
  return []
}
