/**
 * AES-256-GCM-SIV (RFC 8452), the cipher of bls.kw, built from two libraries' parts: the AES
 * block cipher of node:crypto (OpenSSL: AES-NI, one `aes-256-ecb` call per step) and POLYVAL from
 * @noble/ciphers. The RFC's construction itself is the few lines below (section 4: per-nonce keys,
 * the tag, CTR with a 32-bit little-endian counter).
 *
 * Why not @noble/ciphers' `gcmsiv` (what tnv used before, and what the tests still check this
 * against): its AES is table-driven in JavaScript, and building the tables when the module loads
 * took 8 to 17 ms of every command that seals or opens a key file, in `keytool generate` on the
 * main thread while the key derivation runs beside it (docs/benchmarks.md, Start-up). Node 20's
 * OpenSSL 3.0 has AES but not GCM-SIV. Checked by the RFC's appendix C.2 vectors and against
 * noble's gcmsiv (test/keytool/aes-gcm-siv.test.ts).
 */

import { polyval } from '@noble/ciphers/_polyval.js'
import { nodeCrypto } from '../crypto/node-crypto.js'

const BLOCK = 16
const KEY_LENGTH = 32
const NONCE_LENGTH = 12

/**
 * Seals plaintext under a 32-byte key and a 12-byte nonce, no associated data: ciphertext || tag.
 * @example const sealed = gcmSivSeal(key, nonce, secret) // secret.length + 16 bytes
 */
export function gcmSivSeal(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const { authKey, encKey } = messageKeys(key, nonce)
  try {
    const tag = computeTag(authKey, encKey, nonce, plaintext)
    const out = new Uint8Array(plaintext.length + BLOCK)
    out.set(ctr(encKey, tag, plaintext))
    out.set(tag, plaintext.length)
    return out
  } finally {
    authKey.fill(0)
    encKey.fill(0)
  }
}

/** The plaintext of ciphertext || tag, or undefined when the tag does not authenticate it. */
export function gcmSivOpen(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array): Uint8Array | undefined {
  if (sealed.length < BLOCK) return undefined
  const { authKey, encKey } = messageKeys(key, nonce)
  try {
    const tag = sealed.subarray(sealed.length - BLOCK)
    const plaintext = ctr(encKey, tag, sealed.subarray(0, sealed.length - BLOCK))
    if (nodeCrypto().timingSafeEqual(computeTag(authKey, encKey, nonce, plaintext), tag)) return plaintext
    plaintext.fill(0)
    return undefined
  } finally {
    authKey.fill(0)
    encKey.fill(0)
  }
}

/** AES-256 of whole blocks, each on its own (ECB): the one primitive the construction needs. */
function aes(key: Uint8Array, blocks: Uint8Array): Buffer {
  const cipher = nodeCrypto().createCipheriv('aes-256-ecb', key, null)
  cipher.setAutoPadding(false)
  return Buffer.concat([cipher.update(blocks), cipher.final()])
}

/** RFC 8452 section 4: the message-authentication key (16 bytes) and message-encryption key (32). */
function messageKeys(key: Uint8Array, nonce: Uint8Array): { authKey: Buffer; encKey: Buffer } {
  if (key.length !== KEY_LENGTH) throw new RangeError(`AES-256-GCM-SIV key: expected 32 bytes, got ${key.length}`)
  if (nonce.length !== NONCE_LENGTH)
    throw new RangeError(`AES-256-GCM-SIV nonce: expected 12 bytes, got ${nonce.length}`)
  const input = Buffer.alloc(6 * BLOCK)
  for (let i = 0; i < 6; i++) {
    input.writeUInt32LE(i, i * BLOCK)
    input.set(nonce, i * BLOCK + 4)
  }
  const out = aes(key, input)
  // the first 8 bytes of each block
  const halves = Array.from({ length: 6 }, (_, i) => out.subarray(i * BLOCK, i * BLOCK + 8))
  const keys = { authKey: Buffer.concat(halves.slice(0, 2)), encKey: Buffer.concat(halves.slice(2)) }
  out.fill(0)
  return keys
}

/** POLYVAL over the padded plaintext and the length block, XORed with the nonce, then AES. */
function computeTag(authKey: Uint8Array, encKey: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array): Buffer {
  const padded = Math.ceil(plaintext.length / BLOCK) * BLOCK
  const data = Buffer.alloc(padded + BLOCK)
  data.set(plaintext)
  // no associated data: its bit length (the first 8 bytes) stays 0
  data.writeBigUInt64LE(BigInt(plaintext.length) * 8n, padded + 8)
  const s = Buffer.from(polyval(data, authKey))
  data.fill(0)
  for (let i = 0; i < NONCE_LENGTH; i++) s[i] = (s[i] as number) ^ (nonce[i] as number)
  s[15] = (s[15] as number) & 0x7f
  const tag = aes(encKey, s)
  s.fill(0)
  return tag
}

/** CTR from the tag with its top bit set, the first 32 bits a little-endian counter. */
function ctr(encKey: Uint8Array, tag: Uint8Array, input: Uint8Array): Uint8Array {
  const blocks = Math.ceil(input.length / BLOCK)
  const counters = Buffer.alloc(blocks * BLOCK)
  const first = Buffer.from(tag.buffer, tag.byteOffset, BLOCK).readUInt32LE(0)
  for (let j = 0; j < blocks; j++) {
    counters.set(tag, j * BLOCK)
    counters[j * BLOCK + 15] = (counters[j * BLOCK + 15] as number) | 0x80
    counters.writeUInt32LE((first + j) >>> 0, j * BLOCK)
  }
  const stream = aes(encKey, counters)
  const out = new Uint8Array(input.length)
  for (let i = 0; i < input.length; i++) out[i] = (input[i] as number) ^ (stream[i] as number)
  stream.fill(0)
  return out
}
