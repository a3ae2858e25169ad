/**
 * The registry generations tnv recognises, and the exact code of each shipped genesis registry
 * (keccak256 of the runtime code in networks/adiri and networks/next; test/registry and
 * test/networks recompute them from the genesis files). No imports, so that `tnv --version`
 * (src/entries/version.ts) prints them without loading the registry client.
 */
export const REGISTRY_GENERATIONS = ['adiri', 'next'] as const
export type RegistryGeneration = (typeof REGISTRY_GENERATIONS)[number]

export const KNOWN_REGISTRY_CODE: Readonly<Record<`0x${string}`, { generation: RegistryGeneration; source: string }>> =
  {
    '0x5318ebc5cd8123cfb0808fac0f3c0b95ed6f45f67c0853fea0766b52035fea53': {
      generation: 'adiri',
      source: 'test network adiri (tn-contracts 8d4cb03, telcoin-network chain-configs/testnet 3c0f0d4a)',
    },
    '0xbd1ade0e07b6827794e1e0cb181e756ff3b6916535c81941b634cd783a9cd8ce': {
      generation: 'next',
      source: 'next generation (tn-contracts 0fb6b01, telcoin-network chain-configs/mainnet aec76b5e)',
    },
  }
