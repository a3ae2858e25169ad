/**
 * The EVM BLS verifier at 0x…b151 against @noble/curves: property tests over hundreds of random
 * secrets, messages and addresses, and every malformed encoding the issue lists. Each case is one
 * eth_call (batched over HTTP).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { type Address, bytesToHex, encodeFunctionData, type Hex, hexToBytes, numberToBytes } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { BLS_VERIFIER_ADDRESS } from '../../src/devnet/chain/types.js'
import { BLS_DST } from '../../src/lib/keys/bls.js'
import { popMessage as proofOfPossessionMessage } from '../../src/lib/keys/pop.js'
import { startTestDevnet, type TestDevnet } from './helpers.js'

const sigs = bls12_381.shortSignatures
const { Fp, Fp2 } = bls12_381.fields
const P = Fp.ORDER
const CASES = 240

let dn: TestDevnet
const blsVerifierAbi = [
  {
    type: 'function',
    name: 'blsVerify',
    stateMutability: 'view',
    inputs: [
      { name: 'signature', type: 'bytes' },
      { name: 'pubkey', type: 'bytes' },
      { name: 'message', type: 'bytes' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const

function verify(signature: Uint8Array | Hex, pubkey: Uint8Array | Hex, message: Uint8Array | Hex): Promise<boolean> {
  const hex = (v: Uint8Array | Hex) => (typeof v === 'string' ? v : bytesToHex(v))
  return dn.client.readContract({
    address: BLS_VERIFIER_ADDRESS,
    abi: blsVerifierAbi,
    functionName: 'blsVerify',
    args: [hex(signature), hex(pubkey), hex(message)],
  })
}

/** Runs `checks` in batches so the HTTP batching carries them in few requests. */
async function all(checks: (() => Promise<void>)[], width = 60): Promise<void> {
  for (let i = 0; i < checks.length; i += width) await Promise.all(checks.slice(i, i + width).map((c) => c()))
}

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = bytes.slice()
  copy[bit >> 3] = (copy[bit >> 3] ?? 0) ^ (1 << (bit & 7))
  return copy
}

