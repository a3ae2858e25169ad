/**
 * Is an address a plain account or a contract, and if a contract, is it a Safe? One batched
 * round trip: the code at the address, and the Safe's `VERSION()`, `getThreshold()` and
 * `getOwners()` (answered by every Safe since 1.0; a contract that answers none of them is
 * "a contract, not recognised as a Safe"). A contract that answers them but has no owners (the Safe
 * singleton behind every proxy, or a proxy never set up) is no Safe either: nobody can confirm a
 * transaction through it. A validator address with code cannot sign with a private key: its
 * transactions are proposed to it as a batch (`--unsigned --format safe`).
 */
import type { Address } from 'viem'
import type { ChainClient } from '../chain/client.js'

const SAFE_ABI = [
  { type: 'function', name: 'VERSION', inputs: [], outputs: [{ type: 'string' }], stateMutability: 'view' },
  { type: 'function', name: 'getThreshold', inputs: [], outputs: [{ type: 'uint256' }], stateMutability: 'view' },
  { type: 'function', name: 'getOwners', inputs: [], outputs: [{ type: 'address[]' }], stateMutability: 'view' },
] as const

export type AccountKind =
  | { kind: 'account' }
  | { kind: 'contract'; safe: { version: string; threshold: number; owners: Address[] } | null }

export async function readAccountKind(client: ChainClient, address: Address): Promise<AccountKind> {
  const safeRead = <T>(p: Promise<T>) => p.catch(() => null)
  const [code, version, threshold, owners] = await Promise.all([
    client.getCode({ address }),
    safeRead(client.readContract({ address, abi: SAFE_ABI, functionName: 'VERSION' })),
    safeRead(client.readContract({ address, abi: SAFE_ABI, functionName: 'getThreshold' })),
    safeRead(client.readContract({ address, abi: SAFE_ABI, functionName: 'getOwners' })),
  ])
  if (!code || code === '0x') return { kind: 'account' }
  const safe =
    version !== null &&
    threshold !== null &&
    owners !== null &&
    owners.length > 0 &&
    threshold >= 1n &&
    threshold <= BigInt(owners.length)
      ? { version, threshold: Number(threshold), owners: [...owners] }
      : null
  return { kind: 'contract', safe }
}
