/**
 * The cross-layer guard of `keytool generate --force` (spec: key-management rule 1): keys
 * whose BLS public key the registry already binds are never replaced. Used only when an
 * endpoint is configured (--chain or --rpc-url); the chain id is checked and the registry code
 * detected first.
 */
import type { Address } from 'viem'
import { createChainClient } from '../chain/client.js'
import { type ResolveChainTargetParameters, resolveChainTarget } from '../chain/resolve-target.js'
import { ExitCode, TnvError } from '../errors.js'
import { isBlsKeyRegistered } from './is-bls-key-registered.js'

export class RegisteredKeyReplaceError extends TnvError {
  override readonly code: string = 'RegisteredKeyReplace'
  constructor(network: string, blsPubkey: string) {
    super(
      `The keys in this data directory belong to a validator that has staked: the registry on ${network} has their BLS key ${blsPubkey.slice(0, 20)}… registered, and it binds that key for good. Nothing was changed.`,
      {
        fix: 'Keep these keys. To move to new keys, exit and unstake from the validator address, then onboard a new validator address with new keys in a new data directory.',
        exitCode: ExitCode.BadKeys,
      },
    )
  }
}

/**
 * Returns the `assertKeyReplaceable` hook for generateNodeKeys: it throws RegisteredKeyReplaceError
 * when the old key is registered on the configured network.
 */
export async function keyReplaceGuard(
  params: ResolveChainTargetParameters & { validator?: Address | undefined },
): Promise<(publicKey: Uint8Array) => Promise<void>> {
  const target = await resolveChainTarget(params)
  const ctx = { target, client: createChainClient({ rpcUrl: target.rpcUrl }) }
  return async (publicKey) => {
    const blsPubkey = `0x${Buffer.from(publicKey).toString('hex')}` as const
    const { chain, registered } = await isBlsKeyRegistered(ctx, { blsPubkey, validator: params.validator })
    if (registered) throw new RegisteredKeyReplaceError(`${chain.name} (chain id ${chain.chainId})`, blsPubkey)
  }
}
