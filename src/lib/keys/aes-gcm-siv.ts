/**
 * AES-256-GCM-SIV (RFC 8452), the cipher of bls.kw, as OpenSSL implements it (`aes-256-gcm-siv`,
 * OpenSSL 3.2 and later), through node:crypto. tnv composes nothing here: the key derivation of
 * RFC 8452 section 4, POLYVAL, the tag and CTR are all OpenSSL's. No associated data (bls.kw has
 * none), a 16-byte tag appended to the ciphertext. Checked by RFC 8452's appendix C.2 and C.3
 * vectors and against @noble/ciphers' gcmsiv (test/keytool/aes-gcm-siv.test.ts).
 *
 * The OpenSSL of the Node.js build must have the cipher: official Node.js 26 builds do (OpenSSL
 * 3.5), and so does tnv's single executable. A runtime without it gets CipherUnavailableError.
 */
import type { CipherGCM, DecipherGCM } from 'node:crypto'
import { createCipheriv, createDecipheriv } from 'node:crypto'
import { TnvError } from '../errors.js'

const CIPHER = 'aes-256-gcm-siv'
const KEY_LENGTH = 32
const NONCE_LENGTH = 12
/** OpenSSL's GCM-SIV tag: always 16 bytes (RFC 8452 section 4). */
const TAG_LENGTH = 16

/**
 * Seals plaintext under a 32-byte key and a 12-byte nonce, no associated data: ciphertext || tag.
 * @example const sealed = gcmSivSeal(key, nonce, secret) // secret.length + 16 bytes
 */
export function gcmSivSeal(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array): Uint8Array {
  checkKeyAndNonce(key, nonce)
  // the AEAD interface of GCM (getAuthTag, setAuthTag), which @types/node 20 does not yet give GCM-SIV
  const cipher = openSsl(() => createCipheriv(CIPHER, key, nonce)) as CipherGCM
  // OpenSSL's GCM-SIV takes the whole message in one update (SIV reads it twice: tag, then CTR),
  // and needs that update even for an empty message
  const head = cipher.update(plaintext)
  const tail = cipher.final()
  const out = new Uint8Array(plaintext.length + TAG_LENGTH)
  out.set(head)
  out.set(tail, head.length)
  out.set(cipher.getAuthTag(), plaintext.length)
  return out
}

/**
 * The plaintext of ciphertext || tag, or undefined when the tag does not authenticate it (a
 * wrong key or nonce, or any changed byte). OpenSSL decrypts before it checks the tag (RFC 8452
 * section 4: the CTR's initial counter is the tag with its top bit set), so the unauthenticated output is zeroed and
 * never returned.
 */
export function gcmSivOpen(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array): Uint8Array | undefined {
  checkKeyAndNonce(key, nonce)
  if (sealed.length < TAG_LENGTH) return undefined
  const body = sealed.subarray(0, sealed.length - TAG_LENGTH)
  const decipher = openSsl(() => createDecipheriv(CIPHER, key, nonce)) as DecipherGCM
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_LENGTH))
  const head = decipher.update(body)
  let tail: Buffer
  try {
    tail = decipher.final()
  } catch {
    head.fill(0)
    return undefined
  }
  const out = new Uint8Array(body.length)
  out.set(head)
  out.set(tail, head.length)
  head.fill(0)
  return out
}

function checkKeyAndNonce(key: Uint8Array, nonce: Uint8Array): void {
  if (key.length !== KEY_LENGTH) throw new RangeError(`AES-256-GCM-SIV key: expected 32 bytes, got ${key.length}`)
  if (nonce.length !== NONCE_LENGTH)
    throw new RangeError(`AES-256-GCM-SIV nonce: expected 12 bytes, got ${nonce.length}`)
}

/** Runs `make`, turning "unknown cipher" (an OpenSSL older than 3.2, or built without it) into CipherUnavailableError. */
function openSsl<T>(make: () => T): T {
  try {
    return make()
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_CRYPTO_UNKNOWN_CIPHER') throw new CipherUnavailableError(err)
    throw err
  }
}

/** The OpenSSL that Node.js runs on has no AES-256-GCM-SIV, so no bls.kw can be sealed or opened. */
export class CipherUnavailableError extends TnvError {
  override readonly code: string = 'CipherUnavailable'
  constructor(cause: unknown) {
    super(
      `This Node.js (${process.version}, OpenSSL ${process.versions.openssl ?? 'unknown'}) has no AES-256-GCM-SIV, the cipher of bls.kw, so the BLS key file can be neither written nor opened.`,
      {
        fix: 'Run tnv on an official Node.js 26 LTS build (nodejs.org; its OpenSSL 3.5 has the cipher), or use the tnv single executable, which carries its own.',
        cause,
      },
    )
  }
}
