/**
 * bls.kw's AES-256-GCM-SIV (src/lib/keys/aes-gcm-siv.ts, OpenSSL's through node:crypto): RFC
 * 8452's own vectors, sealed and opened through the production module, and agreement with
 * @noble/ciphers' independent gcmsiv, both ways, over lengths around the block size; tampering
 * anywhere is refused.
 *
 * The module takes no associated data (bls.kw has none), so of RFC 8452 appendix C.2
 * (AEAD_AES_256_GCM_SIV) only the vectors whose AAD is empty run here: all eight of them. Both
 * appendix C.3 vectors (counter wrap, AES-256) have an empty AAD and run.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { gcmsiv } from '@noble/ciphers/aes.js'
import { CipherUnavailableError, gcmSivOpen, gcmSivSeal } from '../../src/lib/keys/aes-gcm-siv.js'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const unhex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'))

type Vector = { name: string; key: string; nonce: string; plaintext: string; result: string }

// RFC 8452 appendix C.2, the vectors with "AAD (0 bytes)"; `result` is the RFC's "Result"
// (ciphertext || tag)
const KEY_1 = `01${'00'.repeat(31)}`
const NONCE_3 = `03${'00'.repeat(11)}`
const block = (n: number) => `0${n}${'00'.repeat(15)}`
const C2: Vector[] = [
  { name: 'C.2, 0 bytes', key: KEY_1, nonce: NONCE_3, plaintext: '', result: '07f5f4169bbf55a8400cd47ea6fd400f' },
  {
    name: 'C.2, 8 bytes',
    key: KEY_1,
    nonce: NONCE_3,
    plaintext: '0100000000000000',
    result: 'c2ef328e5c71c83b843122130f7364b761e0b97427e3df28',
  },
  {
    name: 'C.2, 12 bytes',
    key: KEY_1,
    nonce: NONCE_3,
    plaintext: '010000000000000000000000',
    result: '9aab2aeb3faa0a34aea8e2b18ca50da9ae6559e48fd10f6e5c9ca17e',
  },
  {
    name: 'C.2, 16 bytes',
    key: KEY_1,
    nonce: NONCE_3,
    plaintext: block(1),
    result: '85a01b63025ba19b7fd3ddfc033b3e76c9eac6fa700942702e90862383c6c366',
  },
  {
    name: 'C.2, 32 bytes',
    key: KEY_1,
    nonce: NONCE_3,
    plaintext: block(1) + block(2),
    result: '4a6a9db4c8c6549201b9edb53006cba821ec9cf850948a7c86c68ac7539d027f' + 'e819e63abcd020b006a976397632eb5d',
  },
  {
    name: 'C.2, 48 bytes',
    key: KEY_1,
    nonce: NONCE_3,
    plaintext: block(1) + block(2) + block(3),
    result:
      'c00d121893a9fa603f48ccc1ca3c57ce7499245ea0046db16c53c7c66fe717e3' +
      '9cf6c748837b61f6ee3adcee17534ed5790bc96880a99ba804bd12c0e6a22cc4',
  },
  {
    name: 'C.2, 64 bytes',
    key: KEY_1,
    nonce: NONCE_3,
    plaintext: block(1) + block(2) + block(3) + block(4),
    result:
      'c2d5160a1f8683834910acdafc41fbb1632d4a353e8b905ec9a5499ac34f96c7' +
      'e1049eb080883891a4db8caaa1f99dd004d80487540735234e3744512c6f90ce' +
      '112864c269fc0d9d88c61fa47e39aa08',
  },
  {
    name: 'C.2, 0 bytes, another key and nonce',
    key: 'e66021d5eb8e4f4066d4adb9c33560e4f46e44bb3da0015c94f7088736864200',
    nonce: 'e0eaf5284d884a0e77d31646',
    plaintext: '',
    result: '169fbb2fbf389a995f6390af22228a62',
  },
]

// RFC 8452 appendix C.3: the tag's first 32 bits are ffffffff, so the CTR counter wraps to 0
const C3: Vector[] = [
  {
    name: 'C.3, 32 bytes',
    key: '00'.repeat(32),
    nonce: '00'.repeat(12),
    plaintext: `${'00'.repeat(16)}4db923dc793ee6497c76dcc03a98e108`,
    result: 'f3f80f2cf0cb2dd9c5984fcda908456cc537703b5ba70324a6793a7bf218d3ea' + 'ffffffff000000000000000000000000',
  },
  {
    name: 'C.3, 24 bytes',
    key: '00'.repeat(32),
    nonce: '00'.repeat(12),
    plaintext: `eb3640277c7ffd1303c7a542d02d3e4c${'00'.repeat(8)}`,
    result: '18ce4f0b8cb4d0cac65fea8f79257b20888e53e72299e56d' + 'ffffffff000000000000000000000000',
  },
]

describe('AES-256-GCM-SIV', () => {
  for (const [appendix, vectors] of [
    ['C.2', C2],
    ['C.3', C3],
  ] as const)
    it(`RFC 8452 appendix ${appendix} vectors (empty AAD), sealed and opened`, () => {
      for (const v of vectors) {
        assert.equal(v.result.length, v.plaintext.length + 32, `${v.name}: transcription`)
        const key = unhex(v.key)
        const nonce = unhex(v.nonce)
        assert.equal(hex(gcmSivSeal(key, nonce, unhex(v.plaintext))), v.result, v.name)
        assert.equal(hex(gcmSivOpen(key, nonce, unhex(v.result)) ?? new Uint8Array([0xff])), v.plaintext, v.name)
      }
    })

  it('agrees with @noble/ciphers gcmsiv both ways, for lengths 0 to 70', () => {
    for (let len = 0; len <= 70; len++) {
      const key = randomBytes(32)
      const nonce = randomBytes(12)
      const pt = randomBytes(len)
      const ours = gcmSivSeal(key, nonce, pt)
      assert.equal(hex(ours), hex(gcmsiv(key, nonce).encrypt(pt)), `length ${len}`)
      assert.equal(hex(gcmSivOpen(key, nonce, gcmsiv(key, nonce).encrypt(pt)) ?? new Uint8Array([0xff])), hex(pt))
      assert.equal(hex(gcmsiv(key, nonce).decrypt(ours)), hex(pt))
    }
  })

  it('refuses a changed byte anywhere, a wrong key or nonce, and a short input, with undefined', () => {
    const key = randomBytes(32)
    const nonce = randomBytes(12)
    const sealed = gcmSivSeal(key, nonce, randomBytes(32))
    for (let i = 0; i < sealed.length; i++) {
      const bad = Uint8Array.from(sealed)
      bad[i] = (bad[i] as number) ^ 1
      assert.equal(gcmSivOpen(key, nonce, bad), undefined, `byte ${i}`)
    }
    assert.equal(gcmSivOpen(randomBytes(32), nonce, sealed), undefined)
    assert.equal(gcmSivOpen(key, randomBytes(12), sealed), undefined)
    for (const length of [0, 15]) assert.equal(gcmSivOpen(key, nonce, sealed.subarray(0, length)), undefined)
    assert.equal(gcmSivOpen(key, nonce, sealed.subarray(0, 16)), undefined, 'a tag alone, of another message')
  })

  it('refuses keys and nonces of the wrong length, by name', () => {
    const key = randomBytes(32)
    const nonce = randomBytes(12)
    assert.throws(() => gcmSivSeal(randomBytes(16), nonce, new Uint8Array(1)), /key: expected 32 bytes, got 16/)
    assert.throws(() => gcmSivSeal(key, randomBytes(16), new Uint8Array(1)), /nonce: expected 12 bytes, got 16/)
    assert.throws(() => gcmSivOpen(key, randomBytes(8), new Uint8Array(32)), /nonce: expected 12 bytes, got 8/)
  })

  it('a runtime without the cipher is told what to run instead', () => {
    const e = new CipherUnavailableError(new Error('Unknown cipher'))
    assert.equal(e.code, 'CipherUnavailable')
    assert.match(
      e.render(),
      /^This Node\.js \(v\d+\.\d+\.\d+, OpenSSL [^)]+\) has no AES-256-GCM-SIV, the cipher of bls\.kw, so the BLS key file can be neither written nor opened\. Run tnv on an official Node\.js 26 LTS build .*single executable/,
    )
  })
})
