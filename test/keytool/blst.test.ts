/**
 * tnv's BLS on blst in WebAssembly (src/lib/keys/blst.ts) held to @noble/curves, an independent
 * implementation: the same public keys, signatures and point encodings for random keys and
 * messages; the same verdicts on valid, changed and malformed input; points off the curve,
 * outside the prime-order subgroup and at infinity refused.
 */
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, it } from 'node:test'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { BLS_CURVE_ORDER, BLS_DST, blsKeyGen } from '../../src/lib/keys/bls.js'
import {
  BlsModuleUnavailableError,
  blstMemory,
  blstPublicKey,
  blstSign,
  blstVerify,
  blstWasmBytes,
  g1Forms,
  g2Uncompressed,
} from '../../src/lib/keys/blst.js'
import { BLST_WASM_FILE, BLST_WASM_SHA256 } from '../../src/lib/keys/blst-wasm.generated.js'
import { deriveChildSk, deriveMasterSk } from '../../src/lib/keys/eip2333.js'
import { findPackageFile } from '../../src/lib/package-file.js'
import { FIXED, hex, unhex } from './fixtures.js'

const { G1, G2, fields } = bls12_381
const nobleSk = (sk: Uint8Array) => fields.Fr.fromBytes(sk)
const noblePk = (sk: Uint8Array) => G2.Point.BASE.multiply(nobleSk(sk)).toBytes(true)
const nobleSign = (sk: Uint8Array, msg: Uint8Array) =>
  G1.hashToCurve(msg, { DST: BLS_DST }).multiply(nobleSk(sk)).toBytes(true)
const nobleVerify = (sig: Uint8Array, pk: Uint8Array, msg: Uint8Array) => {
  const s = bls12_381.shortSignatures
  try {
    return s.verify(sig, s.hash(msg, BLS_DST), pk)
  } catch {
    return false
  }
}

/** A point on E2 (y² = x³ + 4(u + 1)) outside G2, compressed (flags 0x80; either y will do). */
function g2OutsideSubgroup(): Uint8Array {
  const { Fp2 } = fields
  const b = Fp2.create({ c0: 4n, c1: 4n })
  for (let i = 1n; ; i++) {
    const x = Fp2.create({ c0: i, c1: 1n })
    let y: ReturnType<typeof Fp2.sqrt>
    try {
      y = Fp2.sqrt(Fp2.add(Fp2.pow(x, 3n), b))
    } catch {
      continue
    }
    if (new G2.Point(x, y, Fp2.ONE).isTorsionFree()) continue
    const out = unhex(x.c1.toString(16).padStart(96, '0') + x.c0.toString(16).padStart(96, '0'))
    out[0] = (out[0] ?? 0) | 0x80
    return out
  }
}

/** A point on E1 (y² = x³ + 4) outside G1, compressed. */
function g1OutsideSubgroup(): Uint8Array {
  const { Fp } = fields
  for (let x = 1n; ; x++) {
    let y: bigint
    try {
      y = Fp.sqrt(Fp.add(Fp.pow(x, 3n), 4n))
    } catch {
      continue
    }
    if (new G1.Point(x, y, 1n).isTorsionFree()) continue
    const out = unhex(x.toString(16).padStart(96, '0'))
    out[0] = (out[0] ?? 0) | 0x80
    return out
  }
}

