/** A devnet as a viem chain definition (native token TEL). */
import { type Chain, defineChain } from 'viem'
import { DEVNET_CHAIN_ID } from './types.js'

/**
 * @example createPublicClient({ chain: devnetViemChain(url, chainId), transport: http(url) })
 */
export function devnetViemChain(rpcUrl: string, chainId: number = DEVNET_CHAIN_ID): Chain {
  return defineChain({
    id: chainId,
    name: 'tnv devnet',
    nativeCurrency: { name: 'Telcoin', symbol: 'TEL', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}
