/**
 * The option values the library takes from the command layer (the oclif flag groups that
 * produce them live in src/cli/flags/), so the library never imports oclif.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { CHAIN_NAMES } from './chain/presets.js'

/** The reference node's default data directory (reference-facts: Data directory). */
export function defaultDatadir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'telcoin-network')
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'telcoin-network')
  const xdg = env.XDG_DATA_HOME
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.local', 'share'), 'telcoin-network')
}

export const PASSPHRASE_SOURCES = ['env', 'stdin', 'ask', 'no-passphrase'] as const
export type PassphraseSource = (typeof PASSPHRASE_SOURCES)[number]

/** The registry generations (src/lib/registry/generations/detect.ts); repeated here so this light file imports no ABI. */
export const REGISTRY_GENERATION_NAMES = ['adiri', 'next'] as const

export const KEYSTORE_PASSWORD_SOURCES = ['env', 'stdin', 'ask'] as const
export type KeystorePasswordSource = (typeof KEYSTORE_PASSWORD_SOURCES)[number]

export type ChainFlagValues = {
  chain?: (typeof CHAIN_NAMES)[number] | undefined
  'rpc-url'?: string | undefined
  registry?: string | undefined
  'chain-id'?: number | undefined
  'registry-generation'?: (typeof REGISTRY_GENERATION_NAMES)[number] | undefined
  'accept-registry-code'?: string | undefined
  /** Seconds each JSON-RPC attempt may take (default 15). */
  'rpc-timeout'?: number | undefined
  /** Where `--chain devnet` finds the running devnet (the command layer's default: $TNV_DEVNET_DIR, else ~/.local/share/tnv/devnet). */
  'devnet-dir': string
}

export type SignerFlagValues = {
  keystore?: string | undefined
  'keystore-password-source'?: KeystorePasswordSource | undefined
  unsigned?: boolean | undefined
  from?: string | undefined
  /** With --unsigned: `safe` = a Safe Transaction Builder batch file (src/lib/safe). */
  format?: 'tx' | 'safe' | undefined
  /** With --format safe: the batch file to write. */
  out?: string | undefined
  /** A hardware wallet signs (through foundry's cast). */
  ledger?: boolean | undefined
  trezor?: boolean | undefined
  /** Its derivation path, or the account index on the default path. */
  'hd-path'?: string | undefined
  'hd-index'?: number | undefined
}

/** The --ledger / --trezor options of the signer flags, or undefined when neither is given. */
export function hardwareOf(
  flags: SignerFlagValues,
): { device: 'ledger' | 'trezor'; hdPath?: string | undefined; index?: number | undefined } | undefined {
  const device = flags.ledger ? 'ledger' : flags.trezor ? 'trezor' : undefined
  if (!device) return undefined
  return { device, hdPath: flags['hd-path'], index: flags['hd-index'] }
}

/** The signer flags as `resolveSigner` takes them (one mapping for the commands and the wizard). */
export function signerOptionsOf(flags: SignerFlagValues) {
  return {
    keystore: flags.keystore,
    keystorePasswordSource: flags['keystore-password-source'],
    unsigned: flags.unsigned,
    from: flags.from,
    hardware: hardwareOf(flags),
  }
}

/** `--external-worker-addrs a,b`: the addresses in worker order, blanks dropped. */
export function workerAddrsOf(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((a) => a.trim())
    .filter((a) => a.length > 0)
}

export type KeyMaterialFlagValues = {
  datadir: string
  'node-info'?: string | undefined
  'bls-pubkey'?: string | undefined
  pop?: string | undefined
  'adiri-pop'?: string | undefined
}
