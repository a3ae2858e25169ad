/**
 * The BLS public key the registry holds for a validator address (`getBlsPubkey`, both
 * generations), with the chain id checked and the registry code detected in the same batch.
 * null when the address has no validator record (the view reverts, or answers empty bytes).
 * Used by `keytool recover` and `keytool backup verify` to prove a key is the registered one.
 */
import type { Address, Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { readFirstBatch } from './first-batch.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { orNullOnRevert } from './reads.js'
import type { RegistryContext } from './types.js'

/** @example const { registeredKey } = await readRegisteredKey(ctx, '0x…') */
export async function readRegisteredKey(
  ctx: RegistryContext,
  validator: Address,
  /** Also ask whether this key is registered at all (`isValidator`), e.g. for another address. */
  key?: Hex,
): Promise<{ chain: ChainInfo; registeredKey: Hex | null; keyRegistered: boolean | null }> {
  const registry = { address: ctx.target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    values: [bound, active],
  } = await readFirstBatch(
    ctx,
    { purpose: 'read', action: 'a key check', needs: key ? ['getBlsPubkey', 'isValidator'] : ['getBlsPubkey'] },
    () =>
      Promise.all([
        orNullOnRevert(ctx.client.readContract({ ...registry, functionName: 'getBlsPubkey', args: [validator] })),
        key ? ctx.client.readContract({ ...registry, functionName: 'isValidator', args: [key] }) : null,
      ]),
  )
  const registeredKey = bound && bound !== '0x' && !/^0x0*$/.test(bound) ? (bound.toLowerCase() as Hex) : null
  return { chain, registeredKey, keyRegistered: active }
}
