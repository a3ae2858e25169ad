/**
 * `tnv stake` from nothing to Active, as one resumable flow (a wizard on a terminal, flags
 * and env in CI): keys → network → signer → identity and prerequisites → whitelist (wait for
 * governance, or mint on the devnet) → stake → node started or attached, synced → activate →
 * PendingActivation followed to Active across the epoch boundary.
 *
 * Every run reads the chain first and starts at the step the chain calls for; every
 * transaction goes through the step runner and its journal (../tx/run-step.ts), so a rerun after a kill
 * waits for what was sent instead of sending it again. Nothing here prints: progress goes
 * through the WizardIo (human lines, spinners, prompts, or JSON lines).
 */
import { dirname } from 'node:path'
import type { Address, Hex } from 'viem'
import { DEVNET_CHAIN_ID } from '../chain/addresses.js'
import type { ChainInfo } from '../chain/check-chain-id.js'
import type { Signer } from '../chain/signer.js'
import type { UnsignedTransaction } from '../chain/transaction.js'
import { formatTelAndWei } from '../chain/units.js'
import { errorMessage } from '../errors.js'
import type { IdentityView } from '../keys/identity.js'
import type { KeyCheck } from '../keys/key-binding.js'
import type { resolveNodeBinary as resolveNodeBinaryType } from '../node/binary.js'
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
import type { SignAdiriProof } from '../registry/stake-checks.js'
import type { RegistryContext } from '../registry/types.js'
import type { StepJournal } from '../tx/journal.js'
import { journalsFor } from '../tx/journal.js'
import { settleJournal } from '../tx/run-step.js'
import type { WizardIo } from '../wizard/io.js'
import { wizardReporter } from '../wizard/reporter.js'
import { wizardConfirm } from './confirm.js'
import { ensureBackup } from './ensure-backup.js'
import { createKeys, findKeys } from './ensure-keys.js'
import { type EnsureNodeReturnType, ensureNode, waitForNodeSync } from './ensure-node.js'
import { epochProgress, followStatus } from './follow-status.js'
import { type OfflineStepReturnType, type OfflineWaiting, offlineStep } from './offline-step.js'
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
  /**
   * TN_BLS_PASSPHRASE when the passphrase source is env, taken out of the environment by the
   * session (src/cli/session.ts `takeEnvSecret`): the flow never reads or changes process.env.
   */
  envPassphrase?: string | undefined
  /** The environment the session hands over, for the signer's variables (TN_PRIVATE_KEY, TN_KEYSTORE_PASSWORD). */
  env: NodeJS.ProcessEnv
  externalPrimaryAddr?: string | undefined
  externalWorkerAddrs?: string | undefined
  /**
   * --offline-bundle: the funding key is on an offline machine; the bundle file to write, or the
   * one an earlier run wrote (broadcast once its signed file is beside it). ./offline-step.ts
   */
  offlineBundle?: string | undefined
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
  /** The funding key is offline: the bundle written (or found unsigned); the flow stops there (exit 32). */
  offline?: OfflineWaiting
}

type FoundKeys = NonNullable<Awaited<ReturnType<typeof findKeys>>>

/** What the steps of one run share, once the signer and the keys are known. */
type FlowRun = {
  io: WizardIo
  p: StakeFlowParameters
  ctx: RegistryContext
  signer: Signer
  /** The funding key is on an offline machine (the signer above is then unsigned): the bundle given or remembered. */
  offline: { bundle: string | undefined } | null
  validator: Address
  keys: FoundKeys
  /**
   * The passphrase of keys created in this run, or the one the session took from the
   * environment: for the key check, the adiri proof and the node tnv may start (never printed).
   */
  nodePassphrase: string | null
  /** The key-on-disk check of node-info.yaml's key (recorded in an offline stake bundle). */
  keyOnDisk: 'match' | 'absent'
  /** Every transaction of this run, in the data directory's journal (and the sender's); --unsigned writes nothing. */
  journal: StepJournal
  /** Transactions earlier runs left open, settled by this one, by step. */
  resumed: Map<string, Hex>
  steps: StepRecord[]
  timeoutMs: number
}

