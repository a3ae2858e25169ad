/**
 * Proof of possession (reference-facts: Proof of possession): a BLS signature, with the usual
 * DST, over the 119-byte message `00 00 00` (intent: scope ProofOfPossession = 0, version 0,
 * app Telcoin = 0) || compressed public key (96) || execution address (20). It binds the BLS
 * key to the validator's address; the registry rebuilds the same message on-chain.
 */
import type { Hex } from '../nodeinfo/types.js'
import { BLS_PUBLIC_KEY_LENGTH, blsPublicKey, blsSign, blsVerify } from './bls.js'

export const POP_MESSAGE_LENGTH = 119
const INTENT = Uint8Array.of(0, 0, 0)

/** The 119-byte message a PoP signs. */
export function popMessage(publicKey: Uint8Array, address: Hex): Uint8Array {
  if (publicKey.length !== BLS_PUBLIC_KEY_LENGTH)
    throw new RangeError(`bls_public_key: expected 96 bytes, got ${publicKey.length}`)
  const addr = Buffer.from(address.slice(2), 'hex')
  if (addr.length !== 20) throw new RangeError(`execution_address: expected 20 bytes, got ${addr.length}`)
  const msg = new Uint8Array(POP_MESSAGE_LENGTH)
  msg.set(INTENT, 0)
  msg.set(publicKey, 3)
  msg.set(addr, 99)
  return msg
}

/**
 * Signs the PoP for `address` with the secret key (48 bytes, deterministic).
 * @example const pop = signProofOfPossession(secret, '0x…')
 */
export function signProofOfPossession(secret: Uint8Array, address: Hex, publicKey = blsPublicKey(secret)): Uint8Array {
  return blsSign(secret, popMessage(publicKey, address))
}

/** True when `proof` is a valid PoP of `publicKey` for `address`. Malformed input gives false. */
export function verifyProofOfPossession({
  publicKey,
  proof,
  address,
}: {
  publicKey: Uint8Array
  proof: Uint8Array
  address: Hex
}): boolean {
  if (publicKey.length !== BLS_PUBLIC_KEY_LENGTH) return false
  return blsVerify(proof, publicKey, popMessage(publicKey, address))
}