function randomInt(n: number): number {
  return (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % n
}

function be48(v: bigint): Uint8Array {
  return numberToBytes(v, { size: 48 })
}

/** Compressed G1 from affine (x, y), no validity checks: ZCash flags 0x80 (+0x20 when y is the larger root). */
function compressG1(x: bigint, y: bigint): Uint8Array {
  const out = be48(x)
  out[0] = (out[0] ?? 0) | 0x80 | (y * 2n > P ? 0x20 : 0)
  return out
}

type Fp2Value = { c0: bigint; c1: bigint }
function compressG2(x: Fp2Value, y: Fp2Value): Uint8Array {
  const out = new Uint8Array(96)
  out.set(be48(x.c1), 0)
  out.set(be48(x.c0), 48)
  const decisive = y.c1 !== 0n ? y.c1 : y.c0
  out[0] = (out[0] ?? 0) | 0x80 | (decisive * 2n > P ? 0x20 : 0)
  return out
}

const R_ORDER = bls12_381.fields.Fr.ORDER

/** A point of E(Fp) outside the r-order subgroup. */
function g1PointOffSubgroup() {
  for (let x = 1n; ; x++) {
    try {
      const y = Fp.sqrt(Fp.add(Fp.pow(x, 3n), 4n))
      const point = bls12_381.G1.Point.fromAffine({ x, y })
      if (!point.isTorsionFree()) return point
    } catch {
      // x³ + 4 is not a square: next x
    }
  }
}

/**
 * `point` plus a torsion point T = r·R of order dividing the cofactor: the classic forgery a
 * verifier without subgroup checks can accept (T vanishes in the final exponentiation).
 */
function addCofactorTorsion<
  P extends { add(o: P): P; multiplyUnsafe(k: bigint): P; toAffine(): { x: unknown; y: unknown } },
>(point: P, offSubgroup: P): P {
  const torsion = offSubgroup.multiplyUnsafe(R_ORDER - 1n).add(offSubgroup)
  return point.add(torsion)
}

/** A G1 x whose x³ + 4 is not a square: no point has it. */
function g1OffCurveX(): Uint8Array {
  for (let x = 1n; ; x++) {
    const rhs = Fp.add(Fp.pow(x, 3n), 4n)
    if (Fp.pow(rhs, (P - 1n) / 2n) !== 1n) return compressG1(x, 0n)
  }
}

const B2 = { c0: 4n, c1: 4n }
function g2Rhs(x: Fp2Value): Fp2Value {
  return Fp2.add(Fp2.pow(x, 3n), B2)
}

function g2PointOffSubgroup() {
  for (let i = 1n; ; i++) {
    const x = { c0: i, c1: 1n }
    try {
      const point = bls12_381.G2.Point.fromAffine({ x, y: Fp2.sqrt(g2Rhs(x)) })
      if (!point.isTorsionFree()) return point
    } catch {
      // not a square: next x
    }
  }
}

function g2OffCurveX(): Uint8Array {
  for (let i = 1n; ; i++) {
    const x = { c0: i, c1: 2n }
    try {
      Fp2.sqrt(g2Rhs(x))
    } catch {
      return compressG2(x, { c0: 0n, c1: 0n })
    }
  }
}

describe('blsVerify at 0x…b151 (EVM BLS12-381 verifier)', () => {
  const secret = bls12_381.utils.randomSecretKey()
  const publicKey = sigs.getPublicKey(secret).toBytes(true)
  const message = new TextEncoder().encode('tnv devnet')
  const signature = sigs.sign(sigs.hash(message, BLS_DST), secret).toBytes(true)

  before(async () => {
    dn = await startTestDevnet({ protocolLoop: false })
  })
  after(async () => {
    await dn?.close()
  })

  it('accepts a valid signature, as noble does', async () => {
    assert.equal(sigs.verify(signature, sigs.hash(message, BLS_DST), publicKey), true)
    assert.equal(await verify(signature, publicKey, message), true)
  })

  it(`matches noble over ${CASES} random secrets, messages and addresses (valid, flipped bits, swapped keys and messages)`, async () => {
    type Case = { pk: Uint8Array; msg: Uint8Array; sig: Uint8Array }
    const cases: Case[] = []
    for (let i = 0; i < CASES; i++) {
      const sk = bls12_381.utils.randomSecretKey()
      const pk = sigs.getPublicKey(sk).toBytes(true)
      // half proofs of possession for random addresses (the registry's message), half random messages
      const msg =
        i % 2 === 0
          ? proofOfPossessionMessage(pk, privateKeyToAddress(generatePrivateKey()) as Address)
          : crypto.getRandomValues(new Uint8Array(1 + randomInt(300)))
      cases.push({ pk, msg, sig: sigs.sign(sigs.hash(msg, BLS_DST), sk).toBytes(true) })
    }
    const checks: (() => Promise<void>)[] = []
    cases.forEach((c, i) => {
      const other = cases[(i + 1) % cases.length] as Case
      const expect = (label: string, args: [Uint8Array, Uint8Array, Uint8Array], want: boolean) =>
        checks.push(async () => {
          assert.equal(await verify(...args), want, `case ${i}: ${label}`)
        })
      expect('valid', [c.sig, c.pk, c.msg], true)
      expect('flipped signature bit', [flipBit(c.sig, randomInt(384)), c.pk, c.msg], false)
      expect('flipped public key bit', [c.sig, flipBit(c.pk, randomInt(768)), c.msg], false)
      expect('flipped message bit', [c.sig, c.pk, flipBit(c.msg, randomInt(c.msg.length * 8))], false)
      expect("another message's signature", [other.sig, c.pk, c.msg], false)
      expect('another key', [c.sig, other.pk, c.msg], false)
    })
    await all(checks)
  })

  it('answers false for wrong lengths', async () => {
    const cases: [string, Uint8Array, Uint8Array][] = [
      ['empty signature', new Uint8Array(0), publicKey],
      ['47-byte signature', signature.slice(0, 47), publicKey],
      ['49-byte signature', Uint8Array.from([...signature, 0]), publicKey],
      ['96-byte (uncompressed-size) signature', new Uint8Array(96), publicKey],
      ['empty public key', signature, new Uint8Array(0)],
      ['95-byte public key', signature, publicKey.slice(0, 95)],
      ['97-byte public key', signature, Uint8Array.from([...publicKey, 0])],
      ['192-byte uncompressed public key', signature, sigs.getPublicKey(secret).toBytes(false)],
    ]
    for (const [label, sig, pk] of cases) assert.equal(await verify(sig, pk, message), false, label)
  })

  it('answers false for bad flag bytes and for infinity', async () => {
    const withFlags = (bytes: Uint8Array, set: number, clear: number) => {
      const copy = bytes.slice()
      copy[0] = ((copy[0] ?? 0) & ~clear) | set
      return copy
    }
    const infinitySig = new Uint8Array(48)
    infinitySig[0] = 0xc0
    const infinityPk = new Uint8Array(96)
    infinityPk[0] = 0xc0
    const cases: [string, Uint8Array, Uint8Array][] = [
      ['signature without the compressed flag', withFlags(signature, 0, 0x80), publicKey],
      ['signature with the infinity flag', withFlags(signature, 0x40, 0), publicKey],
      [
        'signature with the sort flag flipped',
        withFlags(signature, (signature[0] ?? 0) & 0x20 ? 0 : 0x20, 0x20 & (signature[0] ?? 0)),
        publicKey,
      ],
      ['signature 0xe0 flags', withFlags(signature, 0xe0, 0), publicKey],
      ['the infinity signature', infinitySig, publicKey],
      ['public key without the compressed flag', signature, withFlags(publicKey, 0, 0x80)],
      ['public key with the infinity flag', signature, withFlags(publicKey, 0x40, 0)],
      ['the infinity public key', signature, infinityPk],
    ]
    for (const [label, sig, pk] of cases) assert.equal(await verify(sig, pk, message), false, label)
    assert.equal(await verify(infinitySig, infinityPk, message), false, 'infinity key and signature')
  })

  it('answers false for a coordinate ≥ p', async () => {
    const sigAtP = compressG1(P, 0n)
    const sigMax = new Uint8Array(48).fill(0xff) // flags 111 plus x = 2^381 - 1
    sigMax[0] = 0x9f
    const pkC1AtP = publicKey.slice()
    pkC1AtP.set(be48(P), 0)
    pkC1AtP[0] = (pkC1AtP[0] ?? 0) | 0x80
    const pkC0AtP = publicKey.slice()
    pkC0AtP.set(be48(P), 48)
    const pkC0Huge = publicKey.slice()
    pkC0Huge.fill(0xff, 48)
    assert.equal(await verify(sigAtP, publicKey, message), false, 'signature x = p')
    assert.equal(await verify(sigMax, publicKey, message), false, 'signature x = 2^381 - 1')
    assert.equal(await verify(signature, pkC1AtP, message), false, 'public key x.c1 = p')
    assert.equal(await verify(signature, pkC0AtP, message), false, 'public key x.c0 = p')
    assert.equal(await verify(signature, pkC0Huge, message), false, 'public key x.c0 = 2^384 - 1')
  })

  it('answers false for points not on the curve', async () => {
    assert.equal(await verify(g1OffCurveX(), publicKey, message), false, 'signature x with no curve point')
    assert.equal(await verify(signature, g2OffCurveX(), message), false, 'public key x with no curve point')
  })

  it('answers false for points outside the subgroup, including valid signatures plus cofactor torsion', async () => {
    const g1Off = g1PointOffSubgroup()
    const g2Off = g2PointOffSubgroup()
    const g1Bytes = (p: typeof g1Off) => compressG1(p.toAffine().x, p.toAffine().y)
    const g2Bytes = (p: typeof g2Off) => compressG2(p.toAffine().x, p.toAffine().y)
    const sigPoint = sigs.sign(sigs.hash(message, BLS_DST), secret)
    const forgedSig = addCofactorTorsion(sigPoint, g1Off)
    const forgedPk = addCofactorTorsion(sigs.getPublicKey(secret), g2Off)
    assert.equal(forgedSig.isTorsionFree(), false)
    assert.equal(forgedPk.isTorsionFree(), false)
    assert.equal(await verify(g1Bytes(g1Off), publicKey, message), false, 'signature outside G1')
    assert.equal(await verify(signature, g2Bytes(g2Off), message), false, 'public key outside G2')
    assert.equal(await verify(g1Bytes(forgedSig), publicKey, message), false, 'signature + G1 cofactor torsion')
    assert.equal(await verify(signature, g2Bytes(forgedPk), message), false, 'public key + G2 cofactor torsion')
  })

  it('runs out of gas (reverts) rather than answering false when given too little gas', async () => {
    const data = encodeFunctionData({
      abi: blsVerifierAbi,
      functionName: 'blsVerify',
      args: [bytesToHex(signature), bytesToHex(publicKey), bytesToHex(message)],
    })
    await assert.rejects(dn.client.call({ to: BLS_VERIFIER_ADDRESS, data, gas: 120_000n }))
    const enough = await dn.client.call({ to: BLS_VERIFIER_ADDRESS, data, gas: 300_000n })
    assert.equal(BigInt(enough.data ?? '0x0'), 1n)
  })

  it('answers false, without reverting, to the empty message and to a long one', async () => {
    assert.equal(await verify(signature, publicKey, new Uint8Array(0)), false)
    const long = crypto.getRandomValues(new Uint8Array(4096))
    const longSig = sigs.sign(sigs.hash(long, BLS_DST), secret).toBytes(true)
    assert.equal(await verify(longSig, publicKey, long), true)
    assert.equal(await verify(longSig, publicKey, hexToBytes('0x00')), false)
  })
})
