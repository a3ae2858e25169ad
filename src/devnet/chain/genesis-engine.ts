/**
 * The execution engine of a rehearsal: anvil running the real registry code, started
 * - from a node genesis (anvil `--init` with every account, code and storage of the file), or
 * - as a fork of a live chain (anvil `--fork-url`, pinned at a block, through a loopback relay
 *   that only reads upstream, ./fork.ts),
 * with the project's EVM BLS verifier installed at the node's precompile address when the
 * registry generation calls it (registry-next.md §3), governance by impersonating the
 * registry's `owner()` (rehearsal only), and epoch boundaries made with the node's system
 * calls (./system-calls.ts).
 *
 * Reach: the engine is driven over anvil's IPC socket in a directory private to it (mode 0700),
 * in a network namespace of its own where the platform allows (./engine-isolation.ts), so only
 * this process (and reference nodes of the same user that join the devnet) can reach it.
 * `exposure: 'loopback'` (the default of `startGenesisEngine`, for tests and benchmarks that
 * talk to anvil directly) also serves it on a loopback port, reachable by every local user.
 *
 * Persistence: anvil refuses `--init` together with `--state`, so a chain made from a genesis
 * is saved once with `anvil_dumpState` right after it is made and anvil is restarted on that
 * state file with `--state` (saved on SIGTERM and every `stateIntervalSeconds`); a resume starts
 * from the state file directly. A fork runs with `--state` from the start.
 */
import { promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import {
  type Address,
  createPublicClient,
  type Hex,
  numberToHex,
  type PublicClient,
  type TransactionReceipt,
  toHex,
} from 'viem'
import { BLS_PRECOMPILE_ADDRESS, REGISTRY_ADDRESS } from '../../lib/chain/addresses.js'
import { ExitCode, TnvError } from '../../lib/errors.js'
import { writeFileAtomic } from '../../lib/fs/atomic.js'
import {
  detectRegistryGeneration,
  type RegistryCodeReport,
  type RegistryGeneration,
  registryAbis,
} from '../../lib/registry/generations/detect.js'
import { loadContractArtifact } from './artifacts.js'
import {
  EngineStateFormatError,
  type TrimEngineStateParameters,
  type TrimEngineStateReturnType,
  trimEngineState,
} from './engine-compaction.js'
import {
  type EngineIsolation,
  type EngineIsolationPolicy,
  type EngineLauncher,
  engineLauncher,
} from './engine-isolation.js'
import { EngineRpc, engineCallOnce, engineTransport } from './engine-rpc.js'
import { DevnetTransactionError } from './errors.js'
import { type ForkProxy, ForkRegistryError, redactUrl, startForkProxy } from './fork.js'
import { freeLoopbackPort } from './free-port.js'
import { anvilInitGenesis, type LoadedGenesis, loadGenesis, type ShippedGenesisName } from './genesis.js'
import { engineReceipt } from './receipt.js'
import { describeRevert } from './revert.js'
import { type AnvilExit, AnvilPortInUseError, type AnvilProcess, spawnAnvil } from './spawn-anvil.js'
import { type CloseEpochParameters, type CloseEpochReturnType, closeEpoch } from './system-calls.js'

export type EngineSource =
  | { kind: 'genesis'; genesis: ShippedGenesisName | string | LoadedGenesis }
  /** A chain made earlier (from a genesis), resumed from its state file. */
  | { kind: 'resume'; generation: RegistryGeneration; hardfork?: string | undefined }
  | {
      kind: 'fork'
      /** The upstream JSON-RPC endpoint (kept in memory only; it may carry an API key). */
      url: string
      /** The block to fork at (pinned). */
      blockNumber: bigint
      /** Expected registry generation (from the probe); the engine checks the forked code again. */
      generation?: RegistryGeneration | undefined
    }

export type StartEngineParameters = {
  source: EngineSource
  /** Directory for the engine's files (the anvil init file, the fork cache). */
  dir: string
  /** The rehearsal's chain id. */
  chainId: number
  /**
   * `private` (default): the engine is reached over its IPC socket only, isolated where the
   * platform allows (./engine-isolation.ts). `loopback`: it also serves on a loopback port
   * (`httpUrl`), for tests and benchmarks that call anvil directly.
   */
  exposure?: 'private' | 'loopback' | undefined
  /** The isolation policy of a private engine; default from TNV_DEVNET_ENGINE_ISOLATION (auto). */
  isolationPolicy?: EngineIsolationPolicy | undefined
  /** Loopback port when the engine listens on one; default a free one. */
  port?: number | undefined
  /** Extra balances (dev accounts), wei. Applied on a fresh start only. */
  balances?: ReadonlyArray<{ address: Address; wei: bigint }>
  /** anvil's state file: the chain is kept there (and a `resume` source, or a fork, starts from it). */
  statePath?: string | undefined
  /** Genesis block timestamp of a fresh genesis chain (default: now). */
  genesisTimestamp?: number | undefined
  stateIntervalSeconds?: number
}

export type RehearsalEngine = {
  source: EngineSource['kind']
  /** The loaded genesis (genesis source only). */
  genesis: LoadedGenesis | null
  generation: RegistryGeneration
  /** The registry code found on the running chain. */
  registry: RegistryCodeReport
  chainId: number
  /** The engine's IPC socket (in its private directory): how the devnet reaches it. */
  ipcPath: string
  /** `netns`: nothing else on the machine reaches the engine; `none`: it also listens on a loopback port. */
  isolation: EngineIsolation
  /** Why a private engine is not isolated (its loopback port is open to every local user), or null. */
  isolationNotice: string | null
  /** anvil's loopback endpoint: `loopback` exposure (tests), or a private engine that could not be isolated; else null. */
  httpUrl: string | null
  wsUrl: string | null
  /** anvil's process id now (a compaction starts a new one). */
  readonly pid: number
  /** viem client over the IPC socket. */
  client: PublicClient
  /** Raw JSON-RPC over the IPC socket (anvil_* methods). */
  rpc: EngineRpc
  /** The anvil process running now (a compaction starts a new one). */
  readonly anvil: AnvilProcess
  /**
   * Settles when anvil exits on its own (crash, kill) or cannot be started again after a
   * compaction; never for the planned stop of a compaction, nor after `stop()`.
   */
  exited: Promise<AnvilExit>
  /** The BLS verifier's address when installed (next generation), else null. */
  blsVerifier: Address | null
  /** The registry's owner (governance) at start. */
  owner: Address
  /** Fork mode: the relay's request counts (upstream traffic). */
  forkStats: ForkProxy['stats'] | null
  /**
   * Sends a transaction as the registry's current owner by impersonation (rehearsal only). It is
   * simulated first: a call that would revert throws GovernanceCallRevertsError and sends nothing.
   */
  asOwner(call: { data: Hex; value?: bigint; to?: Address; what?: string }): Promise<TransactionReceipt>
  /** Concludes the current epoch with the node's system calls. */
  closeEpoch(params?: Omit<CloseEpochParameters, 'generation'>): Promise<CloseEpochReturnType>
  /** Writes the chain to `statePath` now (anvil also does on SIGTERM). */
  saveState(): Promise<void>
  /**
   * Restarts anvil on its own state with the block history trimmed (./engine-compaction.ts).
   * The caller makes sure nothing else uses the engine meanwhile. Needs `statePath`.
   * @throws EngineCompactionError when the engine runs on, uncompacted (the state was kept as it was)
   */
  compact(params: TrimEngineStateParameters): Promise<EngineCompactionResult>
  stop(): Promise<void>
}

export type EngineCompactionResult = Omit<TrimEngineStateReturnType, 'state'> & {
  /** The new anvil's process id. */
  pid: number
  /** How long the engine was stopped (ms). */
  pausedMs: number
}

/** A compaction that did not happen; the engine runs on its untrimmed state. */
export class EngineCompactionError extends Error {}

/** A governance call the simulation says reverts: nothing was sent. */
export class GovernanceCallRevertsError extends TnvError {
  override readonly code: string = 'GovernanceCallReverts'
  constructor(what: string, owner: Address, reason: string) {
    super(
      `Rehearsal governance: ${what} would revert with ${reason} (simulated as the owner ${owner}); nothing was sent.`,
      {
        fix: 'Check the registry state first (`tnv devnet status`, `tnv validator status`); the error name is the registry’s own.',
        exitCode: ExitCode.Reverted,
      },
    )
  }
}

type Request = (args: { method: string; params: unknown[] }) => Promise<unknown>

const STATE_INTERVAL_SECONDS = 30

/**
 * @example
 * const engine = await startEngine({ source: { kind: 'genesis', genesis: 'next' }, dir, chainId: 911329 })
 * await engine.asOwner({ data: encodeFunctionData({ abi, functionName: 'mint', args: [addr] }) })
 * await engine.closeEpoch()
 */
export async function startEngine(params: StartEngineParameters): Promise<RehearsalEngine> {
  const { source, dir, chainId, statePath } = params
  const stateIntervalSeconds = params.stateIntervalSeconds ?? STATE_INTERVAL_SECONDS
  await fs.mkdir(dir, { recursive: true, mode: 0o700 })
  const genesis =
    source.kind === 'genesis'
      ? typeof source.genesis === 'object'
        ? source.genesis
        : loadGenesis(source.genesis)
      : null
  const launcher: EngineLauncher =
    params.exposure === 'loopback' ? await engineLauncher('none') : await engineLauncher(params.isolationPolicy)
  // the engine's own directory: owner-only, short enough for a Unix socket path
  const engineDir = await fs.mkdtemp(join(socketBase(), 'tnv-engine-'))
  const base = { engineDir, launcher, chainId, blockTime: 0 }
  const spawnEngine = (
    extra: Omit<Parameters<typeof spawnAnvil>[0], keyof typeof base | 'port'>,
    port = params.port,
  ) =>
    launcher.isolation === 'netns'
      ? spawnAnvil({ ...base, ...extra })
      : withFreePort(port, (chosen) => spawnAnvil({ ...base, ...extra, port: chosen }))
  let proxy: ForkProxy | null = null
  let anvil: AnvilProcess | undefined
  /** How anvil runs on its state file (a compaction starts it again the same way). */
  let runArgs: Parameters<typeof spawnEngine>[0] | null = null
  try {
    if (source.kind === 'fork') {
      proxy = await startForkProxy(source.url, join(engineDir, 'fork.ipc'))
      runArgs = {
        fork: { url: proxy.url, blockNumber: source.blockNumber },
        home: dir,
        statePath,
        stateIntervalSeconds,
        readyTimeoutMs: 60_000,
      }
      anvil = await spawnEngine(runArgs)
    } else if (source.kind === 'resume') {
      if (!statePath) throw new TypeError('a resume needs the state file')
      runArgs = { statePath, stateIntervalSeconds, hardfork: source.hardfork }
      anvil = await spawnEngine(runArgs)
    } else {
      const loaded = genesis as LoadedGenesis
      const code =
        loaded.generation === 'next'
          ? [{ address: BLS_PRECOMPILE_ADDRESS, code: loadContractArtifact('BlsVerifier').deployedBytecode }]
          : []
      const init = anvilInitGenesis(loaded, { chainId, balances: params.balances ?? [], code })
      const initPath = join(dir, 'anvil-genesis.json')
      await writeFileAtomic(initPath, JSON.stringify(init))
      const genesisTimestamp = params.genesisTimestamp ?? Math.floor(Date.now() / 1000)
      const hardfork = loaded.hardfork
      anvil = await spawnEngine({ initPath, genesisTimestamp, hardfork })
      if (statePath) {
        // anvil cannot save a chain it made with --init: save it here, then run it from the file.
        await dumpStateTo(anvil.ipcPath, statePath)
        await anvil.stop()
        runArgs = { statePath, stateIntervalSeconds, hardfork }
        anvil = await spawnEngine(runArgs)
      }
    }
  } catch (err) {
    await anvil?.stop()
    await proxy?.close()
    await fs.rm(engineDir, { recursive: true, force: true })
    throw err
  }

  let running = anvil
  const rpc = new EngineRpc(running.ipcPath)
  const client = createPublicClient({ transport: engineTransport(rpc), pollingInterval: 50 })
  const request = client.request as unknown as Request
  let generation: RegistryGeneration
  let registry: RegistryCodeReport
  let owner: Address
  let blsVerifier: Address | null = null
  try {
    const reported = await client.getChainId()
    if (reported !== chainId)
      throw new TnvError(`The engine reports chain id ${reported} instead of the rehearsal's ${chainId}.`, {
        fix: 'Move the devnet directory aside and start again.',
        exitCode: ExitCode.WrongChain,
      })
    registry = detectRegistryGeneration(await client.getCode({ address: REGISTRY_ADDRESS }))
    const expected = genesis?.generation ?? (source.kind === 'genesis' ? undefined : source.generation)
    if (!registry.generation || (expected && registry.generation !== expected)) {
      const where = source.kind === 'fork' ? `the fork of ${redactUrl(source.url)}` : 'the chain'
      throw new ForkRegistryError(
        registry.codeHash === null
          ? `${where} has no ConsensusRegistry at ${REGISTRY_ADDRESS}.`
          : `The registry code on ${where} (${registry.codeSize} bytes, code hash ${registry.codeHash}) is ${registry.generation ? `the ${registry.generation} generation, not the expected ${expected}` : 'neither registry generation tnv knows'}.`,
        'tnv refuses registry code it does not recognise; rehearse with --genesis adiri|next, or fork a Telcoin Network chain.',
      )
    }
    generation = registry.generation
    if (generation === 'next') {
      // the node's native precompile is the EVM verifier here (a fork or an old state has 0xfe)
      const verifier = loadContractArtifact('BlsVerifier').deployedBytecode
      const installed = await client.getCode({ address: BLS_PRECOMPILE_ADDRESS })
      if (installed?.toLowerCase() !== verifier.toLowerCase())
        await request({ method: 'anvil_setCode', params: [BLS_PRECOMPILE_ADDRESS, verifier] })
      blsVerifier = BLS_PRECOMPILE_ADDRESS
    }
    if (source.kind !== 'genesis') await keepClockForward(client, request)
    owner = (await client.readContract({
      address: REGISTRY_ADDRESS,
      abi: registryAbis[generation],
      functionName: 'owner',
    })) as Address
  } catch (err) {
    rpc.close()
    await running.stop()
    await proxy?.close()
    await fs.rm(engineDir, { recursive: true, force: true })
    throw err
  }

  // anvil exiting is the engine dying, except the planned stop of a compaction
  let compacting = false
  let died: (info: AnvilExit) => void = () => {}
  const exited = new Promise<AnvilExit>((resolve) => {
    died = resolve
  })
  const watch = (child: AnvilProcess) =>
    void child.exited.then((info) => {
      if (child === running && !compacting) died(info)
    })
  watch(running)

  async function compact(trim: TrimEngineStateParameters): Promise<EngineCompactionResult> {
    if (!statePath || !runArgs) throw new EngineCompactionError('the engine has no state file to compact')
    const again = runArgs
    // an engine that also listens on loopback keeps its port
    const port = running.httpUrl ? Number(new URL(running.httpUrl).port) : undefined
    const started = Date.now()
    // anvil mines a transaction just after it answers for it: one accepted but not mined yet
    // would not be in the saved state (anvil's pool is not saved), so it is mined first
    const pool = (await request({ method: 'txpool_status', params: [] })) as { pending?: string } | null
    if (BigInt(pool?.pending ?? '0x0') > 0n) await request({ method: 'evm_mine', params: [] })
    compacting = true
    try {
      // on SIGTERM anvil writes its whole state to the file and exits: nothing can reach it after
      const stoppedWith = await running.stop()
      rpc.disconnect()
      const original = await fs.readFile(statePath)
      let trimmed: Omit<TrimEngineStateReturnType, 'state'> | null = null
      let refused: string | null = stoppedWith.code === 0 ? null : `anvil exited with ${describeExit(stoppedWith)}`
      if (!refused) {
        try {
          const { state, ...counts } = trimEngineState(JSON.parse(original.toString('utf8')), trim)
          // written atomically: on any failure the file is the state as anvil saved it
          await writeFileAtomic(statePath, JSON.stringify(state), { mode: 0o600 })
          trimmed = counts
        } catch (err) {
          refused =
            err instanceof EngineStateFormatError || err instanceof SyntaxError
              ? `anvil's state file is not in the format compaction knows (${err.message})`
              : `the trimmed state could not be written (${(err as Error).message})`
        }
      }
      try {
        running = await spawnEngine(again, port)
      } catch (err) {
        if (!trimmed) throw err
        // the trimmed state did not load: run on the state as it was
        await writeFileAtomic(statePath, original, { mode: 0o600 })
        running = await spawnEngine(again, port)
        refused = `anvil did not start on the trimmed state (${(err as Error).message.split('\n')[0]})`
      }
      watch(running)
      await keepClockForward(client, request)
      if (refused || !trimmed) throw new EngineCompactionError(`The engine was not compacted: ${refused}.`)
      return { ...trimmed, pid: running.pid, pausedMs: Date.now() - started }
    } catch (err) {
      if (err instanceof EngineCompactionError) throw err
      // no engine runs now: the devnet cannot go on
      died({ code: null, signal: null, stderrTail: `compaction failed: ${(err as Error).message}` })
      throw err
    } finally {
      compacting = false
    }
  }

  const abi = registryAbis[generation]
  return {
    source: source.kind,
    genesis,
    generation,
    registry,
    chainId,
    ipcPath: running.ipcPath,
    isolation: running.isolation,
    isolationNotice: running.isolationNotice,
    get httpUrl() {
      return running.httpUrl
    },
    get wsUrl() {
      return running.wsUrl
    },
    get pid() {
      return running.pid
    },
    client,
    rpc,
    get anvil() {
      return running
    },
    exited,
    compact,
    blsVerifier,
    owner,
    forkStats: proxy ? proxy.stats : null,
    async asOwner({ data, value = 0n, to = REGISTRY_ADDRESS, what = 'the governance call' }) {
      const current = (await client.readContract({ address: REGISTRY_ADDRESS, abi, functionName: 'owner' })) as Address
      const balance = await client.getBalance({ address: current })
      const need = value + 10n ** 20n
      // rehearsal TEL for the owner's gas and value: created here, never on a real chain
      if (balance < need) await request({ method: 'anvil_setBalance', params: [current, numberToHex(need)] })
      try {
        await client.call({ account: current, to, data, value })
      } catch (err) {
        throw new GovernanceCallRevertsError(what, current, describeRevert(generation, err))
      }
      await request({ method: 'anvil_impersonateAccount', params: [current] })
      try {
        const hash = (await request({
          method: 'eth_sendTransaction',
          params: [{ from: current, to, data, value: toHex(value) }],
        })) as Hex
        const receipt = await engineReceipt(client, hash)
        if (receipt.status !== 'success')
          throw new DevnetTransactionError(`${what} as ${current}`, { details: [`reverted: ${hash}`] })
        return receipt
      } finally {
        await request({ method: 'anvil_stopImpersonatingAccount', params: [current] })
      }
    },
    closeEpoch: (p = {}) => closeEpoch(client, { ...p, generation }),
    saveState: async () => {
      if (statePath) await dumpStateTo(running.ipcPath, statePath)
    },
    stop: async () => {
      rpc.close()
      await running.stop()
      await proxy?.close()
      await fs.rm(engineDir, { recursive: true, force: true })
    },
  }
}

function describeExit(e: AnvilExit): string {
  return e.signal ? `signal ${e.signal}` : `code ${e.code}`
}

/** An engine that also serves on a loopback port (`exposure: 'loopback'`). */
export type GenesisEngine = RehearsalEngine & { httpUrl: string; wsUrl: string }

/**
 * The rehearsal engine on a shipped genesis or a genesis file, for tests and benchmarks that
 * call anvil directly: it also serves on a loopback port (`httpUrl`), which every local user can
 * reach. The devnet never starts its engine this way (./start.ts: private).
 * @example const engine = await startGenesisEngine({ genesis: 'next', dir, chainId: 911329 })
 */
export async function startGenesisEngine(params: {
  genesis: ShippedGenesisName | string | LoadedGenesis
  dir: string
  chainId?: number | undefined
  port?: number | undefined
  balances?: ReadonlyArray<{ address: Address; wei: bigint }>
  /** Ignored: idle blocks are the epoch clock's (./epoch-clock.ts); the engine mines on demand. */
  blockTime?: number | undefined
  statePath?: string | undefined
}): Promise<GenesisEngine> {
  const genesis = typeof params.genesis === 'object' ? params.genesis : loadGenesis(params.genesis)
  const engine = await startEngine({
    source: { kind: 'genesis', genesis },
    dir: params.dir,
    chainId: params.chainId ?? genesis.chainId,
    exposure: 'loopback',
    port: params.port,
    balances: params.balances,
    statePath: params.statePath,
  })
  return engine as GenesisEngine
}

/** Writes anvil's state (anvil_dumpState: gzip of the JSON `--state` reads) atomically. */
async function dumpStateTo(ipcPath: string, path: string): Promise<void> {
  let result: unknown
  try {
    result = await engineCallOnce(ipcPath, 'anvil_dumpState')
  } catch (err) {
    throw new DevnetTransactionError('save the chain state', { details: [(err as Error).message] })
  }
  if (typeof result !== 'string') throw new DevnetTransactionError('save the chain state', { details: ['no result'] })
  const raw = Buffer.from(result.slice(2), 'hex')
  const json = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw
  await writeFileAtomic(path, json, { mode: 0o600 })
}

/** Where engine directories are made: the temp directory, unless its path is too long for a Unix socket. */
function socketBase(): string {
  const dir = tmpdir()
  // <dir>/tnv-engine-XXXXXX/anvil.ipc must fit sun_path (108 bytes on Linux, 104 on macOS)
  return Buffer.byteLength(dir) <= 70 ? dir : '/tmp'
}

/**
 * anvil keeps no clock across restarts: after a warp (advance-epoch), a resumed chain would mine
 * blocks older than its latest. Set its clock to the latest block's time when that is ahead.
 */
async function keepClockForward(client: PublicClient, request: Request): Promise<void> {
  const latest = await client.getBlock({ blockTag: 'latest' })
  const now = BigInt(Math.floor(Date.now() / 1000))
  if (latest.timestamp > now) await request({ method: 'evm_setTime', params: [toHex(latest.timestamp)] })
}

async function withFreePort(port: number | undefined, spawn: (port: number) => Promise<AnvilProcess>) {
  const fixed = port !== undefined && port !== 0
  for (let attempt = 1; ; attempt++) {
    const chosen = fixed ? port : await freeLoopbackPort()
    try {
      return await spawn(chosen)
    } catch (err) {
      // a free port can be taken between choosing it and anvil binding it: pick another
      if (fixed || !(err instanceof AnvilPortInUseError) || attempt >= 3) throw err
    }
  }
}
