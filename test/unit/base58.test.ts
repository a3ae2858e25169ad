/**
 * tnv's base58 (src/lib/io/base58.ts) against the bs58 package it replaced, both ways, on random
 * values with and without leading zero bytes, and on the encodings the node writes.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import bs58 from 'bs58'
import { base58Decode, base58Encode } from '../../src/lib/io/base58.js'

describe('base58', () => {
  it('encodes and decodes as bs58 does, for lengths 0 to 130 with 0 to 3 leading zero bytes', () => {
    for (let length = 0; length <= 130; length++)
      for (let zeros = 0; zeros <= Math.min(3, length); zeros++)
        for (let round = 0; round < 3; round++) {
          const bytes = new Uint8Array(length)
          bytes.set(randomBytes(length - zeros), zeros)
          if (round === 2) bytes.fill(0xff, zeros) // the largest value of its length
          const text = bs58.encode(bytes)
          assert.equal(base58Encode(bytes), text, `encode ${length}/${zeros}`)
          assert.deepEqual(base58Decode(text), bytes, `decode ${length}/${zeros}`)
        }
  })

  it('reads leading 1s as zero bytes, only 1s as only zero bytes, and nothing as nothing', () => {
    assert.deepEqual(base58Decode(''), new Uint8Array())
    assert.deepEqual(base58Decode('111'), new Uint8Array(3))
    assert.equal(base58Encode(new Uint8Array(2)), '11')
    assert.deepEqual(base58Decode('11z'), Uint8Array.of(0, 0, 57))
    assert.deepEqual(base58Decode('21'), Uint8Array.of(58))
  })

  it('decodes what bs58 decodes and refuses what it refuses', () => {
    for (const text of ['0', 'O', 'I', 'l', '4XTTM0', ' 4XTTM', '4XTTM ', 'é', '4XTTM\u0000'])
      assert.throws(() => base58Decode(text), /Non-base58 character/, JSON.stringify(text))
    for (let i = 0; i < 200; i++) {
      const text = bs58.encode(randomBytes(1 + (i % 60)))
      assert.deepEqual(base58Decode(text), bs58.decode(text))
    }
  })

  it('gives the node’s encodings: a network key starts 4XTTM, a peer id 12D3KooW', () => {
    const key = randomBytes(32)
    const networkKey = base58Encode(Uint8Array.of(0x08, 0x01, 0x12, 0x20, ...key))
    assert.match(networkKey, /^4XTTM/)
    assert.match(base58Encode(Uint8Array.of(0x00, 0x24, 0x08, 0x01, 0x12, 0x20, ...key)), /^12D3KooW/)
    assert.deepEqual(base58Decode(networkKey).subarray(4), new Uint8Array(key))
  })
})
