/**
 * EIP-2333 BLS12-381 key derivation (the tree of secret keys under one seed) and EIP-2334 paths.
 * Written here on node:crypto's HKDF-SHA256 and SHA-256 (both FIPS-grade, already what
 * `blsKeyGen` uses) and noble's curve order: the one npm package that implements it
 * (`bls12-381-keygen`) pins @noble/hashes 1.4, a major version behind the one tnv uses, and the
 * whole derivation is 40 lines checked against the EIP's published test vectors
 * (test/keys-recovery/eip2333.test.ts). See docs/decisions.md "Recovery phrase".
 *
 * HKDF_mod_r is the IETF KeyGen (`blsKeyGen` in ./bls.ts), as the EIP itself notes.
 */
import { createHash, hkdfSync } from 'node:crypto'
import { blsKeyGen } from './bls.js'

/** 255 chunks of 32 bytes: the HKDF-SHA256 output limit (255 × 32). */
const LAMPORT_CHUNKS = 255
const K = 32

/** IKM_to_lamport_SK: 255 secret 32-byte chunks from HKDF(salt, IKM, info = "", L = 8160). */
function ikmToLamportSk(ikm: Uint8Array, salt: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, new Uint8Array(), LAMPORT_CHUNKS * K))
}

/** parent_SK_to_lamport_PK: the 32-byte compressed Lamport public key of a parent key and index. */
function parentSkToLamportPk(parentSk: Uint8Array, index: number): Uint8Array {
  const salt = Buffer.alloc(4)
  salt.writeUInt32BE(index)
  const ikm = Buffer.from(parentSk)
  const notIkm = Buffer.from(ikm.map((b) => ~b & 0xff))
  const lamport0 = ikmToLamportSk(ikm, salt)
  const lamport1 = ikmToLamportSk(notIkm, salt)
  const pk = createHash('sha256')
  try {
    for (const lamport of [lamport0, lamport1])
      for (let i = 0; i < LAMPORT_CHUNKS; i++)
        pk.update(
          createHash('sha256')
            .update(lamport.subarray(i * K, (i + 1) * K))
            .digest(),
        )
    return pk.digest()
  } finally {
    for (const b of [ikm, notIkm, lamport0, lamport1]) b.fill(0)
  }
}

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
  return blsKeyGen(seed)
}

/** derive_child_SK: HKDF_mod_r of the parent's compressed Lamport public key for `index`. */
export function deriveChildSk(parentSk: Uint8Array, index: number): Uint8Array {
  assertIndex(index)
  const lamportPk = parentSkToLamportPk(parentSk, index)
  try {
    return blsKeyGen(lamportPk)
  } finally {
    lamportPk.fill(0)
  }
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
