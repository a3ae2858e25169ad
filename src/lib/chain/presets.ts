/**
 * Named networks (reference-facts: Networks). The registry and the issuance pool sit at the
 * same addresses on every network, the devnet included; only the endpoint and chain id differ.
 */
import type { Address } from 'viem'
import { ADIRI_CHAIN_ID, DEVNET_CHAIN_ID, ISSUANCE_ADDRESS, REGISTRY_ADDRESS } from './addresses.js'

export { DEVNET_CHAIN_ID, ISSUANCE_ADDRESS, REGISTRY_ADDRESS }
export const TESTNET_CHAIN_ID = ADIRI_CHAIN_ID

/** The names `--chain` accepts. `adiri` is the test network's own name. */
export const CHAIN_NAMES = ['devnet', 'testnet', 'adiri'] as const
export type ChainName = (typeof CHAIN_NAMES)[number]

export type ChainPreset = {
  name: 'testnet' | 'devnet'
  chainId: number
  /** Public endpoint; null for the devnet (its endpoint comes from the runtime file). */
  rpcUrl: string | null
  explorer: string | null
  registry: Address
  issuance: Address
}

export const TESTNET: ChainPreset = {
  name: 'testnet',
  chainId: TESTNET_CHAIN_ID,
  rpcUrl: 'https://rpc.adiri.tel',
  explorer: 'https://telscan.io',
  registry: REGISTRY_ADDRESS,
  issuance: ISSUANCE_ADDRESS,
}

export const DEVNET: ChainPreset = {
  name: 'devnet',
  chainId: DEVNET_CHAIN_ID,
  rpcUrl: null,
  explorer: null,
  registry: REGISTRY_ADDRESS,
  issuance: ISSUANCE_ADDRESS,
}

/** A known network's name for a chain id, or null for any other chain. */
export function presetForChainId(chainId: number): ChainPreset | null {
  if (chainId === TESTNET_CHAIN_ID) return TESTNET
  if (chainId === DEVNET_CHAIN_ID) return DEVNET
  return null
}
