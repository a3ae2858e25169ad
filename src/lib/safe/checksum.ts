/**
 * The checksum the Safe Transaction Builder puts in `meta.checksum` of a batch file and checks on
 * import (a mismatch shows "This file was modified since it was generated"), computed as the app
 * computes it (safe-global/safe-react-apps, apps/tx-builder/src/lib/checksum.ts):
 * - the batch with `meta.name` set to null (a batch renamed in the app keeps its checksum);
 * - serialised with object keys sorted: an object is `{` + JSON of its sorted key list, then each
 *   value serialised followed by `,`, then `}`; an array is `[` + its items joined by `,` + `]`;
 *   anything else is its JSON (undefined as null);
 * - keccak256 of that text.
 * The importer removes `meta.checksum` before it computes, so a file's checksum is computed over
 * the batch without that key. test/operate/safe-batch.test.ts checks the published vector of the
 * app's own test (0x4ecb…b64c).
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

/**
 * The app's checksum of `batch` as given: keccak256 of its serialisation with `meta.name` null.
 * For a file's `meta.checksum`, pass the batch without `meta.checksum` (what the importer hashes).
 * @example const checksum = batchChecksum({ version: '1.0', chainId: '2017', createdAt, meta, transactions })
 */
export function batchChecksum(batch: { meta: Record<string, unknown> } & Record<string, unknown>): `0x${string}` {
  return keccak256(stringToBytes(serializeForChecksum({ ...batch, meta: { ...batch.meta, name: null } })))
}
