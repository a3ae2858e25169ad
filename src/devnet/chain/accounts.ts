/**
 * The devnet's dev accounts. Every key is public and derived from a fixed label
 * (`keccak256("tnv devnet <label>")`), so every devnet has the same funded addresses. Never use
 * these keys anywhere else. (The devnet has no governance key: rehearsal governance impersonates
 * the registry's real owner, ./governance.ts.)
 */
import { keccak256, stringToBytes } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { DEV_ACCOUNT_COUNT } from './defaults.js'
import type { DevnetAccount } from './types.js'

function accountFor(label: string): DevnetAccount {
  const privateKey = keccak256(stringToBytes(`tnv devnet ${label}`))
  return { address: privateKeyToAddress(privateKey), privateKey }
}

/** Funded, not whitelisted dev accounts. */
export function devnetDevAccounts(count = DEV_ACCOUNT_COUNT): DevnetAccount[] {
  return Array.from({ length: count }, (_, i) => accountFor(`account ${i}`))
}
