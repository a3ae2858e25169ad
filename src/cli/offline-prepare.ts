/**
 * The session side of `tnv offline prepare` (and the first stop of `tnv offline wizard`): the
 * flags turned into one step's parameters, the key material read through the session (its
 * passphrase prompt, the data directory locked), the backup gate (issue 18), and the bundle
 * written to --out, never over another file. The bundle itself is the library's
 * (src/lib/offline/prepare-bundle.ts, prepare-delegation-signature.ts).
 */
import { dirname } from 'node:path'
import type { Address } from 'viem'
import type { AnyBundle } from '../lib/offline/bundle.js'
import type { PrepareBundleParameters } from '../lib/offline/prepare-bundle.js'
import type { RegistryContext, Reporter } from '../lib/registry/types.js'
import type { OfflinePrepareFlags } from './flags/offline-prepare.js'
import type { PlannedFile } from './keytool-check.js'
import type { Session } from './session.js'

/** The command's step names, and the registry step each prepares. */
export const OFFLINE_STEPS = {
  stake: 'stake',
  activate: 'activate',
  exit: 'beginExit',
  unstake: 'unstake',
  'rewards-claim': 'claimStakeRewards',
  'delegation-stake': 'delegateStake',
} as const
/** The step that signs no transaction: the validator's delegation signature. */
export const DELEGATION_SIGNATURE = 'delegation-signature'

export type PrepareBundleFileReturnType =
  /** The bundle, written to --out; with check, the bundle that would be written and its file, nothing written. */
  | { outcome: 'prepared'; bundle: AnyBundle }
  | { outcome: 'would-change'; bundle: AnyBundle; files: PlannedFile[] }
  | { outcome: 'already-done' | 'nothing-to-do'; message: string }

type Common = { expiresInSeconds: number; prepareCommand: string; report: Reporter }
type Output = { out: string; check: boolean }

/**
 * Prepares STEP from the flags and writes the bundle to --out. With `check` (--check,
 * docs/automation.md) every refusal, read, simulation and the backup gate run the same, no data
 * directory is locked, and the bundle is returned with the file it would be, unwritten.
 * @param prepareCommand the command line that prepares a fresh bundle (recorded in the bundle)
 */
export async function prepareBundleFile(
  session: Session,
  flags: OfflinePrepareFlags,
  step: string,
  prepareCommand: string,
  note: (line: string) => void,
  check = false,
): Promise<PrepareBundleFileReturnType> {
  const [{ prepareBundle }, support, atomic, { parseAddressFlag }, { UsageError }, stakeMaterial] = await Promise.all([
    import('../lib/offline/prepare-bundle.js'),
    import('../lib/registry/command-support.js'),
    import('../lib/fs/atomic.js'),
    import('../lib/chain/address.js'),
    import('../lib/errors.js'),
    import('../lib/offline/stake-material.js'),
  ])
  if (await atomic.pathExists(flags.out))
    throw new UsageError(`${flags.out} exists; a bundle is never written over another file.`, {
      fix: 'Pass another --out, or remove the old bundle first.',
    })
  const validator = flags.validator === undefined ? undefined : parseAddressFlag(flags.validator, '--validator')
  const from = flags.from === undefined ? undefined : parseAddressFlag(flags.from, '--from')
  const seconds = stakeMaterial.parseDurationSeconds(flags['expires-in'])
  if (seconds === null)
    throw new UsageError(`--expires-in ${flags['expires-in']} is not a duration.`, {
      fix: 'Pass a whole number with a unit: 90s, 30m, 24h or 7d.',
    })
  const common: Common = { expiresInSeconds: seconds, prepareCommand, report: session.reporter() }
  const ctx = await support.openRegistryContext(flags)
  const output = { out: flags.out, check }
  if (step === DELEGATION_SIGNATURE) return delegationSignature(session, ctx, flags, common, from, note, output)
  const params = await stepParameters(session, flags, step, common, { from, validator }, note, check)
  const r = await prepareBundle(ctx, params)
  if (r.outcome !== 'prepared') return r
  // before a bundle that binds the key for good exists: a verified backup or a confirmed phrase
  if (params.step === 'stake') await gate(flags, params.stake, 'the stake', r.bundle.chain.chainId, note)
  return writeBundle(r.bundle, output)
}

/** The bundle written to --out (0644: it holds no secret), or with check the file it would be. */
async function writeBundle(bundle: AnyBundle, { out, check }: Output): Promise<PrepareBundleFileReturnType> {
  const BUNDLE_MODE = 0o644
  if (check) {
    const { planFiles } = await import('./keytool-check.js')
    return { outcome: 'would-change', bundle, files: await planFiles([{ path: out, mode: BUNDLE_MODE }]) }
  }
  const [{ fileText }, { writeFileAtomic }] = await Promise.all([
    import('../lib/offline/bundle.js'),
    import('../lib/fs/atomic.js'),
  ])
  await writeFileAtomic(out, fileText(bundle), { mode: BUNDLE_MODE })
  return { outcome: 'prepared', bundle }
}

