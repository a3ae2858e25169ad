/**
 * bls.kw's AES-256-GCM-SIV (src/lib/keys/aes-gcm-siv.ts): RFC 8452's own vectors (appendix C.2,
 * AES-256, no associated data) and agreement with @noble/ciphers' independent gcmsiv, both ways,
 * over lengths around the block size; tampering anywhere is refused.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { gcmsiv } from '@noble/ciphers/aes.js'
import { gcmSivOpen, gcmSivSeal } from '../../src/lib/keys/aes-gcm-siv.js'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const unhex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'))

// RFC 8452 appendix C.2: key 0100…00 (32 bytes), nonce 0300…00 (12 bytes), no AAD
const KEY = unhex(`01${'00'.repeat(31)}`)
const NONCE = unhex(`03${'00'.repeat(11)}`)
const RFC: [plaintext: string, result: string][] = [
  ['', '07f5f4169bbf55a8400cd47ea6fd400f'],
  ['0100000000000000', 'c2ef328e5c71c83b843122130f7364b761e0b97427e3df28'],
  ['010000000000000000000000', '9aab2aeb3faa0a34aea8e2b18ca50da9ae6559e48fd10f6e5c9ca17e'],
  ['01000000000000000000000000000000', '85a01b63025ba19b7fd3ddfc033b3e76c9eac6fa700942702e90862383c6c366'],
  [
    '0100000000000000000000000000000002000000000000000000000000000000',
    '4a6a9db4c8c6549201b9edb53006cba821ec9cf850948a7c86c68ac7539d027fe819e63abcd020b006a976397632eb5d',
  ],
  [
    '010000000000000000000000000000000200000000000000000000000000000003000000000000000000000000000000',
    'c00d121893a9fa603f48ccc1ca3c57ce7499245ea0046db16c53c7c66fe717e39cf6c748837b61f6ee3adcee17534ed5790bc96880a99ba804bd12c0e6a22cc4',
  ],
]

describe('AES-256-GCM-SIV', () => {
  it('RFC 8452 appendix C.2 vectors, sealed and opened', () => {
    for (const [pt, result] of RFC) {
      assert.equal(hex(gcmSivSeal(KEY, NONCE, unhex(pt))), result, pt)
      assert.equal(hex(gcmSivOpen(KEY, NONCE, unhex(result)) ?? new Uint8Array([0xff])), pt)
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

  it('refuses a changed byte anywhere, a wrong key or nonce, and a short input', () => {
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
    assert.equal(gcmSivOpen(key, nonce, sealed.subarray(0, 15)), undefined)
    assert.throws(() => gcmSivSeal(randomBytes(16), nonce, new Uint8Array(1)), RangeError)
    assert.throws(() => gcmSivSeal(key, randomBytes(16), new Uint8Array(1)), RangeError)
  })
})
