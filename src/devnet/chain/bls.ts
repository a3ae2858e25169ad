/**
 * BLS12-381 for the devnet (minimum-signature variant: public key on G2, signature on G1),
 * with @noble/curves. Used for the genesis validators' proofs of possession.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { type Address, hexToBytes } from 'viem'

/** The DST of every Telcoin Network BLS signature (RFC 9380 suite BLS12381G1_XMD:SHA-256_SSWU_RO_). */
export const BLS_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_'

const sigs = bls12_381.shortSignatures

/** The 96-byte compressed G2 public key of a 32-byte secret. */
export function blsPublicKey(secretKey: Uint8Array): Uint8Array {
  return sigs.getPublicKey(secretKey).toBytes(true)
}

/** The 48-byte compressed G1 signature of `message`. */
export function blsSign(secretKey: Uint8Array, message: Uint8Array): Uint8Array {
  return sigs.sign(sigs.hash(message, BLS_DST), secretKey).toBytes(true)
}

/** The 119-byte proof-of-possession message: 00 00 00 || public key (96) || address (20). */
export function proofOfPossessionMessage(publicKey: Uint8Array, address: Address): Uint8Array {
  if (publicKey.length !== 96) throw new Error(`bls_public_key: expected 96 bytes, got ${publicKey.length}`)
  const message = new Uint8Array(119)
  message.set(publicKey, 3)
  message.set(hexToBytes(address), 99)
  return message
}

/** The proof of possession binding the secret's public key to `address`. */
export function signProofOfPossession(secretKey: Uint8Array, address: Address): Uint8Array {
  return blsSign(secretKey, proofOfPossessionMessage(blsPublicKey(secretKey), address))
}
