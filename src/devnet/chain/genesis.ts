/**
 * Node genesis files (the YAML the node embeds for `--chain adiri|main-net` and the deployment
 * scripts copy into `<datadir>/genesis/genesis.yaml`) as the devnet's starting state.
 *
 * `loadGenesis` reads and checks one (a shipped name or a path); `anvilInitGenesis` turns it
 * into the geth-style JSON anvil's `--init` takes: every account with its code, storage, nonce
 * and balance, the chain id (overridable: a rehearsal should not share a real chain id), and
 * extra balances and code the rehearsal adds (dev accounts, the BLS verifier at 0x…b151 when
 * the registry calls the node's precompile).
 */
import { readFileSync, statSync } from 'node:fs'
import type { Address, Hex } from 'viem'
import { parse as parseYaml } from 'yaml'
import { REGISTRY_ADDRESS } from '../../lib/chain/addresses.js'
import { BadInputError } from '../../lib/errors.js'
import { findPackageFile } from '../../lib/package-file.js'
import {
  detectRegistryGeneration,
  type RegistryCodeReport,
  type RegistryGeneration,
} from '../../lib/registry/generations/detect.js'

/** The genesis files tnv ships (networks/README.md). */
export const SHIPPED_GENESIS = {
  adiri: 'networks/adiri/genesis.yaml',
  next: 'networks/next/genesis.yaml',
} as const
export type ShippedGenesisName = keyof typeof SHIPPED_GENESIS

/** Largest genesis file read (the shipped ones are ~150 KB; a node genesis with many accounts stays far below). */
const MAX_GENESIS_BYTES = 64 * 1024 * 1024

export type GenesisAccount = {
  balance?: Hex
  nonce?: Hex
  code?: Hex
  storage?: Record<Hex, Hex>
}

export type GenesisFile = {
  config: { chainId: number } & Record<string, unknown>
  alloc: Record<string, GenesisAccount>
} & Record<string, unknown>

export type LoadedGenesis = {
  /** The shipped name, or null for a file given by path. */
  name: ShippedGenesisName | null
  path: string
  chainId: number
  genesis: GenesisFile
  /** The registry's code, recognised or not. */
  registry: RegistryCodeReport
  /** The recognised registry generation. */
  generation: RegistryGeneration
  /** The EVM hardfork the file has active at genesis (anvil `--hardfork`). */
  hardfork: string
}

/** A file that is not a usable node genesis. */
export class InvalidGenesisError extends BadInputError {
  override readonly code: string = 'InvalidGenesis'
  constructor(path: string, problem: string, fix?: string) {
    super(`${path} is not a usable node genesis file: ${problem}.`, {
      fix:
        fix ??
        'Pass --genesis adiri or --genesis next (the genesis files tnv ships), or the path of a node genesis.yaml (the file the node reads from <datadir>/genesis/genesis.yaml).',
    })
  }
}

/** The path of a shipped genesis file. */
export function shippedGenesisPath(name: ShippedGenesisName): string {
  const path = findPackageFile(SHIPPED_GENESIS[name])
  if (!path) throw new InvalidGenesisError(SHIPPED_GENESIS[name], 'the file is missing from this installation')
  return path
}

const HEX = /^0x[0-9a-fA-F]*$/

/**
 * Reads and checks a genesis: a shipped name (`adiri`, `next`) or a path to a YAML/JSON file.
 * @example const g = loadGenesis('next'); g.generation // 'next'
 */
export function loadGenesis(source: ShippedGenesisName | string): LoadedGenesis {
  const name = source === 'adiri' || source === 'next' ? source : null
  const path = name ? shippedGenesisPath(name) : source
  let text: string
  try {
    const stat = statSync(path)
    if (!stat.isFile()) throw new InvalidGenesisError(path, 'it is not a regular file')
    if (stat.size > MAX_GENESIS_BYTES)
      throw new InvalidGenesisError(path, `it is ${stat.size} bytes, more than a genesis can be (${MAX_GENESIS_BYTES})`)
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if (err instanceof InvalidGenesisError) throw err
    const code = (err as NodeJS.ErrnoException).code
    throw new InvalidGenesisError(
      path,
      code === 'ENOENT' ? 'no such file' : `it cannot be read (${code ?? String(err)})`,
    )
  }
  const genesis = parseGenesisText(path, text)
  const registryKey = Object.keys(genesis.alloc).find((a) => a.toLowerCase() === REGISTRY_ADDRESS.toLowerCase())
  const code = registryKey ? genesis.alloc[registryKey]?.code : undefined
  const registry = detectRegistryGeneration(code)
  if (!registryKey || !code || code === '0x')
    throw new InvalidGenesisError(path, `it has no ConsensusRegistry code at ${REGISTRY_ADDRESS}`)
  if (!registry.generation)
    throw new InvalidGenesisError(
      path,
      `the code at ${REGISTRY_ADDRESS} (${registry.codeSize} bytes, code hash ${registry.codeHash}) is neither registry generation tnv knows (adiri lacks ${registry.missing.adiri.length} functions, next lacks ${registry.missing.next.length})`,
      'Use a genesis of the test network (adiri) or of the next generation; tnv refuses registry code it does not recognise.',
    )
  return {
    name,
    path,
    chainId: genesis.config.chainId,
    genesis,
    registry,
    generation: registry.generation,
    hardfork: hardforkOf(genesis.config),
  }
}

