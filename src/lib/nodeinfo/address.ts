/**
 * Execution addresses: parsing as the reference keytool accepts them (`0` = the zero address,
 * 0x optional) and EIP-55 checksums (keccak-256 of the lowercase hex; a hex letter is upper
 * case where the matching nibble of the hash is >= 8).
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { InvalidAddressChecksumError, InvalidAddressError } from './errors.js'
import type { Hex } from './types.js'

export const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000'

/**
 * EIP-55 checksummed form of a 40-hex-digit address.
 * @example toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed') // '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
 */
export function toChecksumAddress(address: string): Hex {
  const lower = address.toLowerCase().replace(/^0x/, '')
  const hash = keccak_256(new TextEncoder().encode(lower))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const c = lower[i] as string
    const byte = hash[i >> 1] as number
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f
    out += nibble >= 8 ? c.toUpperCase() : c
  }
  return out as Hex
}

/**
 * Parses an execution address given by an operator or read from node-info.yaml.
 * `0` means the zero address; the 0x prefix is optional; all-lowercase or all-uppercase hex
 * is accepted as is; mixed case must carry a valid EIP-55 checksum.
 * @returns the checksummed address.
 * @example parseExecutionAddress('0', '--address') // ZERO_ADDRESS
 */
export function parseExecutionAddress(value: string, label: string): Hex {
  const text = value.trim()
  if (text === '0') return ZERO_ADDRESS
  const hex = text.replace(/^0[xX]/, '')
  if (!/^[0-9a-fA-F]{40}$/.test(hex)) throw new InvalidAddressError(label, value)
  const checksummed = toChecksumAddress(hex)
  const mixed = hex !== hex.toLowerCase() && hex !== hex.toUpperCase()
  if (mixed && checksummed.slice(2) !== hex) throw new InvalidAddressChecksumError(label, value)
  return checksummed
}
