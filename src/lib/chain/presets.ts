/**
 * Named networks (reference-facts: Networks; node.md: the node's `--chain` values). The
 * registry and the issuance pool sit at the same addresses on every network, the devnet
 * included; the endpoint, the chain id and the registry generation(s) expected there differ.
 * A preset only says which generation to expect: the generation tnv uses is always detected
 * from the code at the registry address (src/lib/registry/generations/detect.ts).
 */
import type { Address } from 'viem'
import type { RegistryGeneration } from '../registry/generations/detect.js'
import { ADIRI_CHAIN_ID, DEVNET_CHAIN_ID, ISSUANCE_ADDRESS, MAINNET_CHAIN_ID, REGISTRY_ADDRESS } from './addresses.js'

export { DEVNET_CHAIN_ID, ISSUANCE_ADDRESS, MAINNET_CHAIN_ID, REGISTRY_ADDRESS }
export const TESTNET_CHAIN_ID = ADIRI_CHAIN_ID

/** The networks tnv knows by name. */
export type NetworkName = 'testnet' | 'mainnet' | 'devnet'

/**
 * The names `--chain` accepts: tnv's own and the ones operators type from the node's
 * `--chain` values (`adiri`, `test-net`, `main-net`).
 */
export const CHAIN_ALIASES = {
  devnet: 'devnet',
  testnet: 'testnet',
  adiri: 'testnet',
  'test-net': 'testnet',
  mainnet: 'mainnet',
  'main-net': 'mainnet',
} as const satisfies Record<string, NetworkName>
export const CHAIN_NAMES = Object.keys(CHAIN_ALIASES) as (keyof typeof CHAIN_ALIASES)[]
export type ChainName = keyof typeof CHAIN_ALIASES

export type ChainPreset = {
  name: NetworkName
  chainId: number
  /** Public endpoint; null when none is known (mainnet) or it comes from elsewhere (devnet's runtime file). */
  rpcUrl: string | null
  explorer: string | null
  registry: Address
  issuance: Address
  /** The registry generation(s) expected there; a note, never a substitute for detection. */
  generations: readonly RegistryGeneration[]
  /** Facts of this preset that are placeholders or unknown, said wherever they matter. */
  placeholders: readonly string[]
}

export const TESTNET: ChainPreset = {
  name: 'testnet',
  chainId: TESTNET_CHAIN_ID,
  rpcUrl: 'https://rpc.adiri.tel',
  explorer: 'https://telscan.io',
  registry: REGISTRY_ADDRESS,
  issuance: ISSUANCE_ADDRESS,
  generations: ['adiri'],
  placeholders: [],
}

export const MAINNET: ChainPreset = {
  name: 'mainnet',
  chainId: MAINNET_CHAIN_ID,
  rpcUrl: null,
  explorer: null,
  registry: REGISTRY_ADDRESS,
  issuance: ISSUANCE_ADDRESS,
  generations: ['next'],
  placeholders: [
    'no public mainnet RPC endpoint is known: pass --rpc-url of a mainnet node',
    'no mainnet explorer is known',
    "the node's mainnet genesis (chain id 487) holds placeholder validators and a placeholder owner",
  ],
}

export const DEVNET: ChainPreset = {
  name: 'devnet',
  chainId: DEVNET_CHAIN_ID,
  rpcUrl: null,
  explorer: null,
  registry: REGISTRY_ADDRESS,
  issuance: ISSUANCE_ADDRESS,
  // a rehearsal may run either generation's real code
  generations: ['adiri', 'next'],
  placeholders: [],
}

export const PRESETS: Readonly<Record<NetworkName, ChainPreset>> = {
  testnet: TESTNET,
  mainnet: MAINNET,
  devnet: DEVNET,
}

/** The network a `--chain` value names. */
export function networkOf(chain: ChainName): NetworkName {
  return CHAIN_ALIASES[chain]
}

/** A known network for a chain id, or null for any other chain. */
export function presetForChainId(chainId: number): ChainPreset | null {
  return Object.values(PRESETS).find((p) => p.chainId === chainId) ?? null
}
