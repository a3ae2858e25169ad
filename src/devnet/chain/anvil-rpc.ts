/**
 * anvil's own JSON-RPC methods (anvil_*), which are not in viem's typed RPC schema.
 */
import { type Address, type Hex, numberToHex, type PublicClient } from 'viem'

/** Sends an anvil_* method through a viem client. */
export function anvilRequest(client: PublicClient, method: `anvil_${string}`, params: unknown[]): Promise<unknown> {
  const request = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>
  return request({ method, params })
}

export function anvilSetCode(client: PublicClient, address: Address, code: Hex): Promise<unknown> {
  return anvilRequest(client, 'anvil_setCode', [address, code])
}

export function anvilSetStorageAt(client: PublicClient, address: Address, slot: Hex, value: Hex): Promise<unknown> {
  return anvilRequest(client, 'anvil_setStorageAt', [address, slot, value])
}

export function anvilSetBalance(client: PublicClient, address: Address, wei: bigint): Promise<unknown> {
  return anvilRequest(client, 'anvil_setBalance', [address, numberToHex(wei)])
}

/** Mines `blocks` empty blocks at once. */
export function anvilMine(client: PublicClient, blocks: number): Promise<unknown> {
  return anvilRequest(client, 'anvil_mine', [numberToHex(blocks)])
}
