/**
 * Base58 with the Bitcoin alphabet, as the node and libp2p write it (node-info.yaml's keys and
 * proof, network keys, peer ids, bls.key): every leading zero byte is one leading `1`, and the
 * rest is the big-endian number in base 58.
 *
 * The number goes through a BigInt nine digits at a time (58^9 < 2^53).
 * test/unit/base58.test.ts holds both ways to the bs58 package on random values with and
 * without leading zeros.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
/** Digit value of each ASCII character, -1 for a character outside the alphabet. */
const DIGITS = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DIGITS[ALPHABET.charCodeAt(i)] = i
/** Digits per step: 58^9 is the largest power of 58 below 2^53, so a step is exact in a Number. */
const STEP = 9
const STEP_BASE = 58n ** 9n
const ONE = 49 // '1'

/** The base58 text of `bytes`. */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  let n =
    zeros === bytes.length
      ? 0n
      : BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset + zeros, bytes.length - zeros).toString('hex')}`)
  const steps: string[] = []
  while (n > 0n) {
    let v = Number(n % STEP_BASE)
    n /= STEP_BASE
    let step = ''
    for (let k = 0; k < STEP; k++) {
      step = ALPHABET[v % 58] + step
      v = Math.floor(v / 58)
    }
    steps.push(step)
  }
  // the most significant step is padded with zeros ('1'): those are not digits of the number
  const digits = steps.reverse().join('').replace(/^1+/, '')
  return '1'.repeat(zeros) + digits
}

/** The bytes of base58 `text`. @throws Error when a character is not in the alphabet */
export function base58Decode(text: string): Uint8Array {
  let zeros = 0
  while (zeros < text.length && text.charCodeAt(zeros) === ONE) zeros++
  let n = 0n
  let i = zeros
  // a first, shorter step, so that every later one takes STEP digits
  let take = (text.length - zeros) % STEP || STEP
  while (i < text.length) {
    let v = 0
    let scale = 1
    for (let k = 0; k < take; k++) {
      const c = text.charCodeAt(i++)
      const d = c < 128 ? (DIGITS[c] as number) : -1
      if (d < 0) throw new Error(`Non-base58 character at position ${i - 1}`)
      v = v * 58 + d
      scale *= 58
    }
    n = n * BigInt(scale) + BigInt(v)
    take = STEP
  }
  let hex = n === 0n ? '' : n.toString(16)
  if (hex.length % 2 === 1) hex = `0${hex}`
  const out = new Uint8Array(zeros + hex.length / 2)
  out.set(Buffer.from(hex, 'hex'), zeros)
  return out
}
