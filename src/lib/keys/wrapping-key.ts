/**
 * The bls.kw wrapping key: PBKDF2-HMAC-SHA256(passphrase as UTF-8, salt, iterations, 32 bytes)
 * (reference-facts: Encrypted key file), on node:crypto's thread pool: about 7x faster than a
 * JavaScript PBKDF2, and the main thread stays free for the BLS work meanwhile. This module
 * loads nothing else, so a command can start the derivation before it loads the curve code.
 */
import { pbkdf2, randomBytes } from 'node:crypto'

export const KW_SALT_LENGTH = 12
export const KW_NONCE_LENGTH = 12
export const KW_ITERATIONS = 1_000_000

export function deriveWrappingKey(
  passphrase: string,
  salt: Uint8Array,
  iterations: number = KW_ITERATIONS,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    pbkdf2(Buffer.from(passphrase, 'utf8'), salt, iterations, 32, 'sha256', (err, key) =>
      err ? reject(err) : resolve(key),
    )
  })
}

/** Fresh random salt and nonce for a new bls.kw. */
export function freshKwParameters(): { salt: Uint8Array; nonce: Uint8Array } {
  return { salt: randomBytes(KW_SALT_LENGTH), nonce: randomBytes(KW_NONCE_LENGTH) }
}
