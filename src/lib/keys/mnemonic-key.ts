/**
 * The validator's BLS secret from its recovery phrase: BIP-39 seed → EIP-2333 tree → the
 * EIP-2334-style path m/12381/5522764/<index>/0/0 (docs/decisions.md "Recovery phrase"):
 * - 12381: EIP-2334's purpose (BLS12-381 keys derived by EIP-2333);
 * - 5522764: tnv's coin type for Telcoin Network, the ASCII bytes of "TEL" (0x54454C) read as a
 *   number. Telcoin has no SLIP-44 coin type, no SLIP-44 entry uses this number, and it is not
 *   Ethereum's 3600, so one phrase used for both never gives the same key on both networks;
 * - <index>: the validator (account) number, 0 for the first;
 * - /0/0: EIP-2334's validator shape (the Ethereum signing-key position), kept so tools that
 *   show EIP-2334 paths read it alike.
 * The result is an ordinary node key: the data directory it makes is byte-compatible with the node's.
 */
import { deriveKeyAtPath } from './eip2333.js'
import { mnemonicSeed } from './mnemonic.js'

export const BLS_PURPOSE = 12381
/** ASCII "TEL" = 0x54454C. */
export const TELCOIN_COIN_TYPE = 0x54454c
/** Ethereum's, which tnv must never use (EIP-2334). */
export const ETHEREUM_COIN_TYPE = 3600

/** The path of validator `index`. */
export function validatorKeyPath(index = 0): string {
  if (!Number.isInteger(index) || index < 0 || index > 0xffff_ffff)
    throw new RangeError(`validator index: expected an integer in [0, 2^32), got ${index}`)
  return `m/${BLS_PURPOSE}/${TELCOIN_COIN_TYPE}/${index}/0/0`
}

/**
 * @example const secret = blsSecretFromMnemonic(phrase, 0) // zero it when done
 * @throws the phrase's errors (./mnemonic.ts)
 */
export function blsSecretFromMnemonic(phrase: string, index = 0): Uint8Array {
  const seed = mnemonicSeed(phrase)
  try {
    return deriveKeyAtPath(seed, validatorKeyPath(index))
  } finally {
    seed.fill(0)
  }
}
