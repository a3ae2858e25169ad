/** Base58 (Bitcoin alphabet) fields of node-info.yaml, decoded with labeled length checks. */
import { base58Decode } from '../io/base58.js'
import { NodeInfoFieldError, type NodeInfoRepair } from './errors.js'
import type { NodeInfoForm } from './types.js'

export { base58Encode as encodeBase58 } from '../io/base58.js'

/**
 * The longest base58 text of `bytes` bytes: ceil(bytes · log 256 / log 58) < 1.37 · bytes
 * characters (a leading zero byte takes one character, fewer than its share). Longer text is
 * refused before decoding, whose work grows with the square of the length.
 */
export function maxBase58Length(bytes: number): number {
  return Math.ceil(bytes * 1.37) + 1
}

/** Decodes base58 text; `undefined` when it is not base58. */
export function tryDecodeBase58(text: string): Uint8Array | undefined {
  try {
    return base58Decode(text)
  } catch {
    return undefined
  }
}

/**
 * Decodes a base58 field of node-info.yaml and checks its length.
 * @example decodeBase58Field('/d/node-info.yaml', 'bls_public_key', text, 96)
 */
export function decodeBase58Field(
  path: string,
  field: string,
  text: string,
  length: number,
  form: NodeInfoForm | null = null,
  repair: NodeInfoRepair = 'restore',
): Uint8Array {
  // base58 of n bytes has at most ceil(n·log 256 / log 58) < 1.37·n characters: refuse longer
  // text before decoding it (decoding is quadratic in the length).
  if (text.length > maxBase58Length(length))
    throw new NodeInfoFieldError(
      path,
      field,
      `is ${text.length} characters long, too long for ${length} bytes in base58`,
      {
        form,
        repair,
      },
    )
  const bytes = tryDecodeBase58(text)
  if (!bytes) throw new NodeInfoFieldError(path, field, `"${shorten(text)}" is not base58`, { form, repair })
  if (bytes.length !== length)
    throw new NodeInfoFieldError(
      path,
      field,
      `expected ${length} bytes, got ${bytes.length} (the value is truncated or belongs to another field)`,
      { form, repair },
    )
  return bytes
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}
