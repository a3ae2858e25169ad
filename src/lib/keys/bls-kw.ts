/**
 * The encrypted key file `bls.kw` (reference-facts: Encrypted key file): base58 text of
 * salt[12] | nonce[12] | ciphertext[48], where the ciphertext is AES-256-GCM-SIV (RFC 8452, no
 * associated data, 16-byte tag included) of the 32-byte secret under the wrapping key
 * PBKDF2-HMAC-SHA256(passphrase as UTF-8, salt, iterations, 32 bytes). The iteration count is
 * not stored: a reader tries 1 (written by weak builds) and then 1,000,000.
 */
import { base58Decode, base58Encode } from '../io/base58.js'
import { maxBase58Length } from '../nodeinfo/base58.js'
import { gcmSivOpen, gcmSivSeal } from './aes-gcm-siv.js'
import { deriveWrappingKey, freshKwParameters, KW_ITERATIONS, KW_NONCE_LENGTH, KW_SALT_LENGTH } from './wrapping-key.js'

export { deriveWrappingKey, freshKwParameters, KW_ITERATIONS, KW_NONCE_LENGTH, KW_SALT_LENGTH }
/** 32-byte secret + 16-byte tag. */
export const KW_CIPHERTEXT_LENGTH = 48
export const KW_LENGTH = KW_SALT_LENGTH + KW_NONCE_LENGTH + KW_CIPHERTEXT_LENGTH
/** Iteration counts a reader tries, in order (reference-facts). */
export const KW_READ_ITERATIONS = [1, KW_ITERATIONS] as const

export type BlsKwParts = { salt: Uint8Array; nonce: Uint8Array; ciphertext: Uint8Array }

/** Encrypts the secret under an already derived wrapping key; returns the bls.kw text. */
export function sealBlsSecret({
  secret,
  wrappingKey,
  salt,
  nonce,
}: {
  secret: Uint8Array
  wrappingKey: Uint8Array
  salt: Uint8Array
  nonce: Uint8Array
}): string {
  if (secret.length !== 32) throw new RangeError(`BLS secret key: expected 32 bytes, got ${secret.length}`)
  const ciphertext = gcmSivSeal(wrappingKey, nonce, secret)
  return formatBlsKw({ salt, nonce, ciphertext })
}

/** Decrypts with a derived wrapping key; undefined when authentication fails (wrong key or tampered file). */
export function unsealBlsSecret({ ciphertext, nonce }: BlsKwParts, wrappingKey: Uint8Array): Uint8Array | undefined {
  return gcmSivOpen(wrappingKey, nonce, ciphertext)
}

/**
 * Encrypts a secret with a passphrase (1,000,000 iterations, fresh salt and nonce).
 * @example const text = await encryptBlsSecret({ secret, passphrase })
 */
export async function encryptBlsSecret({
  secret,
  passphrase,
}: {
  secret: Uint8Array
  passphrase: string
}): Promise<string> {
  const { salt, nonce } = freshKwParameters()
  const wrappingKey = await deriveWrappingKey(passphrase, salt, KW_ITERATIONS)
  try {
    return sealBlsSecret({ secret, wrappingKey, salt, nonce })
  } finally {
    wrappingKey.fill(0)
  }
}

export type DecryptBlsKwReturnType =
  | { ok: true; secret: Uint8Array; iterations: number }
  | { ok: false; reason: 'not-base58' | 'length' | 'authentication'; length?: number }

/**
 * Opens bls.kw text with a passphrase, trying 1 iteration and then 1,000,000.
 * @example const r = await decryptBlsKw(text, passphrase); if (r.ok && r.iterations === 1) warn()
 */
export async function decryptBlsKw(text: string, passphrase: string): Promise<DecryptBlsKwReturnType> {
  const parts = parseBlsKw(text)
  if (!('salt' in parts)) return { ok: false, ...parts }
  for (const iterations of KW_READ_ITERATIONS) {
    const wrappingKey = await deriveWrappingKey(passphrase, parts.salt, iterations)
    const secret = unsealBlsSecret(parts, wrappingKey)
    wrappingKey.fill(0)
    if (secret) return { ok: true, secret, iterations }
  }
  return { ok: false, reason: 'authentication' }
}

/** Splits bls.kw text into its parts (surrounding whitespace ignored). */
export function parseBlsKw(text: string): BlsKwParts | { reason: 'not-base58' } | { reason: 'length'; length: number } {
  const trimmed = text.trim()
  // 72 bytes are at most 100 base58 characters: longer text is not decoded (quadratic)
  if (trimmed.length > maxBase58Length(KW_LENGTH))
    return { reason: 'length', length: Math.floor(trimmed.length / 1.37) }
  let bytes: Uint8Array
  try {
    bytes = base58Decode(trimmed)
  } catch {
    return { reason: 'not-base58' }
  }
  if (bytes.length !== KW_LENGTH) return { reason: 'length', length: bytes.length }
  return {
    salt: bytes.slice(0, KW_SALT_LENGTH),
    nonce: bytes.slice(KW_SALT_LENGTH, KW_SALT_LENGTH + KW_NONCE_LENGTH),
    ciphertext: bytes.slice(KW_SALT_LENGTH + KW_NONCE_LENGTH),
  }
}

export function formatBlsKw({ salt, nonce, ciphertext }: BlsKwParts): string {
  if (salt.length !== KW_SALT_LENGTH || nonce.length !== KW_NONCE_LENGTH || ciphertext.length !== KW_CIPHERTEXT_LENGTH)
    throw new RangeError('bls.kw: wrong part lengths')
  const bytes = new Uint8Array(KW_LENGTH)
  bytes.set(salt, 0)
  bytes.set(nonce, KW_SALT_LENGTH)
  bytes.set(ciphertext, KW_SALT_LENGTH + KW_NONCE_LENGTH)
  return base58Encode(bytes)
}
