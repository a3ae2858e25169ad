/**
 * Every command checks the endpoint's chain id before it trusts anything it reads or signs
 * anything (the eth_chainId call rides in the command's first read batch).
 */
import { WrongChainError } from './errors.js'
import { type NetworkName, presetForChainId } from './presets.js'
import type { ChainTarget } from './resolve-target.js'

/** The network a command ends up talking to, as reported in every JSON result. */
export type ChainInfo = {
  name: NetworkName | 'custom'
  chainId: number
  rpcUrl: string
  registry: `0x${string}`
}

/**
 * Throws WrongChainError when the endpoint is not the expected chain; names a custom endpoint
 * after the known network with that chain id.
 * @example const chain = checkChainId(target, await client.getChainId())
 */
export function checkChainId(target: ChainTarget, actual: number): ChainInfo {
  if (target.expectedChainId !== null && target.expectedChainId !== actual)
    throw new WrongChainError({
      rpcUrl: target.rpcUrl,
      expected: target.expectedChainId,
      actual,
      name:
        target.name === 'custom'
          ? '--chain-id'
          : `--chain ${target.name}${target.name === 'testnet' ? ' (adiri)' : ''}`,
    })
  const name = target.name === 'custom' ? (presetForChainId(actual)?.name ?? 'custom') : target.name
  return { name, chainId: actual, rpcUrl: target.rpcUrl, registry: target.registry }
}
