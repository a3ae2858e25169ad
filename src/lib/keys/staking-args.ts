/**
 * The arguments of `ConsensusRegistry.stake(bytes blsPubkey, ProofOfPossession proof)` where
 * ProofOfPossession is the tuple `(bytes signature)` (reference-facts: Registry shapes), and
 * its calldata. The ABI encoding of this one fixed shape is written out here (Solidity ABI
 * spec, "Use of Dynamic Types") so that `export-staking-args --calldata` starts without
 * loading an ABI library; tests check it against viem's encodeFunctionData.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Hex, NodeInfo } from '../nodeinfo/types.js'
import { BLS_PUBLIC_KEY_LENGTH, BLS_SIGNATURE_LENGTH } from './bls.js'

export const STAKE_SIGNATURE = 'stake(bytes,(bytes))'

export type StakingArgs = { blsPubkey: Hex; proofOfPossession: Hex }

/** The two stake() arguments in 0x hex: the 96-byte public key and the 48-byte proof. */
export function stakingArgs(info: NodeInfo): StakingArgs {
  return { blsPubkey: toHex(info.blsPublicKey), proofOfPossession: toHex(info.proofOfPossession) }
}

/** The 4-byte selector of stake(bytes,(bytes)). */
export function stakeSelector(): Hex {
  return toHex(keccak_256(new TextEncoder().encode(STAKE_SIGNATURE)).slice(0, 4))
}

/**
 * Complete calldata of stake(bytes,(bytes)) (324 bytes):
 *   selector
 *   head: offset(blsPubkey) = 0x40, offset(tuple) = 0x40 + 32 + 96 = 0xc0
 *   blsPubkey: length 96, 96 bytes (3 words)
 *   tuple (dynamic, because it holds bytes): offset(signature) = 0x20, length 48, 48 bytes padded to 64
 * @example stakeCalldata(args.blsPubkey, args.proofOfPossession) // '0x…'
 */
export function stakeCalldata(blsPubkey: Hex, proofOfPossession: Hex): Hex {
  const pk = fromHex(blsPubkey, 'blsPubkey', BLS_PUBLIC_KEY_LENGTH)
  const pop = fromHex(proofOfPossession, 'proofOfPossession', BLS_SIGNATURE_LENGTH)
  const words = [
    word(0x40),
    word(0x40 + 32 + BLS_PUBLIC_KEY_LENGTH),
    word(pk.length),
    padded(pk),
    word(0x20),
    word(pop.length),
    padded(pop),
  ]
  return `${stakeSelector()}${words.join('')}` as Hex
}

/** One 32-byte big-endian word, as hex without 0x. */
function word(n: number): string {
  return n.toString(16).padStart(64, '0')
}

/** Bytes right-padded with zeros to a whole number of words, as hex without 0x. */
function padded(bytes: Uint8Array): string {
  const len = Math.ceil(bytes.length / 32) * 32
  return Buffer.from(bytes)
    .toString('hex')
    .padEnd(len * 2, '0')
}

function toHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString('hex')}`
}

function fromHex(hex: Hex, label: string, length: number): Uint8Array {
  if (!/^0x[0-9a-fA-F]*$/.test(hex) || hex.length !== 2 + 2 * length)
    throw new RangeError(`${label}: expected ${length} bytes of 0x hex`)
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
}
