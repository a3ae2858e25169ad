/**
 * node:crypto, loaded on its first use. Loading it costs about 7 ms in a fresh process (OpenSSL's
 * bindings and the stream modules its hashes and ciphers are built on), which a command that
 * never hashes, encrypts or draws a random number should not pay just because a module it
 * imports could: `keytool export-staking-args` on an unencrypted key never needs it
 * (docs/decisions.md, "Start-up, stop 29"). The modules on the commands' common paths take it
 * from here; the rest import it as usual.
 */
import { createRequire } from 'node:module'

let loaded: typeof import('node:crypto') | undefined

type WithBuiltins = { getBuiltinModule?: (id: string) => unknown }

export function nodeCrypto(): typeof import('node:crypto') {
  // process.getBuiltinModule (Node 20.16 and later) needs no module URL, which not every bundle
  // defines (the single executable's loader does not); before 20.16, a require made here
  loaded ??= ((process as WithBuiltins).getBuiltinModule?.('node:crypto') ??
    createRequire(import.meta.url)('node:crypto')) as typeof import('node:crypto')
  return loaded
}
