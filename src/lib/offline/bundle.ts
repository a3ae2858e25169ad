/**
 * The offline bundle (format `tnv-offline-bundle`, version 1) and its signed companion
 * (`tnv-offline-signed`, version 1), documented in docs/offline.md and described by
 * docs/offline-bundle.schema.json. Every amount is a decimal string of wei; every field the
 * broadcast re-checks is under `preconditions`.
 *
 * The digest is `sha256:` + hex of SHA-256 over the canonical JSON of the object without its
 * `digest` field (object keys sorted by UTF-16 code units at every level, no whitespace,
 * strings as JSON.stringify writes them). Any change to any field, or a truncated file, fails
 * the check before anything is shown, signed or sent.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import type { Address, Hex } from 'viem'
import type { PreparedTransaction } from '../chain/transaction.js'
import { UsageError } from '../errors.js'
import type { StakeProof } from '../registry/generations/adapter.js'
import { BundleDigestMismatchError, InvalidBundleError } from './errors.js'

export const BUNDLE_FORMAT = 'tnv-offline-bundle'
export const SIGNED_FORMAT = 'tnv-offline-signed'
export const BUNDLE_VERSION = 1

/** The registry steps a bundle can carry (the journal's step names). */
export const OFFLINE_STEPS = [
  'stake',
  'activate',
  'beginExit',
  'unstake',
  'claimStakeRewards',
  'delegateStake',
] as const
export type OfflineStep = (typeof OFFLINE_STEPS)[number]

export type BundleTransaction = {
  chainId: number
  from: Address
  to: Address
  nonce: number
  /** wei */
  value: string
  /** The value as operators read it ("1,000,000 TEL"). */
  valueTel: string
  data: Hex
  /** Gas limit: the simulation's estimate plus 20 %. */
  gas: string
  type: 'eip1559' | 'legacy'
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  gasPrice?: string
}

export type Bundle = {
  format: typeof BUNDLE_FORMAT
  version: typeof BUNDLE_VERSION
  step: OfflineStep
  createdAt: string
  /** After this instant the bundle is refused by broadcast (and sign). */
  expiresAt: string
  chain: { chainId: number; name: string }
  registry: { address: Address; codeHash: Hex; generation: 'adiri' | 'next' }
  /** The calldata decoded with the generation's ABI: the function's signature and its arguments (bigints as decimal strings). */
  call: { function: string; args: unknown[] }
  transaction: BundleTransaction
  /** What the broadcast reads again; any difference refuses the send. */
  preconditions: {
    /** The validator the step acts on. */
    validator: Address
    /** Its status when prepared (Undefined, Staked, PendingActivation, Active, PendingExit, Exited, Retired). */
    status: string
    /** The registry's current stake version when prepared. */
    stakeVersion: number
    /** The current epoch when prepared. */
    epoch: number
    /** The first epoch in which the step is accepted (unstake after an exit); null: no epoch constraint. */
    minEpoch: number | null
    /** The base fee above which the transaction's max fee can no longer pay (maxFeePerGas − tip), wei. */
    maxBaseFeePerGas: string
    /** The latest block's base fee when prepared, wei (null: a chain without one). */
    baseFeePerGas: string | null
  }
  /** What the operator is asked to agree to: the change on chain and what cannot be undone. */
  intent: { title: string; changes: string[]; irreversible: string[] }
  /** Stake: node-info.yaml's key and proof of possession, checked against the key on disk when prepared; delegateStake: the validator's signature file's. */
  keyBinding: {
    blsPubkey: Hex
    proofOfPossession: Hex | null
    executionAddress: Address | null
    nodeInfo: string | null
    /** How the key on disk was checked against node-info.yaml's ("match": derived, recorded or opened; "absent": no key file there). */
    keyOnDisk: 'match' | 'absent' | 'not-checked'
  } | null
  /** The command line that prepares a fresh bundle for the same step (printed when this one is stale). */
  prepareCommand: string
  digest: string
}

/** The step of a bundle that carries no transaction: the validator's signature of the registry's delegation digest. */
export const DELEGATION_SIGNATURE_STEP = 'delegationSignature'

/**
 * The EIP-712 delegation signature for a validator whose key is offline: the registry's digest
 * (read when prepared) with every input of it, and the proof of possession the delegator's
 * stake needs. Signing it writes the delegation signature file `tnv delegation stake` reads.
 */
