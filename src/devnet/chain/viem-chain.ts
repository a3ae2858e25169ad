/** The devnet as a viem chain definition (chain id 911329, native token TEL). */
import { type Chain, defineChain } from 'viem'
import { DEVNET_CHAIN_ID } from './types.js'

/**
 * @example createPublicClient({ chain: devnetViemChain(url), transport: http(url) })
 */
export function devnetViemChain(rpcUrl: string): Chain {
  return defineChain({
    id: DEVNET_CHAIN_ID,
    name: 'tnv devnet',
    nativeCurrency: { name: 'Telcoin', symbol: 'TEL', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}
