/**
 * Network (p2p) keys, re-derived from the BLS key (reference-facts: Network keys): for the
 * primary and each worker, sig = BLS-sign(seed text bytes); h = BLAKE3(sig); h is the ed25519
 * secret seed. Only the seed texts are stored (node-keys/*.seed).
 */
import { createPrivateKey, createPublicKey } from 'node:crypto'
import { blake3 } from '@noble/hashes/blake3.js'
import { blsSign } from './bls.js'
import { encodeNetworkKey, peerIdFromPublicKey } from './libp2p.js'

export type NetworkKeypair = {
  /** ed25519 secret seed (32 bytes). Zero it when done. */
  secretKey: Uint8Array
  /** ed25519 public key (32 bytes). */
  publicKey: Uint8Array
  /** node-info.yaml `network_key` text. */
  networkKey: string
  peerId: string
}

/**
 * @param seed the seed file's bytes, exactly as stored
 * @example const { networkKey, peerId } = deriveNetworkKeypair(secret, Buffer.from('primary network keypair'))
 */
export function deriveNetworkKeypair(blsSecret: Uint8Array, seed: Uint8Array): NetworkKeypair {
  const sig = blsSign(blsSecret, seed)
  const secretKey = blake3(sig)
  const publicKey = ed25519PublicKey(secretKey)
  return { secretKey, publicKey, networkKey: encodeNetworkKey(publicKey), peerId: peerIdFromPublicKey(publicKey) }
}

/** RFC 8410 PKCS#8 prefix of an Ed25519 private key (the 32-byte seed follows). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

/** ed25519 public key of a 32-byte secret seed (RFC 8032 §5.1.5), computed by node:crypto. */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, seed])
  try {
    const jwk = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ format: 'jwk' })
    return Uint8Array.from(Buffer.from(jwk.x ?? '', 'base64url'))
  } finally {
    der.fill(0)
  }
}