export async function runStakeFlow(io: WizardIo, p: StakeFlowParameters): Promise<StakeFlowReturnType> {
  const timeoutMs = p.timeoutSeconds * 1000
  // 1. keys present? (created below, once the signer's address is known)
  const found = await findKeys({ datadir: p.datadir, nodeInfo: p.nodeInfo })
  if (found) io.emit({ event: 'keys', nodeInfo: found.path }, `Validator keys: ${found.path}`)
  // 2. network
  const { openRegistryContext } = await import('../registry/command-support.js')
  const ctx: RegistryContext = await openRegistryContext(await pickNetwork(io, p.chain))
  if (found) {
    const active = await alreadyActive(io, ctx, p, found, timeoutMs)
    if (active) return active
  }
  // 3. signer, and the keys bound to it
  const run = await prepareRun(io, p, ctx, found, timeoutMs)
  // 4. state first (after what earlier runs sent): everything after depends on it
  let status = await readState(run)
  const chain = status.chain
  // 5. how far
  const through = await chooseThrough(io, p.through)
  const done = (s: ValidatorStatus, node: EnsureNodeReturnType | null): StakeFlowReturnType => ({
    validator: run.validator,
    chain,
    datadir: p.datadir,
    nodeInfo: run.keys.path,
    through,
    status: s.status,
    epoch: s.currentEpoch,
    steps: run.steps,
    node,
  })
  // 6. backup, 7. whitelist, 8. stake
  if (status.status === 'Undefined') {
    const staked = await stakeStep(run, status)
    if ('unsigned' in staked) return { ...done(status, null), unsigned: staked.unsigned }
    if ('offline' in staked) return { ...done(status, null), offline: staked.offline }
    status = staked.status
  }
  // staked (now or before): the keys are bound on chain, the rest of the flow only waits
  await p.releaseDatadir?.()
  if (through === 'staked' || status.status === 'Undefined') return done(status, null)
  // 9. node, synced; 10. activate
  let node: EnsureNodeReturnType | null = null
  if (status.status === 'Staked') {
    const activated = await activateStep(run)
    node = activated.node
    if (activated.unsigned) return { ...done(status, node), unsigned: activated.unsigned }
    if (activated.offline) return { ...done(status, node), offline: activated.offline }
  }
  // 11. PendingActivation → Active at the epoch boundary
  return done(await followToActive(run, status), node)
}

/**
 * A rerun reads the state before asking anything else: a validator already Active needs no
 * signer, key or plan (issue 16). What earlier runs signed is settled first (the journal holds
 * the signed bytes: no signer is needed to wait for them or send them again).
 */