/** The parameters of one transaction step, from the flags (the stake's key material read first). */
async function stepParameters(
  session: Session,
  flags: OfflinePrepareFlags,
  stepName: string,
  common: Common,
  addresses: { from: Address | undefined; validator: Address | undefined },
  note: (line: string) => void,
  check: boolean,
): Promise<PrepareBundleParameters> {
  const { UsageError } = await import('../lib/errors.js')
  const { validator } = addresses
  let { from } = addresses
  const step = OFFLINE_STEPS[stepName as keyof typeof OFFLINE_STEPS]
  if (step === 'stake') {
    const stake = await readStake(session, flags, note, check)
    from ??= stake.executionAddress
    if (from === undefined)
      throw new UsageError('A stake bundle needs the address that will sign it.', {
        fix: 'Pass --from ADDRESS, or --datadir/--node-info (its execution address signs).',
      })
    return { ...common, step, from, stake }
  }
  if (step === 'delegateStake') {
    if (flags.signature === undefined)
      throw new UsageError('offline prepare delegation-stake needs the validator’s signature file.', {
        fix: 'Pass --signature FILE, written by the validator with `tnv delegation sign --delegator YOUR_ADDRESS`.',
      })
    const { readDelegationFile } = await import('../lib/registry/delegation-file.js')
    const delegation = await readDelegationFile(flags.signature)
    return { ...common, step, from: from ?? delegation.delegator, delegation }
  }
  if (from === undefined)
    throw new UsageError(`offline prepare ${stepName} needs the address that will sign it offline.`, {
      fix: 'Pass --from ADDRESS (the validator address, or the delegator for unstake and rewards-claim).',
    })
  return step === 'unstake'
    ? { ...common, step, from, validator, acceptRewardShortfall: flags['accept-reward-shortfall'] }
    : step === 'claimStakeRewards'
      ? { ...common, step, from, validator }
      : { ...common, step, from }
}

/** The validator's EIP-712 delegation signature, its key offline: a bundle without a transaction. */
async function delegationSignature(
  session: Session,
  ctx: RegistryContext,
  flags: OfflinePrepareFlags,
  common: Common,
  from: Address | undefined,
  note: (line: string) => void,
  output: Output,
): Promise<PrepareBundleFileReturnType> {
  const [{ prepareDelegationSignature }, { parseAddressFlag }, { parseDeadline }, { UsageError }] = await Promise.all([
    import('../lib/offline/prepare-delegation-signature.js'),
    import('../lib/chain/address.js'),
    import('../lib/registry/deadline.js'),
    import('../lib/errors.js'),
  ])
  if (flags.delegator === undefined)
    throw new UsageError('offline prepare delegation-signature needs the delegator.', {
      fix: 'Pass --delegator ADDRESS (the address that will submit delegateStake and pay the stake).',
    })
  const stake = await readStake(session, flags, note, output.check)
  const validator = from ?? stake.executionAddress
  if (validator === undefined)
    throw new UsageError('A delegation signature needs the validator address.', {
      fix: 'Pass --from ADDRESS, or --datadir/--node-info (its execution address is the validator).',
    })
  const bundle = await prepareDelegationSignature(ctx, {
    ...common,
    validator,
    delegator: parseAddressFlag(flags.delegator, '--delegator'),
    deadline: parseDeadline(flags.deadline, BigInt(Math.floor(Date.now() / 1000))),
    stake,
  })
  await gate(flags, stake, 'signing the delegation', bundle.chain.chainId, note)
  return writeBundle(bundle, output)
}

/** The backup gate of `tnv stake` (src/lib/keys/backup-gate.ts), for the key the bundle would bind. */
async function gate(
  flags: OfflinePrepareFlags,
  stake: { blsPubkey: `0x${string}`; nodeInfo: string | null },
  action: string,
  chainId: number,
  note: (line: string) => void,
): Promise<void> {
  const { backupGate } = await import('./backup-gate.js')
  await backupGate({
    datadir: stake.nodeInfo ? dirname(stake.nodeInfo) : flags.datadir,
    publicKey: stake.blsPubkey,
    skip: flags['skip-backup-check'],
    relaxed: flags['devnet-relaxed'],
    action,
    note,
  })(chainId)
}

/** node-info.yaml (or hex flags), checked against the key on disk as `tnv stake` checks it; a check locks nothing. */
async function readStake(session: Session, flags: OfflinePrepareFlags, note: (line: string) => void, check: boolean) {
  const { readStakeMaterial } = await import('../lib/offline/stake-material.js')
  return readStakeMaterial({
    flags,
    passphrase: {
      source: flags['bls-passphrase-source'],
      stdin: session.stdin(),
      io: session.passphraseIo(),
      env: session.passphraseEnv(flags['bls-passphrase-source']),
    },
    lockDatadir: async (datadir) => (check ? undefined : session.openDatadir(datadir)),
    note,
  })
}
