/**
 * The JSON key rules every command's output is held to (docs/ci.md "Key names in JSON"):
 * - shape: a field named like a key (…Key, …Pubkey, …PublicKey, …Signature, proofOfPossession)
 *   holds 0x hex, and `<name>Base58` holds base58 of the same bytes as `<name>` beside it;
 * - names: the BLS public key is `blsPublicKey`, the proof `proofOfPossession`; a deprecated
 *   name (`blsPubkey`, kept one release) appears only beside its scheme twin with the same value.
 */
import bs58 from 'bs58'
import { ABI_ARGUMENT_FIELDS, DEPRECATED_KEY_NAMES } from '../../src/lib/io/json-key-names.js'

/** A key's name: camelCase ending in Key, Pubkey, PublicKey or Signature, or the proof itself. */
export const KEY_NAME =
  /(?:^publicKey|[a-z0-9](?:Key|Pubkey|PublicKey|Signature))$|^(?:signature|proofOfPossession|pop)$/

/** Every rule broken in `value`, with the path of the field. */
export function keyShapeProblems(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyShapeProblems(v, `${path}[${i}]`))
  if (value === null || typeof value !== 'object') return []
  const record = value as Record<string, unknown>
  const problems: string[] = []
  for (const [name, v] of Object.entries(record)) {
    const at = `${path}.${name}`
    if (name.endsWith('Base58')) {
      if (v === null) continue
      let bytes: Uint8Array | undefined
      try {
        bytes = typeof v === 'string' ? bs58.decode(v) : undefined
      } catch {}
      if (!bytes || bytes.length === 0) problems.push(`${at}: not base58: ${JSON.stringify(v)}`)
      const plain = record[name.slice(0, -'Base58'.length)]
      if (bytes && typeof plain === 'string' && plain.toLowerCase() !== `0x${Buffer.from(bytes).toString('hex')}`)
        problems.push(`${at}: not the same bytes as ${name.slice(0, -'Base58'.length)} (${plain})`)
    } else if (KEY_NAME.test(name)) {
      if (v !== null && !(typeof v === 'string' && /^0x(?:[0-9a-fA-F]{2})+$/.test(v)))
        problems.push(`${at}: a key must be 0x hex: ${JSON.stringify(v)}`)
    } else problems.push(...keyShapeProblems(v, at))
  }
  return problems
}

/** Names of BLS keys and proofs that are not the scheme's (nor a deprecated twin). */
const OFF_SCHEME =
  /^(?:bls(?!PublicKey(?:Base58)?$|Pubkey(?:Base58)?$)[A-Za-z]*(?:Key|key)[A-Za-z0-9]*|pop|popBase58|proof(?!OfPossession(?:Base58|Valid)?$)[A-Za-z]*)$/

/** Every naming rule broken in `value`, with the path of the field. */
export function keyNameProblems(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyNameProblems(v, `${path}[${i}]`))
  if (value === null || typeof value !== 'object') return []
  const record = value as Record<string, unknown>
  const problems: string[] = []
  for (const [name, v] of Object.entries(record)) {
    const at = `${path}.${name}`
    // a contract call's arguments keep the ABI's names (docs/ci.md "Key names in JSON")
    if (ABI_ARGUMENT_FIELDS.has(name)) continue
    const scheme = DEPRECATED_KEY_NAMES[name]
    if (scheme !== undefined && JSON.stringify(record[scheme]) !== JSON.stringify(v))
      problems.push(`${at}: deprecated, and its twin ${scheme} is missing or differs`)
    if (OFF_SCHEME.test(name)) problems.push(`${at}: not a name of the scheme`)
    problems.push(...keyNameProblems(v, at))
  }
  return problems
}
