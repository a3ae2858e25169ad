/**
 * Which network a command talks to: a preset (`testnet` = `adiri` = `test-net`, `mainnet` =
 * `main-net`, `devnet` from the running devnet's runtime file) or a custom endpoint. Pure resolution: nothing is contacted here;
 * the chain id is checked against `expectedChainId` by the first read batch (./check-chain-id.ts).
 * Order for every setting: flag, then environment (oclif fills flags from TN_* variables), then default.
 */
import type { Address } from 'viem'
import { BadInputError, UsageError } from '../errors.js'
import type { RegistryGeneration } from '../registry/generations/detect.js'
import { parseAddressFlag } from './address.js'
import { type DevnetRuntimeInfo, findRunningDevnet, runtimeFilePath } from './devnet-runtime-file.js'
import { DevnetNotRunningError } from './errors.js'
import {
  type ChainName,
  DEVNET,
  ISSUANCE_ADDRESS,
  MAINNET,
  type NetworkName,
  networkOf,
  REGISTRY_ADDRESS,
  TESTNET,
} from './presets.js'

export type ChainTarget = {
  /** `custom` for an endpoint given only by --rpc-url (its name is settled once its chain id is known). */
  name: NetworkName | 'custom'
  rpcUrl: string
  /** The chain id the endpoint must report; null for a custom endpoint without --chain-id. */
  expectedChainId: number | null
  registry: Address
  issuance: Address
  explorer: string | null
  /** The running devnet's runtime info (public dev keys, governance) when name is `devnet`. */
  devnet: DevnetRuntimeInfo | null
  /** The registry generation(s) the preset expects (empty for a custom endpoint); detection decides. */
  generations: readonly RegistryGeneration[]
}

export type ResolveChainTargetParameters = {
  /** --chain / TN_CHAIN. */
  chain?: ChainName | undefined
  /** --rpc-url / TN_RPC_URL. */
  rpcUrl?: string | undefined
  /** --registry / TN_REGISTRY. */
  registry?: string | undefined
  /** --chain-id / TN_CHAIN_ID. */
  chainId?: number | undefined
  /** Devnet directory holding devnet.json (the chain flags' hidden --devnet-dir: $TNV_DEVNET_DIR or ~/.local/share/tnv/devnet). */
  devnetDir: string
}

/**
 * @example const target = await resolveChainTarget({ chain: 'testnet', devnetDir }) // rpc.adiri.tel, 2017
 */
export async function resolveChainTarget({
  chain,
  rpcUrl,
  registry,
  chainId,
  devnetDir,
}: ResolveChainTargetParameters): Promise<ChainTarget> {
  const registryAddress = registry === undefined ? undefined : parseAddressFlag(registry, '--registry')
  if (rpcUrl !== undefined) checkUrl(rpcUrl)
  // An endpoint without a chain name is a custom endpoint; nothing at all means the local devnet.
  const name = chain !== undefined ? networkOf(chain) : rpcUrl === undefined ? 'devnet' : undefined

  if (name === 'testnet' || name === 'mainnet') {
    const preset = name === 'testnet' ? TESTNET : MAINNET
    if (chainId !== undefined && chainId !== preset.chainId)
      throw new UsageError(`--chain ${chain} is chain id ${preset.chainId}, but --chain-id says ${chainId}.`, {
        fix: 'Drop --chain-id, or drop --chain and pass --rpc-url with --chain-id for another network.',
      })
    const url = rpcUrl ?? preset.rpcUrl
    if (url === null)
      throw new UsageError(`tnv knows no public ${name} endpoint (chain id ${preset.chainId}).`, {
        fix: `Pass --rpc-url with the HTTP endpoint of a ${name} node (your own node is best); tnv checks that it serves chain id ${preset.chainId}.`,
      })
    return {
      name,
      rpcUrl: url,
      expectedChainId: preset.chainId,
      registry: registryAddress ?? preset.registry,
      issuance: preset.issuance,
      explorer: preset.explorer,
      devnet: null,
      generations: preset.generations,
    }
  }

  if (name === 'devnet') {
    const runtime = await readDevnetRuntime(devnetDir)
    const url = rpcUrl ?? runtime.rpcUrl
    if (url === null)
      throw new DevnetNotRunningError(
        `The devnet in ${devnetDir} runs without an HTTP endpoint (its node was started with HTTP off).`,
      )
    if (chainId !== undefined && chainId !== runtime.chainId)
      throw new UsageError(`The devnet is chain id ${runtime.chainId}, but --chain-id says ${chainId}.`, {
        fix: 'Drop --chain-id.',
      })
    return {
      name: 'devnet',
      rpcUrl: url,
      expectedChainId: runtime.chainId,
      registry: registryAddress ?? runtime.registry,
      issuance: runtime.issuance,
      explorer: null,
      devnet: runtime,
      generations: DEVNET.generations,
    }
  }

  return {
    name: 'custom',
    rpcUrl: rpcUrl as string,
    expectedChainId: chainId ?? null,
    registry: registryAddress ?? REGISTRY_ADDRESS,
    issuance: ISSUANCE_ADDRESS,
    explorer: null,
    devnet: null,
    generations: [],
  }
}

/** The running devnet's runtime file, through the library's one reader (with its pid-reuse check). */
async function readDevnetRuntime(devnetDir: string): Promise<DevnetRuntimeInfo> {
  const path = runtimeFilePath(devnetDir)
  const running = await findRunningDevnet(devnetDir)
  if (running.info) return running.info
  switch (running.reason) {
    case 'absent':
      throw new DevnetNotRunningError(`No devnet is running: ${path} does not exist.`)
    case 'unreadable':
      throw new DevnetNotRunningError(`The devnet runtime file ${path} is not valid JSON or lacks pid or chainId.`)
    case 'stale':
      throw new DevnetNotRunningError(
        `No devnet is running: the runtime file ${path} named a process that no longer runs the devnet node (removed).`,
      )
  }
}

function checkUrl(url: string): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new BadInputError(`--rpc-url ${url} is not a URL.`, {
      fix: 'Pass an http(s) URL such as http://127.0.0.1:8545.',
    })
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new BadInputError(`--rpc-url ${url} uses ${parsed.protocol}; tnv talks to the node over HTTP(S).`, {
      fix: "Pass the node's HTTP endpoint, such as http://127.0.0.1:8545.",
    })
}