async function alreadyActive(
  io: WizardIo,
  ctx: RegistryContext,
  p: StakeFlowParameters,
  keys: FoundKeys,
  timeoutMs: number,
): Promise<StakeFlowReturnType | null> {
  const from = keys.info.executionAddress
  await settleJournal({
    client: ctx.client,
    rpcUrl: ctx.target.rpcUrl,
    from,
    journal: { journals: journalsFor({ datadir: p.datadir, from, env: p.env }), command: 'tnv stake', timeoutMs },
    report: wizardReporter(io, 'journal', new Map()),
  })
  const { readValidatorStatus } = await import('../registry/read-validator-status.js')
  const known = await readValidatorStatus(ctx, { address: from })
  if (known.status !== 'Active') return null
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

/** The signer, then the keys: created for its address when there are none, and checked against it and the disk. */
async function prepareRun(
  io: WizardIo,
  p: StakeFlowParameters,
  ctx: RegistryContext,
  found: FoundKeys | null,
  timeoutMs: number,
): Promise<FlowRun> {
  const { signer, offline, signerChoice } = await pickFlowSigner(io, p, ctx, found)
  const validator = signer.address
  const steps: StepRecord[] = []
  let keys = found
  let nodePassphrase: string | null = p.passphraseSource === 'env' ? (p.envPassphrase ?? null) : null
  if (!keys) {
    const created = await createKeysFor(io, p, ctx, validator)
    keys = created
    nodePassphrase = created.passphrase
    // the data directory exists only now: remember the signer chosen at the prompts
    if (signerChoice) await rememberSignerChoice(p.datadir, signerChoice).catch(() => {})
    steps.push({ step: 'keys', outcome: 'done' })
  }
  const keyOnDisk = await checkKeysBelongTo(io, p, { keys, validator, nodePassphrase })
  const journal: StepJournal = {
    journals: journalsFor({ datadir: p.datadir, from: validator, env: p.env }),
    command: 'tnv stake',
    timeoutMs,
  }
  return {
    io,
    p,
    ctx,
    signer,
    offline,
    validator,
    keys,
    nodePassphrase,
    keyOnDisk: keyOnDisk === 'match' ? 'match' : 'absent',
    journal,
    resumed: new Map(),
    steps,
    timeoutMs,
  }
}

/**
 * The signer picked (node-info's execution address as the default), announced with the network.
 * The offline path prepares with an unsigned signer (every check and the simulation, nothing signed).
 */
async function pickFlowSigner(
  io: WizardIo,
  p: StakeFlowParameters,
  ctx: RegistryContext,
  found: FoundKeys | null,
): Promise<{ signer: Signer; offline: FlowRun['offline']; signerChoice: SignerChoice | undefined }> {
  let signerChoice: SignerChoice | undefined
  const picked = await pickSigner(io, {
    action: 'stake',
    flags: p.signer,
    defaultFrom: found?.info.executionAddress,
    datadir: p.datadir,
    onChosen: (c) => {
      signerChoice = c
    },
    env: p.env,
    offline: { bundle: p.offlineBundle },
  })
  const signer: Signer = picked.type === 'offline' ? { type: 'unsigned', address: picked.address } : picked
  const offline = picked.type === 'offline' ? { bundle: picked.bundle } : null
  const validator = signer.address
  io.emit(
    { event: 'signer', address: validator, type: picked.type, network: ctx.target.name, rpcUrl: ctx.target.rpcUrl },
    `Network ${ctx.target.name} (${ctx.target.rpcUrl}); validator address ${validator}${offline ? ' (its key is on an offline machine: each transaction is prepared here as a bundle, signed there, broadcast here)' : signer.type === 'unsigned' ? ' (unsigned: transactions are printed, not sent)' : ''}.`,
  )
  return { signer, offline, signerChoice }
}

/** New validator keys in the data directory, for the signer's address. */
function createKeysFor(
  io: WizardIo,
  p: StakeFlowParameters,
  ctx: RegistryContext,
  validator: Address,
): ReturnType<typeof createKeys> {
  return createKeys(io, {
    datadir: p.datadir,
    address: validator,
    create: p.createKeys,
    passphraseSource: p.passphraseSource,
    externalPrimaryAddr: p.externalPrimaryAddr,
    externalWorkerAddrs: p.externalWorkerAddrs,
    env: { TN_BLS_PASSPHRASE: p.envPassphrase },
    // a recovery phrase is offered (and recommended) on every network, the devnet included,
    // unless --devnet-relaxed says otherwise on the rehearsal chain
    offerPhrase: !(p.devnetRelaxed === true && ctx.target.expectedChainId === DEVNET_CHAIN_ID),
    terminal: p.terminal,
  })
}

/**
 * node-info.yaml's execution address is the signer, and the key on disk is the key node-info.yaml
 * records (a kill in an older key commit, or files copied by hand, could leave them apart):
 * refused with how to repair.
 */
async function checkKeysBelongTo(
  io: WizardIo,
  p: StakeFlowParameters,
  { keys, validator, nodePassphrase }: { keys: FoundKeys; validator: Address; nodePassphrase: string | null },
): Promise<KeyCheck['status']> {
  if (keys.info.executionAddress.toLowerCase() !== validator.toLowerCase())
    throw new SignerMismatchError({ signer: validator, executionAddress: keys.info.executionAddress })
  const { assertKeyOnDisk } = await import('../keys/key-binding.js')
  return assertKeyOnDisk({
    datadir: dirname(keys.path),
    nodeInfoKey: keys.info.blsPublicKey,
    source: nodePassphrase !== null ? 'env' : p.passphraseSource,
    stdin: io.stdin(),
    io: { isTTY: io.interactive, ask: (m) => io.secret(m) },
    env: { TN_BLS_PASSPHRASE: nodePassphrase ?? undefined },
  })
}

/**
 * What earlier runs sent, settled; then the validator's state, shown with its identity and the
 * prerequisites. A retired or exiting validator is refused: there is nothing to onboard.
 */
async function readState(run: FlowRun): Promise<ValidatorStatus> {
  const { io, p, ctx, signer, validator, keys } = run
  if (signer.type === 'local')
    await settleJournal({
      client: ctx.client,
      rpcUrl: ctx.target.rpcUrl,
      from: validator,
      journal: run.journal,
      report: wizardReporter(io, 'journal', run.resumed),
    })
  const [{ readValidatorStatus }, { identityView, formatIdentity }, { resolveNodeBinary }] = await Promise.all([
    import('../registry/read-validator-status.js'),
    import('../keys/identity.js'),
    import('../node/binary.js'),
  ])
  const status = await readValidatorStatus(ctx, { address: validator })
  const { chain } = status
  const balance = await ctx.client.getBalance({ address: validator })
  const view = identityView(keys.info)
  const prereqs = checkPrerequisites({
    info: keys.info,
    nodeBinary: nodeBinaryFound(resolveNodeBinary, p),
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
  refuseLeaving(status, validator)
  return status
}

/** The node binary tnv would run (--node-binary, the environment, the default), or why there is none. */
function nodeBinaryFound(
  resolveNodeBinary: typeof resolveNodeBinaryType,
  p: StakeFlowParameters,
): { path: string } | { error: string } {
  try {
    return { path: resolveNodeBinary({ flag: p.nodeBinary, env: p.env }).path }
  } catch (err) {
    return { error: errorMessage(err) }
  }
}

function refuseLeaving(status: ValidatorStatus, validator: Address): void {
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
}

/** --through, else asked on a terminal (default active), else staked. */
async function chooseThrough(io: WizardIo, through: StakeThrough | undefined): Promise<StakeThrough> {
  if (through !== undefined) return through
  if (!io.interactive) return 'staked'
  return io.select(
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
}

/**
 * Backup (issue 18), whitelist, stake: the state after it, the stake transaction for another
 * wallet (--unsigned), or the offline bundle waiting for its signature (the flow stops there).
 */
async function stakeStep(run: FlowRun, status: ValidatorStatus): Promise<StakeStepReturnType> {
  const { io, p, ctx, signer, validator, keys, nodePassphrase } = run
  // the stake needs a confirmation: without a terminal and without --yes it would be refused at
  // the stake, so refuse now, before a backup is asked for or a devnet mint is sent
  if (!io.interactive && !p.yes && signer.type !== 'unsigned') throw new ConfirmationRequiredError('stake', 'money')
  const [{ identityView }, { adiriProofSigner }] = await Promise.all([
    import('../keys/identity.js'),
    import('../registry/adiri-proof-signer.js'),
  ])
  const view = identityView(keys.info)
  // before the key is bound for good: a verified backup or a confirmed phrase
  await ensureBackup(io, {
    datadir: dirname(keys.path),
    publicKey: view.blsPublicKey,
    chainId: status.chain.chainId,
    skip: p.skipBackupCheck === true,
    relaxed: p.devnetRelaxed === true,
    passphrase: nodePassphrase,
    passphraseSource: p.passphraseSource,
  })
  if (!status.whitelisted)
    run.steps.push(...(await whitelist(io, ctx, { validator, keysPath: keys.path, info: keys.info, p })))
  io.emit(
    { event: 'stake-amount', stakeVersion: status.stakeVersion, stakeAmount: status.stakeAmount },
    `Stake amount (stake version ${status.stakeVersion}): ${formatTelAndWei(BigInt(status.stakeAmount))}.`,
  )
  // adiri: its proof is signed with the key; keys made in this run open with the passphrase in hand
  const signAdiriProof = adiriProofSigner({
    datadir: dirname(keys.path),
    source: nodePassphrase !== null ? 'env' : p.passphraseSource,
    env: nodePassphrase !== null ? { TN_BLS_PASSPHRASE: nodePassphrase } : {},
    stdin: io.stdin(),
    io: { isTTY: io.interactive, ask: (m) => io.secret(m) },
    note: (line) => io.emit({ event: 'note', message: line }, line),
  })
  return run.offline ? stakeOffline(run, view, signAdiriProof) : stakeHere(run, view, signAdiriProof)
}

type StakeStepReturnType = { status: ValidatorStatus } | { unsigned: UnsignedTransaction } | { offline: OfflineWaiting }

/** The stake as an offline bundle: waiting for its signature, or broadcast and Staked. */
async function stakeOffline(
  run: FlowRun,
  view: IdentityView,
  signAdiriProof: SignAdiriProof,
): Promise<StakeStepReturnType> {
  const { io, ctx, validator, keys } = run
  const r = await offlineStep(io, ctx, {
    ...offlineParams(run, 'stake'),
    stake: {
      blsPubkey: view.blsPublicKey,
      proofOfPossession: view.proofOfPossession,
      executionAddress: keys.info.executionAddress,
      signAdiriProof,
      nodeInfo: keys.path,
      keyOnDisk: run.keyOnDisk,
    },
  })
  if (r.outcome === 'waiting') return { offline: r }
  run.steps.push(offlineRecord('stake', r))
  io.emit({ event: 'staked', validator }, `${validator} is Staked.`)
  const { readValidatorStatus } = await import('../registry/read-validator-status.js')
  return { status: await readValidatorStatus(ctx, { address: validator }) }
}

/** The stake sent by the signer here (Staked), or printed unsigned for another wallet. */
async function stakeHere(
  run: FlowRun,
  view: IdentityView,
  signAdiriProof: SignAdiriProof,
): Promise<StakeStepReturnType> {
  const { io, p, ctx, signer, validator, keys } = run
  const [{ stake }, { readValidatorStatus }] = await Promise.all([
    import('../registry/stake.js'),
    import('../registry/read-validator-status.js'),
  ])
  const result = await stake(ctx, {
    signer,
    blsPubkey: view.blsPublicKey,
    proofOfPossession: view.proofOfPossession,
    executionAddress: keys.info.executionAddress,
    signAdiriProof,
    report: wizardReporter(io, 'stake', run.resumed),
    confirm: wizardConfirm(io, { yes: p.yes }),
    journal: run.journal,
  })
  run.steps.push(stepRecord('stake', result, resumedOf(run.resumed, 'stake')))
  if (result.outcome === 'unsigned') {
    io.emit(
      { event: 'unsigned', step: 'stake', transaction: result.unsigned },
      'Sign and send this stake transaction with your wallet, then run this command again to continue:',
    )
    return { unsigned: result.unsigned }
  }
  io.emit({ event: 'staked', validator }, `${validator} is Staked.`)
  return { status: await readValidatorStatus(ctx, { address: validator }) }
}

/** A Staked validator: its node started or attached and synced, then activate. */
async function activateStep(
  run: FlowRun,
): Promise<{ node: EnsureNodeReturnType; unsigned: UnsignedTransaction | null; offline?: OfflineWaiting }> {
  const { io, p, ctx, signer } = run
  if (signer.type === 'unsigned' && !run.offline)
    io.emit(
      { event: 'note', message: 'activate is printed unsigned' },
      'Activation will be printed unsigned for your wallet.',
    )
  const node = await ensureNode(io, {
    datadir: p.datadir,
    target: ctx.target,
    nodeRpcUrl: p.nodeRpcUrl,
    start: p.startNode,
    nodeBinary: p.nodeBinary,
    passphrase: run.nodePassphrase,
    env: p.env,
  })
  io.emit({ event: 'node', rpcUrl: node.rpcUrl, how: node.how, pid: node.pid }, `Node: ${node.rpcUrl} (${node.how}).`)
  const synced = await waitForNodeSync(io, { localUrl: node.rpcUrl, target: ctx.target, timeoutMs: run.timeoutMs })
  io.emit({
    event: 'synced',
    local: synced.local,
    network: synced.network,
    polls: synced.polls,
    method: synced.method,
    nodeMode: synced.nodeMode,
  })
  run.steps.push({ step: 'sync', outcome: 'done' })
  if (run.offline) {
    const r = await offlineStep(io, ctx, offlineParams(run, 'activate'))
    if (r.outcome === 'waiting') return { node, unsigned: null, offline: r }
    run.steps.push(offlineRecord('activate', r))
    return { node, unsigned: null }
  }
  const { activate } = await import('../registry/activate.js')
  const result = await activate(ctx, {
    signer,
    report: wizardReporter(io, 'activate', run.resumed),
    confirm: wizardConfirm(io, { yes: p.yes }),
    journal: run.journal,
  })
  run.steps.push(stepRecord('activate', result, resumedOf(run.resumed, 'activate')))
  if (result.outcome !== 'unsigned') return { node, unsigned: null }
  io.emit(
    { event: 'unsigned', step: 'activate', transaction: result.unsigned },
    'Sign and send this activate transaction with your wallet, then run this command again to follow it to Active:',
  )
  return { node, unsigned: result.unsigned }
}

/** What the offline path of a step needs from the run. */
function offlineParams(run: FlowRun, step: 'stake' | 'activate') {
  return {
    step,
    from: run.validator,
    datadir: run.p.datadir,
    bundle: run.offline?.bundle,
    // the run goes on to activate (the command printed for the rerun says so)
    throughActive: step === 'activate',
    network: run.ctx.target.name === 'custom' ? `--rpc-url ${run.ctx.target.rpcUrl}` : `--chain ${run.ctx.target.name}`,
    journal: run.journal,
    report: wizardReporter(run.io, step, run.resumed),
  }
}

/** The step record of a signed bundle broadcast (or found mined by an earlier broadcast). */
function offlineRecord(step: string, r: Extract<OfflineStepReturnType, { outcome: 'broadcast' }>): StepRecord {
  return r.result.outcome === 'sent'
    ? {
        step,
        outcome: 'sent',
        txHash: r.result.txHash,
        blockNumber: r.result.blockNumber,
        message: `offline bundle ${r.bundle}`,
      }
    : {
        step,
        outcome: 'already-done',
        txHash: r.result.txHash,
        blockNumber: r.result.blockNumber,
        message: `offline bundle ${r.bundle} was broadcast before`,
      }
}

/** PendingActivation followed to Active at the epoch boundary (a validator Active already returns at once). */
async function followToActive(run: FlowRun, status: ValidatorStatus): Promise<ValidatorStatus> {
  const { io, validator } = run
  const wasActive = status.status === 'Active'
  const now = await followStatus(io, run.ctx, {
    address: validator,
    what: 'Active',
    until: (s) => s.status === 'Active',
    describe: (s) => `${s.status}: Active from the next epoch boundary; ${epochProgress(s)}`,
    timeoutMs: run.timeoutMs,
    fix: 'Nothing is lost: run the same command again to keep following it (`tnv validator status` shows the state).',
  })
  if (wasActive) return now
  run.steps.push({ step: 'active', outcome: 'done' })
  io.emit(
    { event: 'active', validator, epoch: now.currentEpoch },
    `${validator} is Active from epoch ${now.activationEpoch ?? now.currentEpoch}: eligible for committee selection in later epochs (inclusion is not guaranteed).`,
  )
  return now
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
  const minted = ctx.target.devnet && p.rehearsalMint ? await rehearsalMint(io, validator, p) : null
  if (minted) return [minted]
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

/** On the devnet: the REHEARSAL-ONLY mint, with --mint or when the operator agrees; null when declined. */
async function rehearsalMint(io: WizardIo, validator: Address, p: StakeFlowParameters): Promise<StepRecord | null> {
  const mint = p.rehearsalMint
  if (!mint) return null
  const useMint =
    p.mint ||
    (io.interactive &&
      (await io.confirm(
        `${validator} is not whitelisted. This is the devnet: mint its ConsensusNFT now (REHEARSAL-ONLY: the devnet impersonates the registry owner)?`,
        true,
      )))
  if (!useMint) return null
  const minted = await io.wait(`Minting the ConsensusNFT of ${validator} on the devnet (rehearsal)`, () =>
    mint(validator),
  )
  io.emit(
    { event: 'whitelisted', validator, by: 'devnet-rehearsal', owner: minted.owner, txHash: minted.txHash },
    `${validator} is whitelisted (REHEARSAL-ONLY mint as the registry owner ${minted.owner}).`,
  )
  return minted.txHash
    ? { step: 'mint', outcome: 'sent', txHash: minted.txHash, message: 'REHEARSAL-ONLY mint' }
    : { step: 'mint', outcome: 'already-done', message: 'already whitelisted' }
}
