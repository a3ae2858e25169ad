/**
 * `tnv offline sign`: signs a bundle's transaction with the operator's key, with no network.
 * The bundle's digest was checked when it was read (./bundle.ts); here its calldata is decoded
 * again and must be the call it records, the key must be the bundle's sender, and the bundle
 * must not have expired. The transaction is signed exactly as prepared (chain id, nonce, gas,
 * fees, value, calldata) through tnv's one signing function.
 */
import { type Hex, keccak256, type LocalAccount } from 'viem'
import { signTransaction } from '../chain/sign-transaction.js'
import { formatGasPrice, formatTelAndWei } from '../chain/units.js'
import { UsageError } from '../errors.js'
import { deadlineIso } from '../registry/deadline.js'
import { computeOfflineDelegationDigest } from '../registry/delegation-digest.js'
import { type DelegationSignatureFile, toDelegationFile } from '../registry/delegation-file.js'
import { registryAdapters } from '../registry/generations/adapters.js'
import {
  BUNDLE_VERSION,
  type Bundle,
  canonicalJson,
  type DelegationBundle,
  preparedOf,
  SIGNED_FORMAT,
  type SignedFile,
  sealed,
} from './bundle.js'
import { BundleSignerMismatchError, InvalidBundleError, StaleBundleError } from './errors.js'
import { decodeRegistryCall, describeDelegationIntent, describeIntent } from './intent.js'

export type CheckBundleIntentParameters = { bundle: Bundle; path: string; now?: Date | undefined }

/**
 * The bundle's recorded call is what its calldata says (decoded again with the generation's ABI).
 * @example checkBundleCall({ bundle, path })
 */
export function checkBundleCall({ bundle, path }: { bundle: Bundle; path: string }): void {
  const decoded = decodeRegistryCall(bundle.registry.generation, bundle.transaction.data)
  if (!decoded)
    throw new InvalidBundleError(
      path,
      `its calldata is not a registry step of the ${bundle.registry.generation} registry`,
    )
  if (
    decoded.step !== bundle.step ||
    canonicalJson({ function: decoded.function, args: decoded.args }) !== canonicalJson(bundle.call)
  )
    throw new InvalidBundleError(
      path,
      `its calldata is ${decoded.function}, not the ${bundle.call.function} it records`,
    )
  // the text the signer reads is what this call does, never free text from the bundle
  const { validator, status, epoch } = bundle.preconditions
  const from = bundle.transaction.from
  const args = canonicalJson(decoded.args).toLowerCase()
  const blsPubkey = bundle.keyBinding?.blsPubkey
  const selfStep = bundle.step === 'stake' || bundle.step === 'activate' || bundle.step === 'beginExit'
  if (selfStep ? validator.toLowerCase() !== from.toLowerCase() : !args.includes(validator.slice(2).toLowerCase()))
    throw new InvalidBundleError(path, `its call does not act on the validator ${validator} it names`)
  if (blsPubkey !== undefined && !args.includes(blsPubkey.slice(2).toLowerCase()))
    throw new InvalidBundleError(path, `its call does not register the BLS key ${blsPubkey} it names`)
  const intent = describeIntent({
    step: bundle.step,
    validator,
    from,
    value: BigInt(bundle.transaction.value),
    status,
    epoch,
    blsPubkey,
  })
  if (canonicalJson(intent) !== canonicalJson(bundle.intent))
    throw new InvalidBundleError(path, 'the intent it shows is not what its call does')
}

/**
 * The bundle's recorded call is what its calldata says, and it has not expired.
 * @example checkBundleIntent({ bundle, path })
 */
export function checkBundleIntent({ bundle, path, now = new Date() }: CheckBundleIntentParameters): void {
  checkBundleCall({ bundle, path })
  if (now.getTime() > Date.parse(bundle.expiresAt))
    throw new StaleBundleError(
      [{ name: 'expiry', prepared: `valid until ${bundle.expiresAt}`, now: `it is ${now.toISOString()}` }],
      bundle.prepareCommand,
    )
}

/** What the operator reads before agreeing: label/value rows, amounts in TEL and wei. */
export function bundleRows(bundle: Bundle): [string, string][] {
  const tx = preparedOf(bundle)
  const maxFee = tx.fees.type === 'eip1559' ? tx.fees.maxFeePerGas : tx.fees.gasPrice
  return [
    ['call', `${bundle.call.function}${bundle.call.args.length ? ` ${JSON.stringify(bundle.call.args)}` : ''}`],
    ['chain', `${bundle.chain.name} (chain id ${bundle.chain.chainId})`],
    ['registry', `${bundle.registry.address} (${bundle.registry.generation}, code hash ${bundle.registry.codeHash})`],
    ['from', `${tx.from} (nonce ${tx.nonce})`],
    ['value', formatTelAndWei(tx.value)],
    ['max gas cost', `${formatTelAndWei(tx.gas * maxFee)}: gas ${tx.gas} at ${formatGasPrice(maxFee)}`],
    ...bundle.intent.changes.map((c): [string, string] => ['changes', c]),
    ...bundle.intent.irreversible.map((c): [string, string] => ['irreversible', c]),
    [
      'assumes',
      `validator ${bundle.preconditions.validator} ${bundle.preconditions.status}, stake version ${bundle.preconditions.stakeVersion}, epoch ${bundle.preconditions.epoch}`,
    ],
    ['expires', bundle.expiresAt],
    ['digest', bundle.digest],
  ]
}