export type DelegationBundle = {
  format: typeof BUNDLE_FORMAT
  version: typeof BUNDLE_VERSION
  step: typeof DELEGATION_SIGNATURE_STEP
  createdAt: string
  /** No later than the signature's deadline. */
  expiresAt: string
  chain: { chainId: number; name: string }
  registry: { address: Address; codeHash: Hex; generation: 'adiri' | 'next' }
  delegation: {
    validator: Address
    delegator: Address
    blsPubkey: Hex
    /** The digest's validatorVersion: the current stake version when prepared. */
    stakeVersion: number
    /** The validator's delegation nonce when prepared, decimal. */
    nonce: string
    /** Unix seconds, decimal; null on adiri. */
    deadline: string | null
    /** The registry's own delegationDigest for these inputs. */
    digest: Hex
    domainSeparator: Hex
    structHash: Hex
    proof: StakeProof
  }
  preconditions: { validator: Address; status: string; stakeVersion: number; epoch: number }
  intent: { title: string; changes: string[]; irreversible: string[] }
  keyBinding: NonNullable<Bundle['keyBinding']>
  prepareCommand: string
  digest: string
}

export type AnyBundle = Bundle | DelegationBundle

export type SignedFile = {
  format: typeof SIGNED_FORMAT
  version: typeof BUNDLE_VERSION
  /** The digest of the bundle that was signed. */
  bundleDigest: string
  from: Address
  hash: Hex
  /** The signed transaction, ready for eth_sendRawTransaction. */
  raw: Hex
  signedAt: string
  digest: string
}

/** JSON with object keys sorted at every level and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonicalJson: non-finite number')
    if (value === undefined) throw new Error('canonicalJson: undefined')
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

/** `sha256:<hex>` of the canonical JSON of everything but `digest`. */
export function digestOf(doc: Record<string, unknown>): string {
  const { digest: _omit, ...rest } = doc
  return `sha256:${bytesToHex(sha256(new TextEncoder().encode(canonicalJson(rest))))}`
}

/** The object with its digest set. */
export function sealed<T extends Record<string, unknown>>(doc: Omit<T, 'digest'>): T {
  return { ...doc, digest: digestOf(doc as Record<string, unknown>) } as unknown as T
}

/** The file text: pretty JSON (the digest does not depend on the layout). */
export function fileText(doc: AnyBundle | SignedFile): string {
  return `${JSON.stringify(doc, null, 2)}\n`
}

type Check = (problem: string) => never

const HEX = /^0x[0-9a-fA-F]*$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HASH = /^0x[0-9a-fA-F]{64}$/
const WEI = /^(0|[1-9][0-9]*)$/
const DIGEST = /^sha256:[0-9a-f]{64}$/

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function field(obj: Record<string, unknown>, key: string, path: string, bad: Check) {
  const at = path ? `${path}.${key}` : key
  const value = obj[key]
  return {
    string(pattern?: RegExp): string {
      if (typeof value !== 'string' || (pattern && !pattern.test(value))) bad(`${at} is missing or malformed`)
      return value as string
    },
    int(): number {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) bad(`${at} is not a whole number`)
      return value as number
    },
    record(): Record<string, unknown> {
      if (!isRecord(value)) bad(`${at} is missing`)
      return value as Record<string, unknown>
    },
    time(): string {
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) bad(`${at} is not a time`)
      return value as string
    },
  }
}

/** Parses a document, checks its format and version, then its digest (before any other field is trusted). */
function parseSealed(text: string, path: string, format: string): Record<string, unknown> {
  const bad: Check = (problem) => {
    throw new InvalidBundleError(path, problem)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    bad('it is not complete JSON (truncated or not a tnv file)')
  }
  if (!isRecord(json)) bad('it is not a JSON object')
  const doc = json as Record<string, unknown>
  if (doc.format !== format) bad(`its format is ${JSON.stringify(doc.format)}, not ${format}`)
  if (doc.version !== BUNDLE_VERSION)
    bad(`its version ${JSON.stringify(doc.version)} is not ${BUNDLE_VERSION}, the one this tnv reads`)
  const recorded = field(doc, 'digest', '', bad).string(DIGEST)
  const computed = digestOf(doc)
  if (computed !== recorded) throw new BundleDigestMismatchError(path, { recorded, computed })
  return doc
}

