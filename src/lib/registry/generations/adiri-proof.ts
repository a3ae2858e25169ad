/**
 * The adiri registry's proof of possession (registry.md §6, measured): a BLS signature (DST
 * BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_) over the 218-byte message
 *   00 00 00 d5 01 ‖ 192-byte uncompressed G2 public key ‖ 14 ‖ 20-byte validator address
 * sent as (bytes uncompressedPubkey, bytes uncompressedSignature): the key in blst/ZCash order
 * x.c1‖x.c0‖y.c1‖y.c0 (blst's `serialize`), the signature as a 96-byte uncompressed G1 point.
 * node-info.yaml holds only the 119-byte-message proof, so this one is signed with the BLS key.
 * The contract checks the proof against the uncompressed key only, never against the compressed
 * `blsPubkey` it registers: tnv derives the uncompressed key from the compressed one and checks
 * the signature against it, so the two are the same key.
 */
import type { Address, Hex } from 'viem'
import { blsSign, blsVerify } from '../../keys/bls.js'
import { g1Forms, g2Uncompressed } from '../../keys/blst.js'

export const UNCOMPRESSED_PUBKEY_BYTES = 192
export const UNCOMPRESSED_SIGNATURE_BYTES = 96
/** `00 00 00 d5 01`: the intent bytes and the BCS length prefix (213) of the key-and-address payload, as the contract builds it. */
const MESSAGE_HEAD = Uint8Array.of(0x00, 0x00, 0x00, 0xd5, 0x01)
/** `14`: the BCS length prefix of the 20-byte address. */
const ADDRESS_PREFIX = 0x14

const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
const bytes = (h: Hex): Uint8Array => {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(h))
    throw new RangeError(`not a 0x-prefixed even-length hex string: ${h.slice(0, 20)}`)
  return Uint8Array.from(Buffer.from(h.slice(2), 'hex'))
}

/** The 192-byte uncompressed form of a 96-byte compressed G2 key; throws on an invalid point. */
export function uncompressedPubkey(blsPubkey: Hex): Hex {
  const raw = g2Uncompressed(bytes(blsPubkey))
  if (!raw) throw new RangeError('blsPubkey: not a valid compressed BLS12-381 G2 public key')
  return hex(raw)
}

/** The 218-byte message the adiri registry verifies. */
export function adiriPopMessage(uncompressed: Hex, validator: Address): Uint8Array {
  const pk = bytes(uncompressed)
  if (pk.length !== UNCOMPRESSED_PUBKEY_BYTES)
    throw new RangeError(`uncompressedPubkey: expected ${UNCOMPRESSED_PUBKEY_BYTES} bytes, got ${pk.length}`)
  const address = bytes(validator)
  if (address.length !== 20) throw new RangeError(`validator address: expected 20 bytes, got ${address.length}`)
  return Uint8Array.from([...MESSAGE_HEAD, ...pk, ADDRESS_PREFIX, ...address])
}

export type AdiriProof = { uncompressedPubkey: Hex; uncompressedSignature: Hex }

/** Signs the adiri proof for `validator` with the BLS secret whose compressed public key is `blsPubkey`. */
export function signAdiriProof(secret: Uint8Array, blsPubkey: Hex, validator: Address): AdiriProof {
  const pk = uncompressedPubkey(blsPubkey)
  const forms = g1Forms(blsSign(secret, adiriPopMessage(pk, validator)))
  if (!forms) throw new Error('blst: a fresh signature did not decode')
  return { uncompressedPubkey: pk, uncompressedSignature: hex(forms.uncompressed) }
}

/**
 * The adiri proof for a signature given as 48 (compressed) or 96 (uncompressed) bytes, when it
 * verifies for `blsPubkey` and `validator` over the 218-byte message; null otherwise.
 */
export function adiriProofFromSignature(blsPubkey: Hex, signature: Hex, validator: Address): AdiriProof | null {
  let pk: Hex
  let forms: ReturnType<typeof g1Forms>
  try {
    pk = uncompressedPubkey(blsPubkey)
    forms = g1Forms(bytes(signature))
  } catch {
    return null
  }
  if (!forms) return null
  if (!blsVerify(forms.compressed, bytes(blsPubkey), adiriPopMessage(pk, validator))) return null
  return { uncompressedPubkey: pk, uncompressedSignature: hex(forms.uncompressed) }
}

/**
 * True when `proof` is a valid adiri proof of the compressed key `blsPubkey` for `validator`:
 * its uncompressed key is that key, and the signature verifies over the 218-byte message.
 */
export function verifyAdiriProof(blsPubkey: Hex, proof: AdiriProof, validator: Address): boolean {
  let pk: Hex
  try {
    pk = uncompressedPubkey(blsPubkey)
  } catch {
    return false
  }
  if (pk.toLowerCase() !== proof.uncompressedPubkey.toLowerCase()) return false
  return adiriProofFromSignature(blsPubkey, proof.uncompressedSignature, validator) !== null
}
