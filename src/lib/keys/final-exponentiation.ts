/**
 * The final exponentiation of the BLS12-381 pairing, f^((p^12 - 1) / r) up to a power coprime
 * to r, written with @noble/curves' field arithmetic and precomputed Frobenius constants.
 * noble's own Fp12.finalExponentiate derives its Frobenius tables on first use with big
 * modular exponentiations, about 40 ms in a fresh process; `export-staking-args` verifies one
 * proof of possession per process, so that start-up cost would dominate. Tests check the
 * constants against both a direct computation and noble's tables, and the result against
 * noble's finalExponentiate.
 *
 * (p^12 - 1)/r = (p^6 - 1)(p^2 + 1) · Φ12(p)/r, Φ12(p) = p^4 - p^2 + 1.
 * Easy part: m = f^(p^6 - 1) = conj(f)/f, then m <- m^(p^2) · m (m is then in the cyclotomic
 * subgroup, where inversion is conjugation and Granger–Scott squaring applies).
 * Hard part (Hayashida, Hayasaka, Teruya, ePrint 2020/875, for BLS12 with parameter x):
 * 3·Φ12(p)/r = λ0 + λ1·p + λ2·p^2 + λ3·p^3 with λ3 = (x - 1)^2, λ2 = λ3·x, λ1 = λ2·x - λ3,
 * λ0 = λ1·x + 3. The result is thus the pairing value cubed (the same value noble's
 * Fp12.finalExponentiate returns; tests check it), and since gcd(3, r) = 1 it is 1 exactly
 * when the pairing value is 1, which is all a verifier needs.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js'

const { Fp, Fp2, Fp12 } = bls12_381.fields
type Fp2T = { c0: bigint; c1: bigint }
type Fp6T = { c0: Fp2T; c1: Fp2T; c2: Fp2T }
type Fp12T = { c0: Fp6T; c1: Fp6T }

/** |x| for BLS12-381; x itself is negative: x = -0xd201000000010000. */
const ABS_X = 0xd201000000010000n

const fp2 = (c0: string, c1: string): Fp2T => Object.freeze({ c0: BigInt(c0), c1: BigInt(c1) })
const A = '0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac'
const B = '0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe'

/**
 * Frobenius constants for k = 1, 2, 3 with ξ = 1 + u (the Fp6 non-residue):
 * V1[k] = ξ^((p^k - 1)/3) (for v), V2[k] = ξ^(2(p^k - 1)/3) (for v^2), W[k] = ξ^((p^k - 1)/6) (for w).
 */
export const FROBENIUS_V1: readonly Fp2T[] = [fp2('0x0', A), fp2(B, '0x0'), fp2('0x0', '0x1')]
export const FROBENIUS_V2: readonly Fp2T[] = [
  fp2('0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad', '0x0'),
  fp2(A, '0x0'),
  fp2('0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaaa', '0x0'),
]
export const FROBENIUS_W: readonly Fp2T[] = [
  fp2(
    '0x1904d3bf02bb0667c231beb4202c0d1f0fd603fd3cbd5f4f7b2443d784bab9c4f67ea53d63e7813d8d0775ed92235fb8',
    '0x00fc3e2b36c4e03288e9e902231f9fb854a14787b6c7b36fec0c8ec971f63c5f282d5ac14d6c7ec22cf78a126ddc4af3',
  ),
  fp2('0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffeffff', '0x0'),
  fp2(
    '0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2',
    '0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09',
  ),
]

/** a^(p^k) in Fp2: conjugation for odd k (p ≡ 3 mod 4, u^2 = -1), identity for even k. */
function frobFp2(a: Fp2T, k: number): Fp2T {
  return k % 2 === 0 ? a : Object.freeze({ c0: a.c0, c1: Fp.neg(a.c1) })
}

/** a^(p^k) in Fp6 = Fp2[v]/(v^3 - ξ): (b0 + b1 v + b2 v^2)^(p^k) = b0' + b1' V1[k] v + b2' V2[k] v^2. */
function frobFp6(a: Fp6T, k: number): Fp6T {
  return Object.freeze({
    c0: frobFp2(a.c0, k),
    c1: Fp2.mul(frobFp2(a.c1, k), FROBENIUS_V1[k - 1] as Fp2T),
    c2: Fp2.mul(frobFp2(a.c2, k), FROBENIUS_V2[k - 1] as Fp2T),
  })
}

/** a^(p^k) in Fp12 = Fp6[w]/(w^2 - v), for k = 1, 2, 3. */
export function frobeniusFp12(a: Fp12T, k: 1 | 2 | 3): Fp12T {
  const c1 = frobFp6(a.c1, k)
  const w = FROBENIUS_W[k - 1] as Fp2T
  return Object.freeze({
    c0: frobFp6(a.c0, k),
    c1: Object.freeze({ c0: Fp2.mul(c1.c0, w), c1: Fp2.mul(c1.c1, w), c2: Fp2.mul(c1.c2, w) }),
  })
}

/**
 * a^x for a in the cyclotomic subgroup (x < 0, so the inverse, i.e. the conjugate, of a^|x|).
 * With noble's public `pow` (and `sqr` below), not its underscore-prefixed cyclotomic ones:
 * those are faster (measured 16 ms against 23 ms per final exponentiation, one per
 * export-staking-args run) but are internals that may change without notice (docs/decisions.md).
 */
function powX(a: Fp12T): Fp12T {
  return Fp12.conjugate(Fp12.pow(a, ABS_X))
}

/**
 * f^(3·(p^12 - 1)/r): the cube of the final exponentiation (see the module comment).
 * @param f a non-zero Miller loop output
 */
export function finalExponentiationCubed(f: Fp12T): Fp12T {
  // Easy part.
  let m = Fp12.div(Fp12.conjugate(f), f)
  m = Fp12.mul(frobeniusFp12(m, 2), m)
  // Hard part: m^λ3, m^λ2, m^λ1, m^λ0.
  const xMinus1 = (a: Fp12T) => Fp12.mul(powX(a), Fp12.conjugate(a))
  const l3 = xMinus1(xMinus1(m))
  const l2 = powX(l3)
  const l1 = Fp12.mul(powX(l2), Fp12.conjugate(l3))
  const l0 = Fp12.mul(powX(l1), Fp12.mul(Fp12.sqr(m), m))
  return Fp12.mul(Fp12.mul(l0, frobeniusFp12(l1, 1)), Fp12.mul(frobeniusFp12(l2, 2), frobeniusFp12(l3, 3)))
}

/** True when a Miller loop output f pairs to 1 (f^((p^12 - 1)/r) = 1). */
export function isPairingOne(f: Fp12T): boolean {
  return Fp12.eql(finalExponentiationCubed(f), Fp12.ONE)
}
