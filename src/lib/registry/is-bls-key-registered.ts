/**
 * Whether a BLS public key is registered in the registry (`isValidator(bytes)`, the same in
 * both generations). A registered key is bound for good, even after unstaking, so
 * `keytool generate --force` refuses to replace keys for which this is true (spec:
 * key-management rule 1). The registry code is detected and the chain id checked in the same
 * batch; `isValidator` is false for a retired validator's key, which stays bound, so
 * `getBlsPubkey` of node-info's execution address is checked too when it is known.
 */
import type { Address, Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { readFirstBatch } from './first-batch.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { orNullOnRevert } from './reads.js'
import type { RegistryContext } from './types.js'

export type IsBlsKeyRegisteredParameters = {
  /** 96-byte compressed public key, as 0x hex or bytes. */
  blsPubkey: Hex | Uint8Array
  /** The validator address the key was made for (node-info's execution_address), when known. */
  validator?: Address | undefined
}

/**
 * @example if ((await isBlsKeyRegistered(ctx, { blsPubkey: info.blsPublicKey })).registered) refuse()
 */
export async function isBlsKeyRegistered(
  ctx: RegistryContext,
  { blsPubkey, validator }: IsBlsKeyRegisteredParameters,
): Promise<{ chain: ChainInfo; registered: boolean }> {
  const { client, target } = ctx
  const key: Hex = typeof blsPubkey === 'string' ? blsPubkey : `0x${Buffer.from(blsPubkey).toString('hex')}`
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    values: [active, bound],
  } = await readFirstBatch(
    ctx,
    { purpose: 'read', action: 'a key check', needs: ['isValidator', 'getBlsPubkey'] },
    () =>
      Promise.all([
        client.readContract({ ...registry, functionName: 'isValidator', args: [key] }),
        validator
          ? orNullOnRevert(client.readContract({ ...registry, functionName: 'getBlsPubkey', args: [validator] }))
          : null,
      ]),
  )
  return { chain, registered: active || (bound !== null && bound.toLowerCase() === key.toLowerCase()) }
}
