/**
 * The delegation signature file `tnv delegation sign` writes and `tnv delegation stake` reads:
 * the validator's signature of the registry's delegation digest (a raw 32-byte hash, as the
 * deployed registries check it), every input of that digest (so the delegator can check it
 * before paying), and the proof of possession the stake needs in the generation's form (next:
 * node-info's 48-byte proof; adiri: the uncompressed key and the signature over the 218-byte
 * message, which only the validator's BLS key can make). Nothing secret.
 * Version 2; a version 1 file (tnv before the real registries) was signed over a digest no
 * deployed registry accepts, and is refused with that explanation.
 */
import { readFile, rm } from 'node:fs/promises'
import { type Address, getAddress, type Hex } from 'viem'
import { BadInputError, TnvError, UsageError } from '../errors.js'
import { faultPoint, fileTimestamp, pathExists, writeFileAtomic } from '../fs/atomic.js'
import { readSmallFile } from '../fs/read-small-file.js'
import { deadlineIso } from './deadline.js'
import type { StakeProof } from './generations/adapter.js'
import { UNCOMPRESSED_PUBKEY_BYTES, UNCOMPRESSED_SIGNATURE_BYTES } from './generations/adiri-proof.js'
import type { DelegationDigestInputs } from './generations/delegation-hash.js'
import type { RegistryGeneration } from './generations/detect.js'
import { BLS_PUBKEY_BYTES, POP_BYTES } from './stake-checks.js'

export const DELEGATION_FILE_TYPE = 'tnv-delegation-signature'
export const DELEGATION_FILE_VERSION = 2

export type DelegationSignatureFile = {
  type: typeof DELEGATION_FILE_TYPE
  version: typeof DELEGATION_FILE_VERSION
  /** The registry generation the digest and the proof are for. */
  generation: RegistryGeneration
  chainId: number
  registry: Address
  validator: Address
  delegator: Address
  blsPubkey: Hex
  /** The proof of possession in the generation's form. */
  proof: StakeProof
  /** The current epoch's stake version when signed (the digest's `validatorVersion`). */
  stakeVersion: number
  /** The validator's delegation nonce when signed, decimal. */
  nonce: string
  /** Unix seconds, decimal; null on adiri (its signatures have no deadline). */
  deadline: string | null
  deadlineIso: string | null
  /** The registry's delegation digest. */
  digest: Hex
  /** The validator's 65-byte ECDSA signature of `digest` as a raw hash (no EIP-191 prefix, no typed-data re-hash). */
  signature: Hex
}

export function toDelegationFile(
  generation: RegistryGeneration,
  inputs: DelegationDigestInputs,
  extra: { proof: StakeProof; digest: Hex; signature: Hex },
): DelegationSignatureFile {
  return {
    type: DELEGATION_FILE_TYPE,
    version: DELEGATION_FILE_VERSION,
    generation,
    chainId: inputs.chainId,
    registry: inputs.registry,
    validator: inputs.validator,
    delegator: inputs.delegator,
    blsPubkey: inputs.blsPubkey,
    proof: extra.proof,
    stakeVersion: inputs.validatorVersion,
    nonce: inputs.nonce.toString(),
    deadline: inputs.deadline === null ? null : inputs.deadline.toString(),
    deadlineIso: inputs.deadline === null ? null : deadlineIso(inputs.deadline),
    digest: extra.digest,
    signature: extra.signature,
  }
}

export function delegationInputsOf(file: DelegationSignatureFile): DelegationDigestInputs {
  return {
    chainId: file.chainId,
    registry: file.registry,
    blsPubkey: file.blsPubkey,
    validator: file.validator,
    delegator: file.delegator,
    validatorVersion: file.stakeVersion,
    nonce: BigInt(file.nonce),
    deadline: file.deadline === null ? null : BigInt(file.deadline),
  }
}

/**
 * Writes the file atomically. An existing file is refused unless `force`, and then kept
 * first as `<path>.<timestamp>.bak`.
 */
export async function writeDelegationFile(
  path: string,
  file: DelegationSignatureFile,
  { force = false }: { force?: boolean } = {},
): Promise<{ backup: string | null }> {
  let backup: string | null = null
  if (await pathExists(path)) {
    if (!force)
      throw new UsageError(`${path} exists already.`, {
        fix: 'Pass another --out path, or --force to replace it (the old file is kept as a timestamped backup).',
      })
    const stamp = fileTimestamp()
    backup = `${path}.${stamp}.bak`
    // never over an earlier backup made in the same second
    for (let i = 2; await pathExists(backup); i++) backup = `${path}.${stamp}-${i}.bak`
    await writeFileAtomic(backup, await readFile(path), { mode: 0o644 })
  }
  try {
    faultPoint('delegation:write')
    await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o644 })
  } catch (err) {
    if (backup) await rm(backup, { force: true }) // the file itself is unchanged
    throw err
  }
  return { backup }
}

