/**
 * The session side of `tnv delegation sign`: the validator's signer (its key through the session's
 * prompts and stdin, or a signature made elsewhere), the key material checked against the data
 * directory (locked for the run), where the digest's inputs come from (the registry, or values the
 * operator states offline), and the backup gate (issue 18). The signing itself is the library's
 * (src/lib/registry/sign-delegation.ts).
 */
import type { Address } from 'viem'
import type { ChainFlagValues, KeyMaterialFlagValues, PassphraseSource, SignerFlagValues } from '../lib/options.js'
import type { CheckDelegationSignatureReturnType } from '../lib/registry/check-delegation-signature.js'
import type { KeyMaterial } from '../lib/registry/key-material.js'
import type { DelegationSigner, SignDelegationSource } from '../lib/registry/sign-delegation.js'
import type { Session } from './session.js'

type DelegationSignFlags = ChainFlagValues &
  SignerFlagValues &
  KeyMaterialFlagValues & {
    'external-signature'?: string | undefined
    validator?: string | undefined
    'stake-version'?: number | undefined
    nonce?: number | undefined
    'bls-passphrase-source'?: PassphraseSource | undefined
    'skip-backup-check': boolean
    'devnet-relaxed': boolean
    check?: boolean | undefined
  }

export type DelegationSignInputs = {
  signer: DelegationSigner
  source: SignDelegationSource
}

/** --check's signer: the validator's address (no key opened), or the signature made elsewhere. */
export type DelegationCheckSigner =
  | { kind: 'address'; validator: Address }
  | Extract<DelegationSigner, { kind: 'external' }>

/**
 * `delegationSignInputs` for --check: the same refusals and reads, with the validator's address
 * in place of its key (the signer flags' address, a keystore's read in clear; else --validator,
 * else node-info's execution address), no passphrase asked and no lock taken.
 */
async function delegationCheckInputs(
  session: Session,
  flags: DelegationSignFlags,
  keys: KeyMaterial,
  note: (line: string) => void,
): Promise<{ signer: DelegationCheckSigner; source: SignDelegationSource }> {
  const external = flags['external-signature']
  const signer =
    external !== undefined
      ? await externalSigner(flags, keys, external)
      : { kind: 'address' as const, validator: await checkValidator(session, flags, keys) }
  const { assertKeyMaterialOnDisk } = await import('./registry-step.js')
  await assertKeyMaterialOnDisk(session, keys, undefined, { check: true })
  const source = await delegationSource(flags)
  await passBackupGate(flags, keys, source, note)
  return { signer, source }
}

/** `--check`: the run's refusals and reads with the validator's address, then what it would sign and write. */
export async function checkDelegationSign(
  session: Session,
  flags: DelegationSignFlags & { out?: string | undefined; force: boolean },
  { keys, delegator, deadline }: { keys: KeyMaterial; delegator: Address; deadline: bigint },
  note: (line: string) => void,
): Promise<CheckDelegationSignatureReturnType> {
  const { signer, source } = await delegationCheckInputs(session, flags, keys, note)
  const { checkDelegationSignature } = await import('../lib/registry/check-delegation-signature.js')
  return checkDelegationSignature({
    source,
    signer,
    delegator,
    deadline,
    blsPubkey: keys.blsPubkey,
    proofOfPossession: keys.proofOfPossession,
    adiriSignature: keys.adiriSignature,
    keyDir: keys.keyDir,
    out: flags.out ?? null,
    force: flags.force,
    report: session.reporter(),
  })
}

/** The address --check signs for: the signer flags' (never decrypted), else --validator, else node-info's. */
async function checkValidator(session: Session, flags: DelegationSignFlags, keys: KeyMaterial): Promise<Address> {
  const [{ parseAddressFlag }, { UsageError }, { SignerMismatchError }, { signerOptionsOf }] = await Promise.all([
    import('../lib/chain/address.js'),
    import('../lib/errors.js'),
    import('../lib/registry/errors.js'),
    import('../lib/options.js'),
  ])
  const options = signerOptionsOf(flags)
  let address: Address | undefined
  if (options.keystore !== undefined || session.env.TN_PRIVATE_KEY) {
    const { resolveSigner } = await import('../lib/chain/signer.js')
    const { signer } = await resolveSigner({
      action: 'the delegation signature',
      ...options,
      unsigned: true,
      prompter: session.prompter,
      env: session.env,
    })
    address = signer.address
    if (keys.executionAddress !== undefined && keys.executionAddress !== address)
      throw new SignerMismatchError({ signer: address, executionAddress: keys.executionAddress })
  }
  address ??= flags.validator !== undefined ? parseAddressFlag(flags.validator, '--validator') : keys.executionAddress
  if (address === undefined)
    throw new UsageError("--check needs the validator's address, and none was given.", {
      fix: 'Pass the signer flags you would sign with (TN_PRIVATE_KEY or --keystore), or --validator ADDRESS.',
    })
  return address
}

