/**
 * BLS12-381, minimum-signature variant (reference-facts: BLS keys and signatures): public keys
 * on G2 (96 bytes compressed), signatures on G1 (48 bytes compressed, ZCash encoding), every
 * signature over hash_to_curve(msg) with the DST below (RFC 9380, suite
 * BLS12381G1_XMD:SHA-256_SSWU_RO_). Verification is core verify with subgroup checks on both
 * points (draft-irtf-cfrg-bls-signature-05 §2.7, §2.5 KeyValidate). The curve arithmetic is
 * blst's, in WebAssembly (blst.ts); the tests hold it to @noble/curves.
 */
import { blstKeyGen } from './blst.js'

export const BLS_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_'
export const BLS_SECRET_LENGTH = 32
export const BLS_PUBLIC_KEY_LENGTH = 96
export const BLS_SIGNATURE_LENGTH = 48

/** The order r of G1 and G2: a secret key is an integer in [1, r). */
export const BLS_CURVE_ORDER = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n

/**
 * IETF BLS KeyGen (draft-irtf-cfrg-bls-signature-05 §2.3), blst's `blst_keygen` (the node's
 * `SecretKey::key_gen(ikm, info)`): HKDF-SHA256 with the re-hashed salt "BLS-SIG-KEYGEN-SALT-",
 * L = 48 bytes reduced mod r.
 * @param ikm at least 32 bytes of secret randomness
 * @returns the 32-byte big-endian secret key
 */
export function blsKeyGen(ikm: Uint8Array, keyInfo: Uint8Array = new Uint8Array()): Uint8Array {
  if (ikm.length < 32) throw new RangeError(`BLS KeyGen: IKM must be at least 32 bytes, got ${ikm.length}`)
  return blstKeyGen(ikm, keyInfo)
}

/** Throws unless `secret` is 32 bytes encoding an integer in [1, r). */
export function assertBlsSecret(secret: Uint8Array): void {
  if (secret.length !== BLS_SECRET_LENGTH)
    throw new RangeError(`BLS secret key: expected 32 bytes, got ${secret.length}`)
  const n = BigInt(`0x${Buffer.from(secret).toString('hex')}`)
  if (n === 0n || n >= BLS_CURVE_ORDER) throw new RangeError('BLS secret key: not in the range [1, r)')
}

/**
 * The curve operations, blst's (blst.ts):
 * - `blsPublicKey(secret)`: the compressed G2 public key (96 bytes); throws as `assertBlsSecret` does;
 * - `blsSign(secret, message)`: the compressed G1 signature (48 bytes) over any bytes, with the
 *   DST above; deterministic;
 * - `blsVerify(signature, publicKey, message)`: core verify, both points decoded with on-curve,
 *   subgroup and identity checks, then e(sig, g2) = e(H(msg), pk); malformed input gives false,
 *   never an exception.
 */
export { blstPublicKey as blsPublicKey, blstSign as blsSign, blstVerify as blsVerify } from './blst.js'
