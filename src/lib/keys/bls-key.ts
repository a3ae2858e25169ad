/** The unencrypted key file `bls.key` (only with no-passphrase): base58 of the 32-byte secret. */
import { base58Decode, base58Encode } from '../io/base58.js'
import { maxBase58Length } from '../nodeinfo/base58.js'
import { BLS_SECRET_LENGTH } from './bls.js'

export function formatBlsKey(secret: Uint8Array): string {
  if (secret.length !== BLS_SECRET_LENGTH)
    throw new RangeError(`BLS secret key: expected 32 bytes, got ${secret.length}`)
  return base58Encode(secret)
}

/** The secret in bls.key text, or the reason it is unreadable. */
export function parseBlsKey(text: string): { ok: true; secret: Uint8Array } | { ok: false; reason: string } {
  const trimmed = text.trim()
  if (trimmed.length > maxBase58Length(BLS_SECRET_LENGTH))
    return { ok: false, reason: `it is ${trimmed.length} characters long, too long for 32 bytes in base58` }
  let bytes: Uint8Array
  try {
    bytes = base58Decode(trimmed)
  } catch {
    return { ok: false, reason: 'it is not base58' }
  }
  if (bytes.length !== BLS_SECRET_LENGTH)
    return { ok: false, reason: `it holds ${bytes.length} bytes instead of 32 (truncated?)` }
  return { ok: true, secret: bytes }
}
