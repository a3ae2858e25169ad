/**
 * The registry check of `keytool recover` and `keytool backup verify`: when a network is named
 * (--chain or --rpc-url), a function that reads the BLS key the registry holds for an address
 * (chain id checked, registry code detected); undefined otherwise.
 */
import type { ChainFlagValues } from '../lib/options.js'

export type RegisteredKeyReader = (
  address: `0x${string}`,
  key?: `0x${string}`,
) => Promise<{ chainId: number; registeredKey: string | null; keyRegistered: boolean | null }>

export function registeredKeyReader(flags: ChainFlagValues): RegisteredKeyReader | undefined {
  if (flags.chain === undefined && flags['rpc-url'] === undefined) return undefined
  return async (address, key) => {
    const [{ openRegistryContext }, { readRegisteredKey }] = await Promise.all([
      import('../lib/registry/command-support.js'),
      import('../lib/registry/read-registered-key.js'),
    ])
    const r = await readRegisteredKey(await openRegistryContext(flags), address, key)
    return { chainId: r.chain.chainId, registeredKey: r.registeredKey, keyRegistered: r.keyRegistered }
  }
}
