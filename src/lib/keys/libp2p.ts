/**
 * libp2p encodings of an ed25519 network key (reference-facts: Network keys):
 * - `network_key` = base58 of the libp2p protobuf PublicKey {Type: Ed25519 (1), Data: 32 bytes}:
 *   `08 01 12 20` || key (36 bytes; the text starts `4XTTM`);
 * - peer id = base58 of the identity multihash of those 36 bytes: `00 24` || protobuf
 *   (the text starts `12D3KooW`).
 */

import { base58Decode, base58Encode } from '../io/base58.js'
import { maxBase58Length } from '../nodeinfo/base58.js'

/** protobuf field 1 (KeyType) = 1 (Ed25519), field 2 (Data) of length 32. */
const PROTOBUF_ED25519_PREFIX = Uint8Array.of(0x08, 0x01, 0x12, 0x20)
/** multihash: code 0x00 (identity), length 0x24 (36). */
const IDENTITY_MULTIHASH_PREFIX = Uint8Array.of(0x00, 0x24)

export const ED25519_PUBLIC_KEY_LENGTH = 32

/** The 36-byte libp2p protobuf encoding of an ed25519 public key. */
export function protobufPublicKey(publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== ED25519_PUBLIC_KEY_LENGTH)
    throw new RangeError(`ed25519 public key: expected 32 bytes, got ${publicKey.length}`)
  const out = new Uint8Array(36)
  out.set(PROTOBUF_ED25519_PREFIX, 0)
  out.set(publicKey, 4)
  return out
}

/**
 * `network_key` text for an ed25519 public key.
 * @example encodeNetworkKey(pub) // '4XTTM…'
 */
export function encodeNetworkKey(publicKey: Uint8Array): string {
  return base58Encode(protobufPublicKey(publicKey))
}

/** The ed25519 public key inside a `network_key` text, or undefined when the text is not one. */
export function decodeNetworkKey(text: string): Uint8Array | undefined {
  if (text.length > maxBase58Length(36)) return undefined
  let bytes: Uint8Array
  try {
    bytes = base58Decode(text)
  } catch {
    return undefined
  }
  if (bytes.length !== 36 || !startsWith(bytes, PROTOBUF_ED25519_PREFIX)) return undefined
  return bytes.slice(4)
}

/**
 * The libp2p peer id (`12D3KooW…`) of an ed25519 public key.
 * @example peerIdFromPublicKey(pub) // '12D3KooW…'
 */
export function peerIdFromPublicKey(publicKey: Uint8Array): string {
  const out = new Uint8Array(38)
  out.set(IDENTITY_MULTIHASH_PREFIX, 0)
  out.set(protobufPublicKey(publicKey), 2)
  return base58Encode(out)
}

/** The ed25519 public key inside a peer id text, or undefined when it is not an ed25519 identity peer id. */
export function publicKeyFromPeerId(text: string): Uint8Array | undefined {
  if (text.length > maxBase58Length(38)) return undefined
  let bytes: Uint8Array
  try {
    bytes = base58Decode(text)
  } catch {
    return undefined
  }
  if (bytes.length !== 38 || !startsWith(bytes, IDENTITY_MULTIHASH_PREFIX)) return undefined
  const inner = bytes.slice(2)
  return startsWith(inner, PROTOBUF_ED25519_PREFIX) ? inner.slice(4) : undefined
}

/** The peer id of a `network_key` text, or undefined when the text is not a network key. */
export function peerIdFromNetworkKey(text: string): string | undefined {
  const pub = decodeNetworkKey(text)
  return pub ? peerIdFromPublicKey(pub) : undefined
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return prefix.every((b, i) => bytes[i] === b)
}