describe('BLS on blst (WebAssembly) against @noble/curves', () => {
  it('the module is the one its SHA-256 records, imports nothing, and ships in the npm package', () => {
    const path = findPackageFile(BLST_WASM_FILE)
    assert.ok(path)
    const bytes = readFileSync(path)
    assert.equal(createHash('sha256').update(bytes).digest('hex'), BLST_WASM_SHA256)
    assert.deepEqual(blstWasmBytes(), bytes)
    assert.deepEqual(WebAssembly.Module.imports(new WebAssembly.Module(bytes)), [])
    const pjson = JSON.parse(readFileSync(join(dirname(path), '../../package.json'), 'utf8')) as { files: string[] }
    assert.ok(pjson.files.includes(BLST_WASM_FILE))
  })

  it('a missing or damaged package file is one error naming the file, with its own code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tnv-blst-'))
    try {
      const damaged = join(dir, 'tnv-blst.wasm')
      const good = blstWasmBytes()
      writeFileSync(damaged, Buffer.concat([good, Buffer.of(0)]))
      assert.throws(
        () => blstWasmBytes(damaged),
        (e: unknown) =>
          e instanceof BlsModuleUnavailableError && e.code === 'BlsModuleUnavailable' && /damaged/.test(e.message),
      )
      for (const missing of [null, join(dir, 'none.wasm')])
        assert.throws(
          () => blstWasmBytes(missing),
          (e: unknown) => e instanceof BlsModuleUnavailableError && /tnv-blst\.wasm\) is missing/.test(e.message),
        )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('public keys and signatures equal noble’s for random keys and messages', () => {
    for (let i = 0; i < 12; i++) {
      const sk = blsKeyGen(randomBytes(32))
      const msg = randomBytes(i * 23)
      const pk = blstPublicKey(sk)
      const sig = blstSign(sk, msg)
      assert.equal(hex(pk), hex(noblePk(sk)), `public key ${i}`)
      assert.equal(hex(sig), hex(nobleSign(sk, msg)), `signature ${i}`)
      assert.equal(blstVerify(sig, pk, msg), true)
      assert.equal(nobleVerify(sig, pk, msg), true)
      const other = Uint8Array.from(msg.length ? msg : [0])
      other[0] = (other[0] ?? 0) ^ 1
      assert.equal(blstVerify(sig, pk, other), false)
      assert.equal(nobleVerify(sig, pk, other), false)
    }
  })

  it('the fixed key and proof of possession', () => {
    const sk = unhex(FIXED.secretHex)
    assert.equal(hex(blstPublicKey(sk)), FIXED.publicKeyHex)
  })

  it('secrets at the edges of [1, r) and outside it', () => {
    const one = new Uint8Array(32)
    one[31] = 1
    const rMinus1 = unhex((BLS_CURVE_ORDER - 1n).toString(16).padStart(64, '0'))
    for (const sk of [one, rMinus1]) {
      assert.equal(hex(blstPublicKey(sk)), hex(noblePk(sk)))
      assert.equal(hex(blstSign(sk, Uint8Array.of(7))), hex(nobleSign(sk, Uint8Array.of(7))))
    }
    assert.throws(() => blstPublicKey(new Uint8Array(32)), /range/)
    assert.throws(() => blstPublicKey(unhex(BLS_CURVE_ORDER.toString(16).padStart(64, '0'))), /range/)
    assert.throws(() => blstSign(new Uint8Array(32).fill(0xff), Uint8Array.of(1)), /range/)
    assert.throws(() => blstPublicKey(new Uint8Array(31)), /32 bytes/)
  })

  it('point encodings equal noble’s, both ways', () => {
    for (let i = 0; i < 6; i++) {
      const sk = blsKeyGen(randomBytes(32))
      const pk = blstPublicKey(sk)
      assert.equal(hex(g2Uncompressed(pk) ?? new Uint8Array()), hex(G2.Point.fromBytes(pk).toBytes(false)))
      const sig = blstSign(sk, randomBytes(40))
      const fromCompressed = g1Forms(sig)
      const uncompressed = G1.Point.fromBytes(sig).toBytes(false)
      assert.equal(hex(fromCompressed?.uncompressed ?? new Uint8Array()), hex(uncompressed))
      assert.equal(hex(fromCompressed?.compressed ?? new Uint8Array()), hex(sig))
      assert.equal(hex(g1Forms(uncompressed)?.compressed ?? new Uint8Array()), hex(sig))
    }
  })

  it('refuses points off the curve, outside the subgroup, at infinity or badly encoded, as noble does', () => {
    const sk = blsKeyGen(randomBytes(32))
    const msg = randomBytes(32)
    const pk = blstPublicKey(sk)
    const sig = blstSign(sk, msg)
    const infG1 = new Uint8Array(48)
    infG1[0] = 0xc0
    const infG2 = new Uint8Array(96)
    infG2[0] = 0xc0
    const noFlag = (b: Uint8Array) => Uint8Array.from(b, (v, i) => (i === 0 ? v & 0x7f : v))
    const xTooBig = (n: number) => {
      const b = new Uint8Array(n).fill(0xff)
      b[0] = 0x9f
      return b
    }
    const offCurveG1 = (() => {
      for (let x = 1n; ; x++) {
        const b = unhex(x.toString(16).padStart(96, '0'))
        b[0] = (b[0] ?? 0) | 0x80
        if (!nobleVerifyPoint(() => G1.Point.fromBytes(b))) return b
      }
    })()
    const badSigs = [infG1, noFlag(sig), xTooBig(48), g1OutsideSubgroup(), offCurveG1, sig.slice(0, 47)]
    const badPks = [infG2, noFlag(pk), xTooBig(96), g2OutsideSubgroup(), pk.slice(0, 95)]
    for (const [i, b] of badSigs.entries()) {
      assert.equal(blstVerify(b, pk, msg), false, `signature ${i}`)
      assert.equal(nobleVerify(b, pk, msg), false, `noble, signature ${i}`)
      assert.equal(g1Forms(b), null, `g1Forms ${i}`)
    }
    for (const [i, b] of badPks.entries()) {
      assert.equal(blstVerify(sig, b, msg), false, `public key ${i}`)
      assert.equal(nobleVerify(sig, b, msg), false, `noble, public key ${i}`)
      assert.equal(g2Uncompressed(b), null, `g2Uncompressed ${i}`)
    }
    // an uncompressed G1 point with the compression flag set is refused
    const unc = g1Forms(sig)?.uncompressed ?? new Uint8Array(96)
    const flagged = unc.slice()
    flagged[0] = (flagged[0] ?? 0) | 0x80
    assert.equal(g1Forms(flagged), null)
  })

  it('a message longer than the buffer is refused, not truncated', () => {
    const sk = blsKeyGen(randomBytes(32))
    const huge = new Uint8Array(70_000)
    assert.throws(() => blstSign(sk, huge), /at most \d+ bytes/)
    assert.equal(blstVerify(blstSign(sk, Uint8Array.of(1)), blstPublicKey(sk), huge), false)
  })

  it('no copy of the secret key stays in the module’s memory after an operation', () => {
    const sk = blsKeyGen(randomBytes(32))
    blstPublicKey(sk)
    blstSign(sk, randomBytes(100))
    const memory = Buffer.from(blstMemory())
    assert.equal(memory.indexOf(Buffer.from(sk)), -1)
    // nor its little-endian form, which blst works with
    assert.equal(memory.indexOf(Buffer.from(sk).reverse()), -1)
  })

  it('KeyGen and EIP-2333 derivation leave neither their input nor the keys they made in the module’s memory', () => {
    const ikm = randomBytes(32)
    const seed = randomBytes(64)
    const made = [blsKeyGen(ikm)]
    const master = deriveMasterSk(seed)
    made.push(master, deriveChildSk(master, 7))
    const memory = Buffer.from(blstMemory())
    for (const secret of [ikm, seed, ...made]) {
      assert.equal(memory.indexOf(Buffer.from(secret)), -1)
      assert.equal(memory.indexOf(Buffer.from(secret).reverse()), -1)
    }
  })
})

function nobleVerifyPoint(f: () => unknown): boolean {
  try {
    f()
    return true
  } catch {
    return false
  }
}
