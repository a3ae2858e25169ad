/**
 * Whether a BLS public key is registered in the registry (`isValidator(bytes)`). A registered
 * key is bound for good, even after unstaking, so `keytool generate --force` refuses to
 * replace keys for which this is true (spec: key-management rule 1).
 */
import type { Address, Hex } from 'viem'
import type { ChainClient } from '../chain/client.js'
import { registryAbi } from './abi.js'

export type IsBlsKeyRegisteredParameters = {
  client: ChainClient
  registry: Address
  /** 96-byte compressed public key, as 0x hex or bytes. */
  blsPubkey: Hex | Uint8Array
}

/**
 * @example if (await isBlsKeyRegistered({ client, registry, blsPubkey: info.blsPublicKey })) refuse()
 */
export async function isBlsKeyRegistered({
  client,
  registry,
  blsPubkey,
}: IsBlsKeyRegisteredParameters): Promise<boolean> {
  const key: Hex = typeof blsPubkey === 'string' ? blsPubkey : `0x${Buffer.from(blsPubkey).toString('hex')}`
  return client.readContract({ address: registry, abi: registryAbi, functionName: 'isValidator', args: [key] })
}
