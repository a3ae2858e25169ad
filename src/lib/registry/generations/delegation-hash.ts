/**
 * The EIP-712 delegation digest as the deployed registries compute it (registry.md §7,
 * registry-next.md §4, both measured on the real code):
 *   digest = keccak256(0x1901 ‖ domainSeparator ‖ structHash)   (Solady EIP712)
 *   domainSeparator = keccak256(abi.encode(EIP712Domain typehash, 0x00…00, 0x00…00, chainId, registry))
 * The name and version hashes are ZERO: the genesis code carries Solady's immutables as zeros, so
 * the contract rebuilds the separator from them, although `eip712Domain()` reports
 * "Telcoin StakeManager"/"1". A textbook `signTypedData` with that domain gives another digest,
 * which the registry rejects (NotValidator). So tnv hashes by hand and, online, compares with
 * the registry's own `delegationDigest`.
 */
import { type Address, concatHex, encodeAbiParameters, type Hex, keccak256, numberToHex, pad, toHex } from 'viem'

export const EIP712_DOMAIN_TYPE = 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'
const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`

/** The separator the deployed registries use: zero name and version hashes. */
export function zeroNameDomainSeparator(chainId: number, registry: Address): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
      [keccak256(toHex(EIP712_DOMAIN_TYPE)), ZERO_HASH, ZERO_HASH, BigInt(chainId), registry],
    ),
  )
}

/** Everything a delegation digest binds. */
export type DelegationDigestInputs = {
  chainId: number
  registry: Address
  /** 96-byte compressed BLS public key. */
  blsPubkey: Hex
  validator: Address
  delegator: Address
  /** The current epoch's stake version (the type field is named `validatorVersion`). */
  validatorVersion: number
  /** The validator's delegation nonce (no view exposes it; see findDelegationNonce). */
  nonce: bigint
  /** Unix seconds; next generation only (null on adiri, whose digest has no deadline). */
  deadline: bigint | null
}

export type DelegationTypeSpec = {
  /** The EIP-712 type string of the generation. */
  type: string
  /** keccak256 of the key as the generation hashes it. */
  keyHash: (blsPubkey: Hex) => Hex
  withDeadline: boolean
}

/** A word-encoded struct hash prefix for every nonce: the search below varies only the nonce. */
function structPrefix(spec: DelegationTypeSpec, i: DelegationDigestInputs): { head: Hex; tail: Hex } {
  const head = concatHex([
    keccak256(toHex(spec.type)),
    spec.keyHash(i.blsPubkey),
    pad(i.validator.toLowerCase() as Hex),
    pad(i.delegator.toLowerCase() as Hex),
    numberToHex(i.validatorVersion, { size: 32 }),
  ])
  if (spec.withDeadline && i.deadline === null) throw new RangeError('this generation signs a deadline; none given')
  const tail: Hex = spec.withDeadline ? numberToHex(i.deadline as bigint, { size: 32 }) : '0x'
  return { head, tail }
}

function digestOf(separator: Hex, head: Hex, nonce: bigint, tail: Hex): Hex {
  const structHash = keccak256(concatHex([head, numberToHex(nonce, { size: 32 }), tail]))
  return keccak256(concatHex(['0x1901', separator, structHash]))
}

/** The digest the registry computes for these inputs. */
export function computeDelegationDigest(spec: DelegationTypeSpec, inputs: DelegationDigestInputs): Hex {
  return delegationDigestParts(spec, inputs).digest
}

/**
 * The digest and its two EIP-712 halves, for signers that take them separately (a hardware
 * wallet's "EIP-712 hashed message": it computes keccak256(0x1901 ‖ domainSeparator ‖ structHash)).
 */
export function delegationDigestParts(
  spec: DelegationTypeSpec,
  inputs: DelegationDigestInputs,
): { domainSeparator: Hex; structHash: Hex; digest: Hex } {
  const { head, tail } = structPrefix(spec, inputs)
  const domainSeparator = zeroNameDomainSeparator(inputs.chainId, inputs.registry)
  const structHash = keccak256(concatHex([head, numberToHex(inputs.nonce, { size: 32 }), tail]))
  return { domainSeparator, structHash, digest: keccak256(concatHex(['0x1901', domainSeparator, structHash])) }
}

/** How far the nonce search goes: each nonce is one delegateStake or one increaseNonce transaction. */
export const MAX_DELEGATION_NONCE = 4096n

/**
 * The registry exposes the nonce only through its digest: the nonce whose local digest equals
 * the registry's, or null when none up to MAX_DELEGATION_NONCE does (then tnv's digest does not
 * match the registry's at all, and nothing may be signed).
 */
export function findDelegationNonce(
  spec: DelegationTypeSpec,
  inputs: Omit<DelegationDigestInputs, 'nonce'>,
  registryDigest: Hex,
  max: bigint = MAX_DELEGATION_NONCE,
): bigint | null {
  const { head, tail } = structPrefix(spec, { ...inputs, nonce: 0n })
  const separator = zeroNameDomainSeparator(inputs.chainId, inputs.registry)
  const want = registryDigest.toLowerCase()
  for (let n = 0n; n < max; n++) if (digestOf(separator, head, n, tail) === want) return n
  return null
}