/**
 * A transaction bundle (what broadcast sends); a delegation signature bundle is refused with
 * where its signature goes instead.
 * @example const bundle = parseBundle(await readFile(path, 'utf8'), path)
 */
export function parseBundle(text: string, path: string): Bundle {
  const bundle = parseAnyBundle(text, path)
  if (bundle.step === DELEGATION_SIGNATURE_STEP)
    throw new UsageError(
      `${path} is a delegation signature bundle: it holds no transaction, so there is nothing to broadcast.`,
      {
        fix: `Give the signature file \`tnv offline sign\` wrote beside it (${signedPathOf(path)}) to the delegator, who stakes with \`tnv delegation stake --signature FILE\` (or prepares that offline with \`tnv offline prepare delegation-stake --signature FILE\`).`,
      },
    )
  return bundle
}

/**
 * Reads a bundle's text: JSON, format and version, digest, then every field's shape.
 * @example const bundle = parseAnyBundle(await readFile(path, 'utf8'), path)
 */
export function parseAnyBundle(text: string, path: string): AnyBundle {
  const bad: Check = (problem) => {
    throw new InvalidBundleError(path, problem)
  }
  const doc = parseSealed(text, path, BUNDLE_FORMAT)
  const f = (o: Record<string, unknown>, k: string, p = '') => field(o, k, p, bad)
  const step = f(doc, 'step').string()
  if (step === DELEGATION_SIGNATURE_STEP) return checkDelegationBundle(doc, bad)
  if (!(OFFLINE_STEPS as readonly string[]).includes(step))
    bad(`step ${step} is not one of ${[...OFFLINE_STEPS, DELEGATION_SIGNATURE_STEP].join(', ')}`)
  f(doc, 'createdAt').time()
  f(doc, 'expiresAt').time()
  const chain = f(doc, 'chain').record()
  f(chain, 'chainId', 'chain').int()
  f(chain, 'name', 'chain').string()
  const registry = f(doc, 'registry').record()
  f(registry, 'address', 'registry').string(ADDRESS)
  f(registry, 'codeHash', 'registry').string(HASH)
  const generation = f(registry, 'generation', 'registry').string()
  if (generation !== 'adiri' && generation !== 'next') bad(`registry.generation ${generation} is not adiri or next`)
  const call = f(doc, 'call').record()
  f(call, 'function', 'call').string()
  if (!Array.isArray(call.args)) bad('call.args is not a list')
  checkTransaction(doc, { chain, registry }, bad)
  checkPreconditions(doc, bad)
  checkIntent(doc, bad)
  if (doc.keyBinding !== null) {
    const kb = f(doc, 'keyBinding').record()
    f(kb, 'blsPubkey', 'keyBinding').string(HEX)
  } else if (step === 'stake') bad('a stake bundle has no keyBinding')
  f(doc, 'prepareCommand').string()
  return doc as unknown as Bundle
}

/** The prepared transaction: its fields' shapes, its fee type, and its chain and target are the bundle's. */
function checkTransaction(
  doc: Record<string, unknown>,
  { chain, registry }: { chain: Record<string, unknown>; registry: Record<string, unknown> },
  bad: Check,
): void {
  const tx = field(doc, 'transaction', '', bad).record()
  const t = (k: string) => field(tx, k, 'transaction', bad)
  t('chainId').int()
  t('from').string(ADDRESS)
  t('to').string(ADDRESS)
  t('nonce').int()
  t('value').string(WEI)
  t('valueTel').string()
  const data = t('data').string(HEX)
  if (data.length % 2 !== 0) bad('transaction.data has an odd number of hex digits')
  t('gas').string(WEI)
  const type = t('type').string()
  if (type === 'eip1559') {
    t('maxFeePerGas').string(WEI)
    t('maxPriorityFeePerGas').string(WEI)
  } else if (type === 'legacy') t('gasPrice').string(WEI)
  else bad(`transaction.type ${type} is not eip1559 or legacy`)
  if (tx.chainId !== chain.chainId) bad('transaction.chainId is not chain.chainId')
  if (String(tx.to).toLowerCase() !== String(registry.address).toLowerCase()) bad('transaction.to is not the registry')
}

