/**
 * The devnet's accounts. Every key is public and derived from a fixed label
 * (`keccak256("tnv devnet <label>")`), so every devnet has the same governance, system, dev
 * and genesis validator addresses. Never use these keys anywhere else.
 */
import { hexToBigInt, hexToBytes, keccak256, numberToHex, stringToBytes } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { DEV_ACCOUNT_COUNT, GENESIS_VALIDATOR_COUNT } from './defaults.js'
import type { DevnetAccount } from './types.js'

export type DevnetGenesisValidator = DevnetAccount & {
  /** The validator's BLS secret key (32 bytes big-endian), public like every devnet key. */
  blsSecretKey: Uint8Array
}

/** The order r of the BLS12-381 G1/G2 subgroups: secret keys are in [1, r-1]. */
const BLS12_381_R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n

function accountFor(label: string): DevnetAccount {
  const privateKey = keccak256(stringToBytes(`tnv devnet ${label}`))
  return { address: privateKeyToAddress(privateKey), privateKey }
}

/** Registry owner: mints ConsensusNFTs, writes stake configs. */
export function devnetGovernanceAccount(): DevnetAccount {
  return accountFor('governance')
}

/** The protocol's system address, the only caller of concludeEpoch. */
export function devnetSystemAccount(): DevnetAccount {
  return accountFor('system')
}

/** Funded, not whitelisted dev accounts. */
export function devnetDevAccounts(count = DEV_ACCOUNT_COUNT): DevnetAccount[] {
  return Array.from({ length: count }, (_, i) => accountFor(`account ${i}`))
}

/**
 * Genesis validators: ECDSA account plus BLS secret (reduced into [1, r-1]). Their public keys
 * and proofs of possession are precomputed in genesis-validators.ts.
 */
export function devnetGenesisValidators(count = GENESIS_VALIDATOR_COUNT): DevnetGenesisValidator[] {
  return Array.from({ length: count }, (_, i) => {
    const account = accountFor(`genesis validator ${i}`)
    const wide = hexToBigInt(keccak256(stringToBytes(`tnv devnet genesis validator ${i} bls`)))
    const secret = (wide % (BLS12_381_R - 1n)) + 1n
    return { ...account, blsSecretKey: hexToBytes(numberToHex(secret, { size: 32 })) }
  })
}