/** Reads and checks a signature file; every field is validated with a labeled message. */
export async function readDelegationFile(path: string): Promise<DelegationSignatureFile> {
  let text: string
  try {
    text = await readSmallFile(path, { what: 'a delegation signature file', maxBytes: 64 * 1024 })
  } catch (err) {
    if (err instanceof TnvError) throw err
    throw new BadInputError(`The delegation signature file ${path} cannot be read.`, {
      fix: 'Pass the file the validator wrote with `tnv delegation sign --out FILE`.',
    })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new BadInputError(`The delegation signature file ${path} is not JSON.`, {
      fix: 'Pass the file the validator wrote with `tnv delegation sign --out FILE`.',
    })
  }
  return parseDelegationFile(json, path)
}

export function parseDelegationFile(json: unknown, path: string): DelegationSignatureFile {
  const bad: Bad = (field, problem) =>
    new BadInputError(`${path}: ${field} ${problem}.`, {
      fix: 'Ask the validator for a fresh file from `tnv delegation sign`; do not edit it by hand.',
    })
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw bad('the file', 'is not a JSON object')
  const o = json as Record<string, unknown>
  checkTypeAndVersion(o, path, bad)
  const { address, hex, decimal, int } = fieldReaders(o, bad)
  const generation = o.generation
  if (generation !== 'adiri' && generation !== 'next') throw bad('generation', 'is not "adiri" or "next"')
  const proof = proofOf(generation, o.proof, bad)
  let deadline: string | null = null
  if (generation === 'next') deadline = decimal('deadline')
  else if (o.deadline !== null && o.deadline !== undefined) throw bad('deadline', 'must be null for adiri')
  return {
    type: DELEGATION_FILE_TYPE,
    version: DELEGATION_FILE_VERSION,
    generation,
    chainId: int('chainId', Number.MAX_SAFE_INTEGER),
    registry: address('registry'),
    validator: address('validator'),
    delegator: address('delegator'),
    blsPubkey: hex('blsPubkey', BLS_PUBKEY_BYTES),
    proof,
    stakeVersion: int('stakeVersion', 255),
    nonce: decimal('nonce'),
    deadline,
    deadlineIso: deadline === null ? null : deadlineIso(BigInt(deadline)),
    digest: hex('digest', 32),
    signature: hex('signature', 65),
  }
}

/** A field's problem, as the error that asks for a fresh file. */
type Bad = (field: string, problem: string) => BadInputError

/** This file type, in this version; a version 1 file is refused with why. */
function checkTypeAndVersion(o: Record<string, unknown>, path: string, bad: Bad): void {
  if (o.type !== DELEGATION_FILE_TYPE) throw bad('type', `is not "${DELEGATION_FILE_TYPE}"`)
  if (o.version === 1)
    throw new BadInputError(
      `${path} is a version 1 delegation file: an older tnv signed it over a digest that no deployed registry accepts (its EIP-712 domain and type were not the registry's).`,
      { fix: 'Ask the validator to sign again with this tnv (`tnv delegation sign`).' },
    )
  if (o.version !== DELEGATION_FILE_VERSION) throw bad('version', `is not ${DELEGATION_FILE_VERSION}`)
}

/** 0x hex of exactly `bytes` bytes, lower-cased. */
function hexOf(v: unknown, field: string, bytes: number, bad: Bad): Hex {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]*$/.test(v) || v.length !== 2 + bytes * 2)
    throw bad(field, `is not ${bytes} bytes of 0x hex`)
  return v.toLowerCase() as Hex
}

/** Readers of the object's top-level fields, each checking the field's form. */
function fieldReaders(o: Record<string, unknown>, bad: Bad) {
  return {
    address: (field: string): Address => {
      const v = o[field]
      if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) throw bad(field, 'is not a 20-byte 0x address')
      return getAddress(v.toLowerCase())
    },
    hex: (field: string, bytes: number): Hex => hexOf(o[field], field, bytes, bad),
    decimal: (field: string): string => {
      const v = o[field]
      if (typeof v !== 'string' || !/^\d+$/.test(v)) throw bad(field, 'is not a decimal string')
      return v
    },
    int: (field: string, max: number): number => {
      const v = o[field]
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
        throw bad(field, `is not an integer in [0, ${max}]`)
      return v
    },
  }
}

/** The generation's proof of possession: next compressed, adiri uncompressed key and signature. */
function proofOf(generation: 'adiri' | 'next', p: unknown, bad: Bad): StakeProof {
  if (typeof p !== 'object' || p === null) throw bad('proof', 'is not an object')
  const proofObj = p as Record<string, unknown>
  if (generation === 'next') {
    if (proofObj.format !== 'compressed') throw bad('proof.format', 'is not "compressed" (the next registry’s proof)')
    return { format: 'compressed', signature: hexOf(proofObj.signature, 'proof.signature', POP_BYTES, bad) }
  }
  if (proofObj.format !== 'uncompressed')
    throw bad('proof.format', 'is not "uncompressed" (the adiri registry’s proof)')
  return {
    format: 'uncompressed',
    uncompressedPubkey: hexOf(proofObj.uncompressedPubkey, 'proof.uncompressedPubkey', UNCOMPRESSED_PUBKEY_BYTES, bad),
    uncompressedSignature: hexOf(
      proofObj.uncompressedSignature,
      'proof.uncompressedSignature',
      UNCOMPRESSED_SIGNATURE_BYTES,
      bad,
    ),
  }
}