/** Fork activation fields of a geth-style config, newest first, with anvil's names. */
const HARDFORKS: readonly [string, string][] = [
  ['pragueTime', 'prague'],
  ['cancunTime', 'cancun'],
  ['shanghaiTime', 'shanghai'],
  ['mergeNetsplitBlock', 'paris'],
  ['londonBlock', 'london'],
  ['berlinBlock', 'berlin'],
  ['istanbulBlock', 'istanbul'],
]

/**
 * The newest hardfork the genesis activates at its start (block or time 0). anvil runs one
 * hardfork for the whole chain, so forks the file schedules later are not applied; a config
 * without fork fields gets Prague, the node's.
 */
export function hardforkOf(config: Record<string, unknown>): string {
  for (const [field, name] of HARDFORKS) if (String(config[field]) === '0') return name
  return 'prague'
}

function parseGenesisText(path: string, text: string): GenesisFile {
  let parsed: unknown
  try {
    // JSON is YAML. The failsafe schema reads every scalar as text, so unquoted hex stays hex
    // and no tag constructs anything; numbers are converted where the format has them.
    parsed = parseYaml(text, { schema: 'failsafe', uniqueKeys: true, maxAliasCount: 0 })
  } catch (err) {
    throw new InvalidGenesisError(path, `it is not valid YAML or JSON (${(err as Error).message.split('\n')[0]})`)
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new InvalidGenesisError(path, 'it is not a mapping with config and alloc')
  const g = parsed as Record<string, unknown>
  const config = g.config as Record<string, unknown> | undefined
  if (!config || typeof config !== 'object') throw new InvalidGenesisError(path, 'it has no `config` section')
  const chainId =
    typeof config.chainId === 'string' && /^[0-9]{1,15}$/.test(config.chainId) ? Number(config.chainId) : NaN
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new InvalidGenesisError(path, '`config.chainId` is missing or not a positive whole number')
  config.chainId = chainId
  const alloc = g.alloc
  if (!alloc || typeof alloc !== 'object' || Array.isArray(alloc))
    throw new InvalidGenesisError(path, 'it has no `alloc` section of accounts')
  for (const [address, account] of Object.entries(alloc as Record<string, unknown>)) {
    if (!/^(0x)?[0-9a-fA-F]{40}$/.test(address))
      throw new InvalidGenesisError(path, `alloc key ${JSON.stringify(address.slice(0, 60))} is not an address`)
    if (!account || typeof account !== 'object')
      throw new InvalidGenesisError(path, `alloc.${address} is not an account`)
    const a = account as Record<string, unknown>
    for (const field of ['balance', 'nonce', 'code'] as const)
      if (a[field] !== undefined && (typeof a[field] !== 'string' || !HEX.test(a[field] as string)))
        throw new InvalidGenesisError(path, `alloc.${address}.${field} is not 0x hex`)
    if (a.storage !== undefined) {
      if (!a.storage || typeof a.storage !== 'object')
        throw new InvalidGenesisError(path, `alloc.${address}.storage is not a mapping`)
      for (const [slot, value] of Object.entries(a.storage as Record<string, unknown>))
        if (!HEX.test(slot) || typeof value !== 'string' || !HEX.test(value))
          throw new InvalidGenesisError(path, `alloc.${address}.storage has a slot or value that is not 0x hex`)
    }
  }
  return g as GenesisFile
}

export type AnvilInitOptions = {
  /** The chain id the rehearsal runs under (default: the file's). */
  chainId?: number | undefined
  /** Balances to set (added accounts, or raised balances of existing ones), wei. */
  balances?: ReadonlyArray<{ address: Address; wei: bigint }>
  /** Code to install (e.g. the BLS verifier at 0x…b151). */
  code?: ReadonlyArray<{ address: Address; code: Hex }>
}

/**
 * The genesis object for anvil `--init` (geth format), with the rehearsal's changes applied.
 * The loaded genesis is not modified.
 */
export function anvilInitGenesis(loaded: LoadedGenesis, options: AnvilInitOptions = {}): GenesisFile {
  const alloc: Record<string, GenesisAccount> = {}
  for (const [address, account] of Object.entries(loaded.genesis.alloc)) alloc[address.toLowerCase()] = { ...account }
  for (const { address, wei } of options.balances ?? []) {
    const key = address.toLowerCase()
    alloc[key] = { ...alloc[key], balance: `0x${wei.toString(16)}` }
  }
  for (const { address, code } of options.code ?? []) {
    const key = address.toLowerCase()
    alloc[key] = { ...alloc[key], code }
  }
  return {
    ...loaded.genesis,
    config: { ...typedConfig(loaded.genesis.config), chainId: options.chainId ?? loaded.chainId },
    alloc,
  }
}

/** The config section with the JSON types geth-style readers expect (read as text by the failsafe schema). */
function typedConfig(config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value)) out[key] = Number(value)
    else if (value === 'true' || value === 'false') out[key] = value === 'true'
    else out[key] = value
  }
  return out
}
