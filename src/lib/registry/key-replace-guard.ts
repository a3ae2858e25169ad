/**
 * The cross-layer guard of `keytool generate --force` (spec: key-management rule 1): keys
 * whose BLS public key the registry already binds are never replaced. The network is the
 * configured or default one (--chain, --rpc-url, TN_CHAIN…; devnet by default), contacted only
 * when there are keys to replace; the chain id is checked and the registry code detected first.
 * A network that cannot be asked stops the replacement (the operator may skip the check only by
 * saying so).
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
  params: ResolveChainTargetParameters & {
    validator?: Address | undefined
    /** Told which network said the key is not registered. */
    onChecked?: (network: string) => void
  },
): Promise<(publicKey: Uint8Array) => Promise<void>> {
  return async (publicKey) => {
    const blsPubkey = `0x${Buffer.from(publicKey).toString('hex')}` as const
    let network: string
    let registered: boolean
    try {
      const target = await resolveChainTarget(params)
      const ctx = { target, client: createChainClient({ rpcUrl: target.rpcUrl }) }
      const r = await isBlsKeyRegistered(ctx, { blsPubkey, validator: params.validator })
      network = `${r.chain.name} (chain id ${r.chain.chainId})`
      registered = r.registered
    } catch (err) {
      if (err instanceof TnvError) throw new KeyReplaceUncheckedError(err)
      throw err
    }
    if (registered) throw new RegisteredKeyReplaceError(network, blsPubkey)
    params.onChecked?.(network)
  }
}

/** The registry could not be asked whether the key being replaced is registered: nothing is replaced. */
export class KeyReplaceUncheckedError extends TnvError {
  override readonly code: string = 'KeyReplaceUnchecked'
  constructor(cause: TnvError) {
    super(
      `tnv could not check whether the registry binds the key that --force would replace (${cause.message.replace(/\.$/, '')}). Nothing was changed.`,
      {
        fix: `Name the network this validator is on (--chain testnet, or --rpc-url URL with --chain-id), or start the devnet; pass --skip-registry-check only if these keys were never staked on any network.${cause.fix ? ` (${cause.fix})` : ''}`,
        exitCode: cause.exitCode,
        cause,
      },
    )
  }
}
