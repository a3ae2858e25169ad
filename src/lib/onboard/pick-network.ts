/**
 * The network question of the wizard: devnet, testnet or a custom endpoint, defaulting to
 * what the flags say. Without a terminal, or when --chain or --rpc-url (or their environment
 * variables) already name the network, the flags are the answer and nothing is asked.
 */
import type { ChainFlagValues } from '../chain/flags.js'
import type { WizardIo } from '../wizard/io.js'

export async function pickNetwork(io: WizardIo, flags: ChainFlagValues): Promise<ChainFlagValues> {
  if (!io.interactive || flags.chain !== undefined || flags['rpc-url'] !== undefined) return flags
  const given = flags.chain === 'adiri' ? 'testnet' : (flags.chain ?? (flags['rpc-url'] ? 'custom' : 'devnet'))
  const choice = await io.select(
    'Network',
    [
      { value: 'devnet', name: 'devnet', description: 'the local devnet `tnv devnet start` runs' },
      { value: 'testnet', name: 'testnet (adiri)', description: 'chain id 2017, https://rpc.adiri.tel' },
      { value: 'custom', name: 'custom', description: 'another JSON-RPC endpoint' },
    ],
    given,
  )
  const keepUrl = choice === given ? flags['rpc-url'] : undefined
  if (choice !== 'custom')
    return { chain: choice, registry: flags.registry, ...(keepUrl ? { 'rpc-url': keepUrl } : {}) }
  const rpcUrl = await io.input('JSON-RPC URL of the network', {
    ...(flags['rpc-url'] ? { default: flags['rpc-url'] } : {}),
    validate: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? true : 'An http(s) URL, such as http://127.0.0.1:8545'),
  })
  const chainId = await io.input('Chain id it must report (empty: accept what it reports)', {
    ...(flags['chain-id'] !== undefined ? { default: String(flags['chain-id']) } : {}),
    validate: (v) => (v.trim() === '' || /^[1-9][0-9]*$/.test(v.trim()) ? true : 'A positive integer, or empty'),
  })
  return {
    'rpc-url': rpcUrl.trim(),
    registry: flags.registry,
    ...(chainId.trim() ? { 'chain-id': Number(chainId.trim()) } : {}),
  }
}