/**
 * What `signDelegation` needs that the session provides, in the order the operator meets it:
 * the signer (a keystore password is the first stdin line), the key on disk, the source, the gate.
 */
export async function delegationSignInputs(
  session: Session,
  flags: DelegationSignFlags,
  keys: KeyMaterial,
  note: (line: string) => void,
): Promise<DelegationSignInputs> {
  const { assertKeyMaterialOnDisk } = await import('./registry-step.js')
  const signer = await delegationSigner(session, flags, keys)
  // after the signer (its keystore password is the first stdin line), before anything is signed
  await assertKeyMaterialOnDisk(session, keys, flags['bls-passphrase-source'])
  const source = await delegationSource(flags)
  await passBackupGate(flags, keys, source, note)
  return { signer, source }
}

/** A delegator can stake this key with the signature: the key must be restorable first (issue 18). */
async function passBackupGate(
  flags: DelegationSignFlags,
  keys: KeyMaterial,
  source: SignDelegationSource,
  note: (line: string) => void,
): Promise<void> {
  const { backupGate } = await import('./backup-gate.js')
  await backupGate({
    datadir: keys.keyDir,
    publicKey: keys.blsPubkey,
    skip: flags['skip-backup-check'],
    relaxed: flags['devnet-relaxed'],
    action: 'signing the delegation (a delegator could then stake this key)',
    note,
  })(await sourceChainId(source))
}

/** The validator's signer: --external-signature, else its local key (a key of another address is refused). */
async function delegationSigner(
  session: Session,
  flags: DelegationSignFlags,
  keys: KeyMaterial,
): Promise<DelegationSigner> {
  const [{ UsageError }, { SignerMismatchError }, { SignerRequiredError }] = await Promise.all([
    import('../lib/errors.js'),
    import('../lib/registry/errors.js'),
    import('../lib/chain/errors.js'),
  ])
  const external = flags['external-signature']
  if (external !== undefined) return externalSigner(flags, keys, external)
  const noKey = () =>
    new UsageError("Signing a delegation needs the validator's key, and none was given.", {
      fix: 'Set TN_PRIVATE_KEY or pass --keystore FILE with the key of the validator (execution) address, or sign the digest elsewhere and pass --external-signature.',
    })
  const { signerFromFlags } = await import('./registry-step.js')
  const local = await signerFromFlags(session, flags, { action: 'the delegation signature' }).catch((err: unknown) => {
    throw err instanceof SignerRequiredError ? noKey() : err
  })
  if (local.type !== 'local') throw noKey()
  if (keys.executionAddress !== undefined && keys.executionAddress !== local.address)
    throw new SignerMismatchError({ signer: local.address, executionAddress: keys.executionAddress })
  return { kind: 'key', account: local.account }
}

/** --external-signature: the signature made elsewhere and the validator it must recover to. */
async function externalSigner(
  flags: DelegationSignFlags,
  keys: KeyMaterial,
  signature: string,
): Promise<Extract<DelegationSigner, { kind: 'external' }>> {
  const [{ parseAddressFlag }, { UsageError }, { checkHexBytes }] = await Promise.all([
    import('../lib/chain/address.js'),
    import('../lib/errors.js'),
    import('../lib/registry/stake-checks.js'),
  ])
  const validator: Address | undefined =
    flags.validator !== undefined ? parseAddressFlag(flags.validator, '--validator') : keys.executionAddress
  if (validator === undefined)
    throw new UsageError('The validator address is needed with --bls-pubkey.', { fix: 'Pass --validator ADDRESS.' })
  return {
    kind: 'external',
    validator,
    signature: checkHexBytes(signature, '--external-signature', 65),
  }
}

/** Offline with --registry-generation, --stake-version and --nonce (nothing contacted); otherwise the registry. */
async function delegationSource(flags: DelegationSignFlags): Promise<SignDelegationSource> {
  const stakeVersion = flags['stake-version']
  const { nonce } = flags
  if (stakeVersion !== undefined && nonce !== undefined && flags['registry-generation']) {
    const { offlineTarget } = await import('../lib/registry/offline-target.js')
    const target = await offlineTarget(flags)
    return {
      mode: 'offline',
      generation: flags['registry-generation'],
      chainId: target.chainId,
      registry: target.registry,
      stakeVersion,
      nonce: BigInt(nonce),
    }
  }
  const { openRegistryContext } = await import('../lib/registry/command-support.js')
  return { mode: 'online', ctx: await openRegistryContext(flags) }
}

/** The chain the signature is for: stated offline; online the target's expected id, else the endpoint's. */
async function sourceChainId(source: SignDelegationSource): Promise<number> {
  if (source.mode === 'offline') return source.chainId
  const { ctx } = source
  const { explainRpcError } = await import('../lib/chain/rpc-errors.js')
  return (
    ctx.target.expectedChainId ??
    (await ctx.client.getChainId().catch((err: unknown) => {
      throw explainRpcError(err, ctx.target.rpcUrl) ?? err
    }))
  )
}