export type SignBundleParameters = {
  bundle: Bundle
  /** Where the bundle was read (for messages). */
  path: string
  account: LocalAccount
  now?: Date | undefined
}

/**
 * @example const signed = await signBundle({ bundle, path, account }); await writeFileAtomic(signedPathOf(path), fileText(signed))
 */
export async function signBundle({
  bundle,
  path,
  account,
  now = new Date(),
}: SignBundleParameters): Promise<SignedFile> {
  checkBundleIntent({ bundle, path, now })
  if (account.address.toLowerCase() !== bundle.transaction.from.toLowerCase())
    throw new BundleSignerMismatchError({ expected: bundle.transaction.from, got: account.address })
  const raw: Hex = await signTransaction(account, preparedOf(bundle))
  return sealed<SignedFile>({
    format: SIGNED_FORMAT,
    version: BUNDLE_VERSION,
    bundleDigest: bundle.digest,
    from: account.address,
    hash: keccak256(raw),
    raw,
    signedAt: now.toISOString(),
  })
}

/** What the validator reads before signing a delegation: the digest's inputs and what it allows. */
export function delegationRows(bundle: DelegationBundle): [string, string][] {
  const d = bundle.delegation
  return [
    ['signs', `the ${bundle.registry.generation} registry's delegation digest ${d.digest} (a raw hash)`],
    ['chain', `${bundle.chain.name} (chain id ${bundle.chain.chainId})`],
    ['registry', `${bundle.registry.address} (code hash ${bundle.registry.codeHash})`],
    ['validator', d.validator],
    ['delegator', d.delegator],
    ['bls public key', d.blsPubkey],
    ['stake version', String(d.stakeVersion)],
    ['nonce', d.nonce],
    ...(d.deadline !== null ? [['deadline', deadlineIso(BigInt(d.deadline))] as [string, string]] : []),
    ...bundle.intent.changes.map((c): [string, string] => ['changes', c]),
    ...bundle.intent.irreversible.map((c): [string, string] => ['irreversible', c]),
    ['expires', bundle.expiresAt],
    ['digest', bundle.digest],
  ]
}

/**
 * A delegation bundle's digest is what its inputs give (computed with nothing contacted), and it
 * has not expired: checked before the intent is shown.
 * @example const { inputs } = checkDelegationIntent({ bundle, path })
 */
export function checkDelegationIntent({
  bundle,
  path,
  now = new Date(),
}: {
  bundle: DelegationBundle
  path: string
  now?: Date | undefined
}): ReturnType<typeof computeOfflineDelegationDigest> {
  const d = bundle.delegation
  const computed = computeOfflineDelegationDigest({
    generation: bundle.registry.generation,
    chainId: bundle.chain.chainId,
    registry: bundle.registry.address,
    stakeVersion: d.stakeVersion,
    nonce: BigInt(d.nonce),
    blsPubkey: d.blsPubkey,
    validator: d.validator,
    delegator: d.delegator,
    deadline: d.deadline === null ? null : BigInt(d.deadline),
  })
  if (computed.digest.toLowerCase() !== d.digest.toLowerCase())
    throw new InvalidBundleError(path, `its inputs give the digest ${computed.digest}, not the ${d.digest} it records`)
  const intent = describeDelegationIntent({
    validator: d.validator,
    delegator: d.delegator,
    blsPubkey: d.blsPubkey,
    deadline: d.deadline === null ? null : BigInt(d.deadline),
    revocable: registryAdapters[bundle.registry.generation].features.increaseNonce,
  })
  if (canonicalJson(intent) !== canonicalJson(bundle.intent))
    throw new InvalidBundleError(path, 'the intent it shows is not what the signature allows')
  if (now.getTime() > Date.parse(bundle.expiresAt))
    throw new StaleBundleError(
      [{ name: 'expiry', prepared: `valid until ${bundle.expiresAt}`, now: `it is ${now.toISOString()}` }],
      bundle.prepareCommand,
    )
  return computed
}

/**
 * Signs a delegation bundle's digest with the validator's key, after computing that digest again
 * from its inputs (with nothing contacted): the file `tnv delegation stake --signature` reads.
 * @example const file = await signDelegationBundle({ bundle, path, account }); await writeDelegationFile(signedPathOf(path), file)
 */
export async function signDelegationBundle({
  bundle,
  path,
  account,
  now = new Date(),
}: {
  bundle: DelegationBundle
  path: string
  account: LocalAccount
  now?: Date | undefined
}): Promise<DelegationSignatureFile> {
  const d = bundle.delegation
  const computed = checkDelegationIntent({ bundle, path, now })
  if (account.address.toLowerCase() !== d.validator.toLowerCase())
    throw new BundleSignerMismatchError({ expected: d.validator, got: account.address })
  if (!account.sign)
    throw new UsageError(`The key of ${account.address} cannot sign a raw 32-byte digest.`, {
      fix: 'Use TN_PRIVATE_KEY or --keystore for the validator key (docs/staking.md lists which hardware signers can sign a raw digest).',
    })
  const signature = await account.sign({ hash: d.digest })
  return toDelegationFile(bundle.registry.generation, computed.inputs, { proof: d.proof, digest: d.digest, signature })
}
