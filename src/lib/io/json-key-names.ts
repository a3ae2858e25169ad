/**
 * One name per key in every JSON document tnv prints (docs/ci.md "Key names in JSON"): the BLS
 * public key is `blsPublicKey` (0x hex) with `blsPublicKeyBase58` beside it where base58 is shown,
 * as keytool and the flow events name it. The registry commands' older `blsPubkey` /
 * `blsPubkeyBase58` are kept for one release as deprecated twins holding the same value.
 * Applied once, where a command prints its JSON. The arguments of a contract call keep their ABI
 * names and are never touched (a Safe batch's checksum covers them byte for byte).
 */

/** Deprecated key name → the name of the scheme. */
export const DEPRECATED_KEY_NAMES: Readonly<Record<string, string>> = {
  blsPubkey: 'blsPublicKey',
  blsPubkeyBase58: 'blsPublicKeyBase58',
}

/**
 * Fields holding a contract call's arguments under the ABI's parameter names, left exactly as
 * they are: a Safe batch (its `meta.checksum` covers every byte), its `contractInputsValues`, and
 * the `inputs`/`request` of a delegation digest or signature (delegationDigest's arguments).
 */
export const ABI_ARGUMENT_FIELDS: ReadonlySet<string> = new Set(['batch', 'contractInputsValues', 'inputs', 'request'])

/**
 * A copy of `value` in which every object holding a deprecated key also holds the scheme's name,
 * with the same value, placed just before it. Nothing is removed or changed otherwise.
 * @example withSchemeKeyNames({ blsPubkey: '0xab' }) // { blsPublicKey: '0xab', blsPubkey: '0xab' }
 */
export function withSchemeKeyNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSchemeKeyNames)
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return value
  const record = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [name, v] of Object.entries(record)) {
    if (ABI_ARGUMENT_FIELDS.has(name)) {
      out[name] = v
      continue
    }
    const scheme = DEPRECATED_KEY_NAMES[name]
    if (scheme !== undefined && !(scheme in record)) out[scheme] = withSchemeKeyNames(v)
    out[name] = withSchemeKeyNames(v)
  }
  return out
}
