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

/** A new bls.kw's parameters and its wrapping key, being derived on the thread pool. */
export type WrappingKeyDerivation = {
  salt: Uint8Array
  nonce: Uint8Array
  /** The wrapping key; whoever awaits it zeroes it after use. */
  key: Promise<Uint8Array>
}

/**
 * Starts deriving the wrapping key of a new bls.kw (fresh salt and nonce) and returns at once.
 * @example const d = startWrappingKey(passphrase); … const key = await d.key
 */
export function startWrappingKey(passphrase: string): WrappingKeyDerivation {
  const { salt, nonce } = freshKwParameters()
  const key = deriveWrappingKey(passphrase, salt, KW_ITERATIONS)
  key.catch(() => {}) // awaited by the user; keep an early failure from being reported as unhandled
  return { salt, nonce, key }
}

/** Zeroes a derivation's key once it is done: for one that will not be used. */
export function discardWrappingKey(derivation: WrappingKeyDerivation): void {
  derivation.key.then(
    (k) => k.fill(0),
    () => {},
  )
}

/** Fresh random salt and nonce for a new bls.kw. */
export function freshKwParameters(): { salt: Uint8Array; nonce: Uint8Array } {
  return { salt: randomBytes(KW_SALT_LENGTH), nonce: randomBytes(KW_NONCE_LENGTH) }
}
