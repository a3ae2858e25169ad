/**
 * The delegation signature file `tnv delegation sign` writes and `tnv delegation stake` reads:
 * the validator's EIP-712 signature with every input of the digest (so the delegator can
 * check it before paying), plus the proof of possession the stake needs. Nothing secret.
 */
import { readFile, rm } from 'node:fs/promises'
import { type Address, getAddress, type Hex } from 'viem'
import { BadInputError, UsageError } from '../errors.js'
import { faultPoint, fileTimestamp, pathExists, writeFileAtomic } from '../fs/atomic.js'
import { deadlineIso } from './deadline.js'
import type { DelegationInputs } from './delegation-digest.js'
import { BLS_PUBKEY_BYTES, POP_BYTES } from './stake-checks.js'

export const DELEGATION_FILE_TYPE = 'tnv-delegation-signature'

export type DelegationSignatureFile = {
  type: typeof DELEGATION_FILE_TYPE
  version: 1
  chainId: number
  registry: Address
  validator: Address
  delegator: Address
  blsPubkey: Hex
  proofOfPossession: Hex
  stakeVersion: number
  /** decimal */
  nonce: string
  /** Unix seconds, decimal. */
  deadline: string
  deadlineIso: string
  digest: Hex
  /** The validator's 65-byte ECDSA signature over the digest. */
  signature: Hex
}

export function toDelegationFile(
  inputs: DelegationInputs,
  extra: { proofOfPossession: Hex; digest: Hex; signature: Hex },
): DelegationSignatureFile {
  return {
    type: DELEGATION_FILE_TYPE,
    version: 1,
    chainId: inputs.chainId,
    registry: inputs.registry,
    validator: inputs.validator,
    delegator: inputs.delegator,
    blsPubkey: inputs.blsPubkey,
    proofOfPossession: extra.proofOfPossession,
    stakeVersion: inputs.stakeVersion,
    nonce: inputs.nonce.toString(),
    deadline: inputs.deadline.toString(),
    deadlineIso: deadlineIso(inputs.deadline),
    digest: extra.digest,
    signature: extra.signature,
  }
}

export function delegationInputsOf(file: DelegationSignatureFile): DelegationInputs {
  return {
    chainId: file.chainId,
    registry: file.registry,
    blsPubkey: file.blsPubkey,
    validator: file.validator,
    delegator: file.delegator,
    stakeVersion: file.stakeVersion,
    nonce: BigInt(file.nonce),
    deadline: BigInt(file.deadline),
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
    text = await readFile(path, 'utf8')
  } catch {
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
  const bad = (field: string, problem: string) =>
    new BadInputError(`${path}: ${field} ${problem}.`, {
      fix: 'Ask the validator for a fresh file from `tnv delegation sign`; do not edit it by hand.',
    })
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw bad('the file', 'is not a JSON object')
  const o = json as Record<string, unknown>
  if (o.type !== DELEGATION_FILE_TYPE) throw bad('type', `is not "${DELEGATION_FILE_TYPE}"`)
  if (o.version !== 1) throw bad('version', 'is not 1')
  const address = (field: string): Address => {
    const v = o[field]
    if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) throw bad(field, 'is not a 20-byte 0x address')
    return getAddress(v.toLowerCase())
  }
  const hex = (field: string, bytes: number): Hex => {
    const v = o[field]
    if (typeof v !== 'string' || !/^0x[0-9a-fA-F]*$/.test(v) || v.length !== 2 + bytes * 2)
      throw bad(field, `is not ${bytes} bytes of 0x hex`)
    return v.toLowerCase() as Hex
  }
  const decimal = (field: string): string => {
    const v = o[field]
    if (typeof v !== 'string' || !/^\d+$/.test(v)) throw bad(field, 'is not a decimal string')
    return v
  }
  const int = (field: string, max: number): number => {
    const v = o[field]
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      throw bad(field, `is not an integer in [0, ${max}]`)
    return v
  }
  const deadline = decimal('deadline')
  return {
    type: DELEGATION_FILE_TYPE,
    version: 1,
    chainId: int('chainId', Number.MAX_SAFE_INTEGER),
    registry: address('registry'),
    validator: address('validator'),
    delegator: address('delegator'),
    blsPubkey: hex('blsPubkey', BLS_PUBKEY_BYTES),
    proofOfPossession: hex('proofOfPossession', POP_BYTES),
    stakeVersion: int('stakeVersion', 255),
    nonce: decimal('nonce'),
    deadline,
    deadlineIso: deadlineIso(BigInt(deadline)),
    digest: hex('digest', 32),
    signature: hex('signature', 65),
  }
}
