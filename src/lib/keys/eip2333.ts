/**
 * EIP-2333 BLS12-381 key derivation (the tree of secret keys under one seed), blst's
 * `blst_derive_master_eip2333` and `blst_derive_child_eip2333`, and EIP-2334 paths. Checked
 * against the EIP's published test vectors (test/keys-recovery/eip2333.test.ts). See
 * docs/decisions.md "Recovery phrase and EIP-2333".
 */
import { blstDeriveChildEip2333, blstDeriveMasterEip2333 } from './blst.js'

function assertIndex(index: number): void {
  if (!Number.isInteger(index) || index < 0 || index > 0xffff_ffff)
    throw new RangeError(`EIP-2333 index: expected an integer in [0, 2^32), got ${index}`)
}

/**
 * derive_master_SK: the root of the tree (HKDF_mod_r of the seed).
 * @param seed at least 32 bytes (a BIP-39 seed is 64)
 * @returns the 32-byte big-endian secret key
 */
export function deriveMasterSk(seed: Uint8Array): Uint8Array {
  if (seed.length < 32) throw new RangeError(`EIP-2333 seed: expected at least 32 bytes, got ${seed.length}`)
  return blstDeriveMasterEip2333(seed)
}

/** derive_child_SK: HKDF_mod_r of the parent's compressed Lamport public key for `index`. */
export function deriveChildSk(parentSk: Uint8Array, index: number): Uint8Array {
  assertIndex(index)
  return blstDeriveChildEip2333(parentSk, index)
}

/**
 * Parses an EIP-2334 path `m/12381/…`: `m` then decimal indices (no hardened `'`: every
 * EIP-2333 key is hardened).
 */
export function parseKeyPath(path: string): number[] {
  const parts = path.trim().split('/')
  if (parts[0] !== 'm' || parts.length < 2)
    throw new RangeError(`key path ${JSON.stringify(path)}: expected m/<index>/…, e.g. m/12381/3600/0/0/0`)
  return parts.slice(1).map((p) => {
    if (!/^\d{1,10}$/.test(p))
      throw new RangeError(`key path ${JSON.stringify(path)}: ${JSON.stringify(p)} is not an index`)
    const n = Number(p)
    assertIndex(n)
    return n
  })
}

/**
 * The secret key at `path` under `seed` (every intermediate key zeroed).
 * @example const sk = deriveKeyAtPath(seed, 'm/12381/5522764/0/0/0')
 */
export function deriveKeyAtPath(seed: Uint8Array, path: string): Uint8Array {
  const indices = parseKeyPath(path)
  let sk = deriveMasterSk(seed)
  for (const index of indices) {
    const child = deriveChildSk(sk, index)
    sk.fill(0)
    sk = child
  }
  return sk
}
