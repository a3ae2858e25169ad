/** Base58 (Bitcoin alphabet) fields of node-info.yaml, decoded with labeled length checks. */
import bs58 from 'bs58'
import { NodeInfoFieldError } from './errors.js'

export function encodeBase58(bytes: Uint8Array): string {
  return bs58.encode(bytes)
}

/** Decodes base58 text; `undefined` when it is not base58. */
export function tryDecodeBase58(text: string): Uint8Array | undefined {
  try {
    return bs58.decode(text)
  } catch {
    return undefined
  }
}

/**
 * Decodes a base58 field of node-info.yaml and checks its length.
 * @example decodeBase58Field('/d/node-info.yaml', 'bls_public_key', text, 96)
 */
export function decodeBase58Field(path: string, field: string, text: string, length: number): Uint8Array {
  const bytes = tryDecodeBase58(text)
  if (!bytes) throw new NodeInfoFieldError(path, field, `"${shorten(text)}" is not base58`)
  if (bytes.length !== length)
    throw new NodeInfoFieldError(
      path,
      field,
      `expected ${length} bytes, got ${bytes.length} (the value is truncated or belongs to another field)`,
    )
  return bytes
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}
