/**
 * The proof of possession the adiri registry verifies (registry.md §6): a BLS signature over the
 * 218-byte message `00 00 00 d5 01 ‖ uncompressed G2 public key (192) ‖ 14 ‖ address (20)`,
 * passed uncompressed as `(bytes uncompressedPubkey, bytes uncompressedSignature)`. (The next
 * generation and node-info.yaml use the 119-byte message and the 48-byte compressed signature.)
 * Used by rehearsal governance and the tests; the registry client has its own (issue 12).
 */
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { type Address, bytesToHex, type Hex, hexToBytes } from 'viem'
import { blsPublicKey, blsSign } from '../../lib/keys/bls.js'
import type { AdiriProofOfPossession } from './governance.js'

export const ADIRI_POP_MESSAGE_LENGTH = 218

/** The 218-byte adiri proof-of-possession message. */
export function adiriPopMessage(uncompressedPubkey: Uint8Array, address: Address): Uint8Array {
  if (uncompressedPubkey.length !== 192)
    throw new RangeError(`uncompressed BLS public key: expected 192 bytes, got ${uncompressedPubkey.length}`)
  const message = new Uint8Array(ADIRI_POP_MESSAGE_LENGTH)
  message.set([0, 0, 0, 0xd5, 0x01], 0)
  message.set(uncompressedPubkey, 5)
  message[197] = 0x14
  message.set(hexToBytes(address), 198)
  return message
}

/** The 192-byte uncompressed form of a 96-byte compressed G2 public key. */
export function uncompressG2(compressed: Uint8Array): Uint8Array {
  return bls12_381.G2.Point.fromBytes(compressed).toBytes(false)
}

/**
 * Signs adiri's proof of possession with a 32-byte BLS secret.
 * @example const pop = adiriProofOfPossession(secret, '0x…'); encodeFunctionData({ …, args: [pk, pop] })
 */
export function adiriProofOfPossession(
  secret: Uint8Array,
  address: Address,
): AdiriProofOfPossession & { blsPubkey: Hex } {
  const compressed = blsPublicKey(secret)
  const uncompressed = uncompressG2(compressed)
  const signature = blsSign(secret, adiriPopMessage(uncompressed, address))
  return {
    blsPubkey: bytesToHex(compressed),
    uncompressedPubkey: bytesToHex(uncompressed),
    uncompressedSignature: bytesToHex(bls12_381.G1.Point.fromBytes(signature).toBytes(false)),
  }
}
