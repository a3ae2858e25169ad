/**
 * The chain id and registry of an offline computation (a delegation digest or signature made
 * with nothing contacted): from --chain (a preset) or --chain-id, and --registry.
 */
import type { Address } from 'viem'
import { parseAddressFlag } from '../chain/address.js'
import { networkOf, PRESETS, REGISTRY_ADDRESS } from '../chain/presets.js'
import { UsageError } from '../errors.js'
import type { ChainFlagValues } from '../options.js'

export async function offlineTarget(flags: ChainFlagValues): Promise<{ chainId: number; registry: Address }> {
  const registry = flags.registry === undefined ? REGISTRY_ADDRESS : parseAddressFlag(flags.registry, '--registry')
  const preset = flags.chain !== undefined ? PRESETS[networkOf(flags.chain)] : null
  if (preset && flags['chain-id'] !== undefined && flags['chain-id'] !== preset.chainId)
    throw new UsageError(
      `--chain ${flags.chain} is chain id ${preset.chainId}, but --chain-id says ${flags['chain-id']}.`,
      {
        fix: 'Drop one of them.',
      },
    )
  const chainId = flags['chain-id'] ?? (preset && preset.name !== 'devnet' ? preset.chainId : undefined)
  if (chainId === undefined)
    throw new UsageError('Working offline needs the chain id the registry runs on.', {
      fix: 'Pass --chain testnet|mainnet, or --chain-id (the devnet: --chain-id 911329 or the rehearsal’s).',
    })
  return { chainId, registry }
}
