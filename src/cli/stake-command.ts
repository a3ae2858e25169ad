/**
 * The session side of `tnv stake`: the wizard's flow (its terminal, the data directory held until
 * the stake is settled, the devnet's rehearsal mint), the wizard's offer of a Safe batch for a
 * contract validator, and the plain stake's key material, signer, key check and backup gate
 * around the one library operation (src/lib/registry/stake.ts, src/lib/onboard/stake-flow.ts).
 */
import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Address, Hex } from 'viem'
import type { RecoverCommitReturnType } from '../lib/keys/commit-files.js'
import type { StakeFlowReturnType } from '../lib/onboard/stake-flow.js'
import type { KeyMaterial } from '../lib/registry/key-material.js'
import type { StakeReturnType } from '../lib/registry/stake.js'
import type { RegistryContext } from '../lib/registry/types.js'
import type { StakeFlags } from './flags/stake.js'
import type { Session } from './session.js'

type Io = { note: (line: string) => void; out: (line: string) => void }

/** The onboarding flow (the wizard on a terminal, --through without one): the library's `runStakeFlow`. */
export async function stakeFlow(
  session: Session,
  flags: StakeFlags,
  jsonLines: boolean,
  note: (line: string) => void,
): Promise<StakeFlowReturnType> {
  const io = await session.wizardIo(jsonLines ? 'json-lines' : 'human')
  const { onInterrupt } = await import('./wizard-io.js')
  onInterrupt(io)
  // the data directory is this run's until the stake is settled: no key commit can slip in
  // between the key check and the stake (released by the flow once staked)
  const dir = await session.openDatadir(
    flags['node-info'] === undefined ? flags.datadir : await keyDirOf(flags['node-info']),
  )
  if (dir.recovered.action !== 'none') note(recoveredNote(dir.recovered, dir.datadir))
  const { runStakeFlow } = await import('../lib/onboard/stake-flow.js')
  if (flags['bls-pubkey'] !== undefined)
    note('Note: --bls-pubkey/--pop are used by the plain stake only; the flow reads node-info.yaml.')
  return runStakeFlow(io, {
    datadir: flags.datadir,
    nodeInfo: flags['node-info'],
    through: flags.through,
    chain: flags,
    signer: flags,
    yes: flags.yes,
    createKeys: flags['create-keys'],
    passphraseSource: flags['bls-passphrase-source'],
    envPassphrase: flags['bls-passphrase-source'] === 'env' ? session.takeEnvSecret('TN_BLS_PASSPHRASE') : undefined,
    env: session.signerEnv(),
    externalPrimaryAddr: flags['external-primary-addr'],
    externalWorkerAddrs: flags['external-worker-addrs'],
    offlineBundle: flags['offline-bundle'],
    mint: flags.mint,
    rehearsalMint: (validator) => rehearsalMint(session, validator),
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
}

/** The devnet's REHEARSAL-ONLY mint (the devnet node impersonates the registry owner). */
async function rehearsalMint(session: Session, validator: Address): Promise<{ txHash: Hex | null; owner: Address }> {
  const [{ defaultDevnetDir }, { rehearseGovernance }] = await Promise.all([
    import('../devnet/paths.js'),
    import('../devnet/node/governance-client.js'),
  ])
  const r = await rehearseGovernance(defaultDevnetDir(session.env), { action: 'mint', validator })
  return { txHash: r.txHash, owner: r.owner }
}

/**
 * When node-info's execution address holds code, no private key can sign for it: the wizard
 * says what it is (a Safe: version, threshold) and offers the onboarding as a Safe
 * Transaction Builder batch instead of asking for a key. Null: not a contract, or declined.
 */
export async function offerSafeBatch(
  session: Session,
  flags: StakeFlags,
  note: (line: string) => void,
): Promise<StakeFlags | null> {
  if (flags.unsigned || flags.keystore !== undefined || flags['offline-bundle'] !== undefined) return null
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
  note(
    kind.safe
      ? `${address} is a Safe ${kind.safe.version} (${kind.safe.threshold} of ${kind.safe.owners.length} owners confirm): no private key signs for it.`
      : `${address} is a contract, not an account: no private key signs for it.`,
  )
  const prompter = session.prompter
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

/** The plain stake's result, and the registry it ran against (for the Safe batch). */
export type StakeOnlyReturnType = { ctx: RegistryContext; result: StakeReturnType }

/**
 * The plain `tnv stake` (no terminal, no --through) and the Safe batch (--format safe): the
 * key material, the signer, the backup gate, then the one library operation, `stake`. Journaled.
 */
export async function stakeOnly(
  session: Session,
  flags: StakeFlags,
  note: (line: string) => void,
): Promise<StakeOnlyReturnType> {
  const [{ stake }, support, cli, { adiriProofSigner }, { backupGate, gatedConfirm }] = await Promise.all([
    import('../lib/registry/stake.js'),
    import('../lib/registry/command-support.js'),
    import('./registry-step.js'),
    import('../lib/registry/adiri-proof-signer.js'),
    import('./backup-gate.js'),
  ])
  const keys = await keyMaterial(session, flags, note)
  const ctx = await support.openRegistryContext(flags)
  const { withOfflineBundleFix } = await import('../lib/onboard/errors.js')
  const signer = await cli
    .signerFromFlags(session, flags, { action: 'stake', defaultFrom: keys.executionAddress })
    .catch((err: unknown) => {
      throw withOfflineBundleFix(err)
    })
  const passphrase = {
    source: flags['bls-passphrase-source'],
    stdin: session.stdin(),
    io: session.passphraseIo(),
    env: session.passphraseEnv(flags['bls-passphrase-source']),
  }
  await checkKeyOnDisk(keys, passphrase, note)
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
    report: session.reporter(),
    confirm: gatedConfirm(cli.stepConfirm(session, flags), gate),
    // the journal sits beside node-info.yaml; key material given as hex has no data directory
    journal: cli.stepJournal(session, { from: signer.address, datadir: keyDir, timeoutSeconds: flags.timeout }),
  })
  if (result.outcome === 'unsigned') await gate(result.chain.chainId)
  return { ctx, result }
}

/**
 * The key material: from node-info.yaml, whose data directory is locked (and a half-finished key
 * commit repaired) before it is read and held until the stake is settled; or from the flags.
 */
async function keyMaterial(session: Session, flags: StakeFlags, note: (line: string) => void): Promise<KeyMaterial> {
  // --check only reads: no lock is taken and no interrupted key commit is repaired
  if (flags['bls-pubkey'] === undefined && !flags.check) {
    const dir = await session.openDatadir(
      flags['node-info'] === undefined ? flags.datadir : await keyDirOf(flags['node-info']),
    )
    if (dir.recovered.action !== 'none') note(recoveredNote(dir.recovered, dir.datadir))
  }
  const { keyMaterialFromFlags } = await import('../lib/registry/key-material.js')
  const keys = await keyMaterialFromFlags(flags)
  if (keys.nodeInfoPath) note(`Key material from ${keys.nodeInfoPath} (execution address ${keys.executionAddress}).`)
  return keys
}

/** node-info.yaml's key must be the key on disk (a kill in an older key commit, or files copied by hand). */
async function checkKeyOnDisk(
  keys: KeyMaterial,
  passphrase: Pick<
    Parameters<typeof import('../lib/keys/key-binding.js').assertKeyOnDisk>[0],
    'source' | 'stdin' | 'io' | 'env'
  >,
  note: (line: string) => void,
): Promise<void> {
  if (!keys.nodeInfoPath) return
  const { assertKeyOnDisk } = await import('../lib/keys/key-binding.js')
  const how = await assertKeyOnDisk({
    datadir: keys.keyDir,
    nodeInfoKey: Buffer.from(keys.blsPubkey.slice(2), 'hex'),
    ...passphrase,
  })
  if (how === 'match') note(`- the key in ${keys.keyDir}/node-keys is the key node-info.yaml records`)
}

/** --format safe: the onboarding as the Safe executes it (stake, then with --through active the activate). */
export async function writeOnboardingBatch(
  { ctx, result }: StakeOnlyReturnType,
  flags: StakeFlags,
  { note, out }: Io,
): Promise<StakeReturnType> {
  const [{ onboardingCalls }, { writeSafeBatch }] = await Promise.all([
    import('../lib/registry/onboarding-calls.js'),
    import('./safe-output.js'),
  ])
  if (result.outcome === 'already-done') note(result.message)
  const { calls, name } = onboardingCalls({ stake: result, through: flags.through })
  if (calls.length === 0) {
    out(`Nothing to put in a batch: ${result.validator} is staked already.`)
    return result
  }
  const batch = await writeSafeBatch({
    ctx,
    flags,
    chainId: result.chain.chainId,
    safe: result.validator,
    calls,
    name,
    out,
    note,
  })
  return Object.assign(result, { safe: batch })
}

/** The data directory of a --node-info value (a node-info.yaml file, or the directory holding it). */
async function keyDirOf(nodeInfo: string): Promise<string> {
  // node builtins statically: a dynamic import() of one fails inside the single executable
  const s = await stat(nodeInfo).catch(() => undefined)
  return s?.isFile() ? dirname(nodeInfo) : nodeInfo
}

function recoveredNote(r: Exclude<RecoverCommitReturnType, { action: 'none' }>, datadir: string): string {
  return r.action === 'rolled-forward'
    ? `Note: a key commit in ${datadir} started at ${r.startedAt} was interrupted; it was completed now (the replaced files are in ${r.backupDir ?? 'no backup: nothing was replaced'}).`
    : `Note: an interrupted key write in ${datadir} was undone (${r.removed.length} leftover${r.removed.length === 1 ? '' : 's'} removed); the directory is as it was before it.`
}
