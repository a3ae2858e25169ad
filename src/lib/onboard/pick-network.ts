/**
 * The network question of the wizard: devnet, testnet, mainnet or a custom endpoint, defaulting to
 * what the flags say. Without a terminal, or when --chain or --rpc-url (or their environment
 * variables) already name the network, the flags are the answer and nothing is asked.
 */
import type { ChainFlagValues } from '../options.js'
import type { WizardIo } from '../wizard/io.js'

export async function pickNetwork(io: WizardIo, flags: ChainFlagValues): Promise<ChainFlagValues> {
  if (!io.interactive || flags.chain !== undefined || flags['rpc-url'] !== undefined) return flags
  // the registry flags (--registry, --registry-generation, --accept-registry-code) are kept as given
  const { chain: _chain, 'rpc-url': _rpcUrl, 'chain-id': _chainId, ...registryFlags } = flags
  const choice = await io.select<'devnet' | 'testnet' | 'mainnet' | 'custom'>(
    'Network',
    [
      { value: 'devnet', name: 'devnet', description: 'the local devnet `tnv devnet start` runs' },
      { value: 'testnet', name: 'testnet (adiri)', description: 'chain id 2017, https://rpc.adiri.tel' },
      { value: 'mainnet', name: 'mainnet', description: 'chain id 487; no public endpoint is known: give your node' },
      { value: 'custom', name: 'custom', description: 'another JSON-RPC endpoint' },
    ],
    'devnet',
  )
  if (choice === 'devnet' || choice === 'testnet') return { ...registryFlags, chain: choice }
  const rpcUrl = await io.input(
    choice === 'mainnet' ? 'JSON-RPC URL of your mainnet node' : 'JSON-RPC URL of the network',
    {
      ...(flags['rpc-url'] ? { default: flags['rpc-url'] } : {}),
      validate: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? true : 'An http(s) URL, such as http://127.0.0.1:8545'),
    },
  )
  if (choice === 'mainnet') return { ...registryFlags, chain: 'mainnet', 'rpc-url': rpcUrl.trim() }
  const chainId = await io.input('Chain id it must report (empty: accept what it reports)', {
    ...(flags['chain-id'] !== undefined ? { default: String(flags['chain-id']) } : {}),
    validate: (v) => (v.trim() === '' || /^[1-9][0-9]*$/.test(v.trim()) ? true : 'A positive integer, or empty'),
  })
  return {
    ...registryFlags,
    'rpc-url': rpcUrl.trim(),
    ...(chainId.trim() ? { 'chain-id': Number(chainId.trim()) } : {}),
  }
}
