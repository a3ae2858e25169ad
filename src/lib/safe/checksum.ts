/**
 * The checksum the Safe Transaction Builder puts in `meta.checksum` of a batch file and checks
 * on import (a mismatch shows a warning): keccak256 of the file serialised with object keys
 * sorted, in the app's own serialisation (safe-global/safe-react-apps,
 * apps/tx-builder/src/lib/checksum.ts): an object is `{` + JSON of its sorted key list, then
 * each value serialised followed by `,`, then `}`; an array is `[` + its items joined by `,` + `]`;
 * anything else is its JSON (undefined as null). The importer computes it with `meta.checksum`
 * removed, so it is computed here without that key. A test checks this against the vector of the
 * app's own test.
 */
import { keccak256, stringToBytes } from 'viem'

const replacer = (_key: string, value: unknown) => (value === undefined ? null : value)

export function serializeForChecksum(json: unknown): string {
  if (Array.isArray(json)) return `[${json.map((el) => serializeForChecksum(el)).join(',')}]`
  if (typeof json === 'object' && json !== null) {
    const keys = Object.keys(json).sort()
    let acc = `{${JSON.stringify(keys, replacer)}`
    for (const k of keys) acc += `${serializeForChecksum((json as Record<string, unknown>)[k])},`
    return `${acc}}`
  }
  return `${JSON.stringify(json, replacer)}`
}

/** keccak256 of the serialised object (the caller leaves `meta.checksum` out). */
export function batchChecksum(batchWithoutChecksum: unknown): `0x${string}` {
  return keccak256(stringToBytes(serializeForChecksum(batchWithoutChecksum)))
}
