/**
 * The execution engine of a rehearsal started from a node genesis: anvil `--init` with the
 * genesis state (real registry code and storage), the project's EVM BLS verifier installed at
 * the node's precompile address when the registry generation calls it (registry-next.md §3),
 * governance by impersonating the registry's `owner()` (rehearsal only), and epoch boundaries
 * made with the node's system calls (./system-calls.ts).
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  type TransactionReceipt,
  toHex,
} from 'viem'
import { BLS_PRECOMPILE_ADDRESS, REGISTRY_ADDRESS } from '../../lib/chain/addresses.js'
import { writeFileAtomic } from '../../lib/fs/atomic.js'
import { type RegistryGeneration, registryAbis } from '../../lib/registry/generations/detect.js'
import { loadContractArtifact } from './artifacts.js'
import { DevnetTransactionError } from './errors.js'
import { freeLoopbackPort } from './free-port.js'
import { anvilInitGenesis, type LoadedGenesis, loadGenesis, type ShippedGenesisName } from './genesis.js'
import { type AnvilProcess, spawnAnvil } from './spawn-anvil.js'
import { type CloseEpochParameters, type CloseEpochReturnType, closeEpoch } from './system-calls.js'

export type StartGenesisEngineParameters = {
  /** A shipped genesis name, a path, or an already loaded genesis. */
  genesis: ShippedGenesisName | string | LoadedGenesis
  /** Directory for the engine's files (the anvil init file). */
  dir: string
  /** The rehearsal's chain id (default: the genesis file's). */
  chainId?: number | undefined
  /** Loopback port; default a free one. */
  port?: number | undefined
  /** Extra balances (dev accounts), wei. */
  balances?: ReadonlyArray<{ address: Address; wei: bigint }>
  /** Seconds between idle blocks; 0 = automine only. */
  blockTime?: number | undefined
  /** anvil `--state` file (kept and resumed by the caller). */
  statePath?: string | undefined
}

export type GenesisEngine = {
  genesis: LoadedGenesis
  generation: RegistryGeneration
  chainId: number
  httpUrl: string
  client: PublicClient
  anvil: AnvilProcess
  /** The registry's owner (governance) at start. */
  owner: Address
  /** Sends a transaction as the registry owner by impersonation (rehearsal only). */
  asOwner(call: { data: Hex; value?: bigint; to?: Address }): Promise<TransactionReceipt>
  /** Concludes the current epoch with the node's system calls. */
  closeEpoch(params?: Omit<CloseEpochParameters, 'generation'>): Promise<CloseEpochReturnType>
  stop(): Promise<void>
}

type Request = (args: { method: string; params: unknown[] }) => Promise<unknown>

/**
 * @example
 * const engine = await startGenesisEngine({ genesis: 'next', dir, chainId: 911329 })
 * await engine.asOwner({ data: encodeFunctionData({ abi, functionName: 'mint', args: [addr] }) })
 * await engine.closeEpoch()
 */
export async function startGenesisEngine(params: StartGenesisEngineParameters): Promise<GenesisEngine> {
  const genesis = typeof params.genesis === 'object' ? params.genesis : loadGenesis(params.genesis)
  const chainId = params.chainId ?? genesis.chainId
  const code =
    genesis.generation === 'next'
      ? [{ address: BLS_PRECOMPILE_ADDRESS, code: loadContractArtifact('BlsVerifier').deployedBytecode }]
      : []
  const init = anvilInitGenesis(genesis, { chainId, balances: params.balances ?? [], code })
  await fs.mkdir(params.dir, { recursive: true, mode: 0o700 })
  const initPath = join(params.dir, 'anvil-genesis.json')
  await writeFileAtomic(initPath, JSON.stringify(init))

  const anvil = await spawnAnvil({
    port: params.port ?? (await freeLoopbackPort()),
    chainId,
    initPath,
    statePath: params.statePath,
    blockTime: params.blockTime ?? 0,
  })
  const client = createPublicClient({
    transport: http(anvil.httpUrl, { batch: true, retryCount: 0 }),
    pollingInterval: 50,
  })
  const request = client.request as unknown as Request
  const abi = registryAbis[genesis.generation]
  let owner: Address
  try {
    owner = (await client.readContract({ address: REGISTRY_ADDRESS, abi, functionName: 'owner' })) as Address
  } catch (err) {
    await anvil.stop()
    throw err
  }

  return {
    genesis,
    generation: genesis.generation,
    chainId,
    httpUrl: anvil.httpUrl,
    client,
    anvil,
    owner,
    async asOwner({ data, value = 0n, to = REGISTRY_ADDRESS }) {
      const current = (await client.readContract({ address: REGISTRY_ADDRESS, abi, functionName: 'owner' })) as Address
      const balance = await client.getBalance({ address: current })
      const need = value + 10n ** 20n
      if (balance < need) await request({ method: 'anvil_setBalance', params: [current, numberToHex(need)] })
      await request({ method: 'anvil_impersonateAccount', params: [current] })
      try {
        const hash = (await request({
          method: 'eth_sendTransaction',
          params: [{ from: current, to, data, value: toHex(value) }],
        })) as Hex
        const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
        if (receipt.status !== 'success')
          throw new DevnetTransactionError(`governance call as ${current}`, { details: [`reverted: ${hash}`] })
        return receipt
      } finally {
        await request({ method: 'anvil_stopImpersonatingAccount', params: [current] })
      }
    },
    closeEpoch: (p = {}) => closeEpoch(client, { ...p, generation: genesis.generation }),
    stop: async () => {
      await anvil.stop()
    },
  }
}