/** The state the bundle was prepared against. */
function checkPreconditions(doc: Record<string, unknown>, bad: Check): void {
  const pre = field(doc, 'preconditions', '', bad).record()
  const p = (k: string) => field(pre, k, 'preconditions', bad)
  p('validator').string(ADDRESS)
  p('status').string()
  p('stakeVersion').int()
  p('epoch').int()
  if (pre.minEpoch !== null) p('minEpoch').int()
  p('maxBaseFeePerGas').string(WEI)
  if (pre.baseFeePerGas !== null) p('baseFeePerGas').string(WEI)
}

/** What the offline machine shows before signing: a title and lists of lines. */
function checkIntent(doc: Record<string, unknown>, bad: Check): void {
  const intent = field(doc, 'intent', '', bad).record()
  field(intent, 'title', 'intent', bad).string()
  for (const k of ['changes', 'irreversible'])
    if (!Array.isArray(intent[k]) || !(intent[k] as unknown[]).every((x) => typeof x === 'string'))
      bad(`intent.${k} is not a list of lines`)
}

/** The fields of a delegation signature bundle (its digest already checked). */
function checkDelegationBundle(doc: Record<string, unknown>, bad: Check): DelegationBundle {
  const f = (o: Record<string, unknown>, k: string, p = '') => field(o, k, p, bad)
  f(doc, 'createdAt').time()
  f(doc, 'expiresAt').time()
  const chain = f(doc, 'chain').record()
  f(chain, 'chainId', 'chain').int()
  const registry = f(doc, 'registry').record()
  f(registry, 'address', 'registry').string(ADDRESS)
  f(registry, 'codeHash', 'registry').string(HASH)
  const generation = f(registry, 'generation', 'registry').string()
  if (generation !== 'adiri' && generation !== 'next') bad(`registry.generation ${generation} is not adiri or next`)
  const d = f(doc, 'delegation').record()
  const g = (k: string) => f(d, k, 'delegation')
  g('validator').string(ADDRESS)
  g('delegator').string(ADDRESS)
  g('blsPubkey').string(HEX)
  g('stakeVersion').int()
  g('nonce').string(WEI)
  if (d.deadline !== null) g('deadline').string(WEI)
  g('digest').string(HASH)
  g('domainSeparator').string(HASH)
  g('structHash').string(HASH)
  const proof = g('proof').record()
  if (proof.format !== 'compressed' && proof.format !== 'uncompressed')
    bad('delegation.proof.format is not compressed or uncompressed')
  const pre = f(doc, 'preconditions').record()
  f(pre, 'validator', 'preconditions').string(ADDRESS)
  f(pre, 'status', 'preconditions').string()
  const intent = f(doc, 'intent').record()
  f(intent, 'title', 'intent').string()
  f(doc, 'keyBinding').record()
  f(doc, 'prepareCommand').string()
  return doc as unknown as DelegationBundle
}

/**
 * Reads a signed file's text: JSON, format and version, digest, shape.
 * @example const signed = parseSignedFile(await readFile(path, 'utf8'), path)
 */
export function parseSignedFile(text: string, path: string): SignedFile {
  const bad: Check = (problem) => {
    throw new InvalidBundleError(path, problem)
  }
  const doc = parseSealed(text, path, SIGNED_FORMAT)
  field(doc, 'bundleDigest', '', bad).string(DIGEST)
  field(doc, 'from', '', bad).string(ADDRESS)
  field(doc, 'hash', '', bad).string(HASH)
  field(doc, 'raw', '', bad).string(HEX)
  field(doc, 'signedAt', '', bad).time()
  return doc as unknown as SignedFile
}

/** Where `tnv offline sign` writes the signed transaction: beside the bundle. */
export function signedPathOf(bundlePath: string): string {
  return bundlePath.endsWith('.json')
    ? `${bundlePath.slice(0, -'.json'.length)}.signed.json`
    : `${bundlePath}.signed.json`
}

/** The transaction of a bundle as the signer and the step runner take it. */
export function preparedOf(b: Bundle): PreparedTransaction {
  const t = b.transaction
  return {
    chainId: t.chainId,
    from: t.from,
    to: t.to,
    value: BigInt(t.value),
    data: t.data,
    gas: BigInt(t.gas),
    nonce: t.nonce,
    fees:
      t.type === 'eip1559'
        ? {
            type: 'eip1559' as const,
            maxFeePerGas: BigInt(t.maxFeePerGas ?? '0'),
            maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas ?? '0'),
          }
        : { type: 'legacy' as const, gasPrice: BigInt(t.gasPrice ?? '0') },
  }
}
