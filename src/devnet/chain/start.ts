/**
 * startDevnetChain: a rehearsal chain running the real registry code, in this process.
 *
 * - embedded (default): the next generation's genesis (networks/next/genesis.yaml) with the
 *   devnet's funded dev accounts added and a short rehearsal epoch;
 * - genesis: any node genesis (`adiri`, `next`, or a file), dev accounts added;
 * - fork: a live chain at a pinned block (anvil fork mode), dev accounts funded locally.
 * Every rehearsal runs under tnv's rehearsal chain id (911329) unless told otherwise, so nothing
 * signed on it is valid on a real network. The EVM BLS verifier is installed at 0x…b151 for the
 * next generation, epochs end by time with the node's system calls (./epoch-clock.ts), and
 * governance is rehearsed by impersonating the registry's owner (./governance.ts).
 *
 * A data directory holding a devnet (anvil's state file plus chain.json) is resumed as it was;
 * a directory of the old devnet (tnv's own registry contract, retired) is refused. anvil saves
 * the chain when stopped (and every 30 s) and never outlives this process.
 */
import { createHash } from 'node:crypto'
import { promises as fs, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Address, numberToHex } from 'viem'
import { ensureDir, fileTimestamp, pathExists } from '../../lib/fs/atomic.js'
import { registryAbis } from '../../lib/registry/generations/detect.js'
import { devnetDevAccounts } from './accounts.js'
import { ANVIL_STATE_FILE, type ChainRecord, readChainRecord, writeChainRecord } from './chain-record.js'
import { acquireDatadirLock } from './datadir-lock.js'
import { DEFAULT_BLOCK_TIME, DEV_ACCOUNT_BALANCE, EMBEDDED_EPOCH_SECONDS, MAX_EPOCH_SECONDS } from './defaults.js'
import { DEFAULT_ENGINE_HISTORY_BLOCKS, MIN_ENGINE_HISTORY_BLOCKS } from './engine-compaction.js'
import { createEpochClock, type EpochClock } from './epoch-clock.js'
import {
  DevnetSourceMismatchError,
  DevnetStoppedError,
  ForkUrlRequiredError,
  InvalidDevnetParameterError,
} from './errors.js'
import { probeForkSource, redactUrl } from './fork.js'
import { loadGenesis } from './genesis.js'
import { EngineCompactionError, type EngineSource, type RehearsalEngine, startEngine } from './genesis-engine.js'
import { rehearsalGovernance } from './governance.js'
import type { AnvilExit } from './spawn-anvil.js'
import {
  DEVNET_CHAIN_ID,
  type DevnetChain,
  type DevnetSource,
  type DevnetSourceInfo,
  ISSUANCE_ADDRESS,
  REGISTRY_ADDRESS,
  type StartDevnetChainParameters,
} from './types.js'

export { REAL_NETWORK_CHAIN_IDS } from './defaults.js'

/**
 * Starts (or resumes) the devnet chain in `datadir`.
 * @example
 * const chain = await startDevnetChain({ datadir, blockTime: 0 })
 * await chain.governance({ action: 'mint', validator })
 * await chain.advanceEpoch()
 * await chain.stop()
 */
export async function startDevnetChain(params: StartDevnetChainParameters): Promise<DevnetChain> {
  checkParameters(params)
  // Everything that can be refused is checked before the directory is touched.
  const existing = await checkDevnetDirectory(params.datadir, params)
  if (existing?.source.kind === 'fork') await checkForkResume(params.datadir, existing, params)
  const fresh = existing ? null : await resolveFreshSource(params)
  await ensureDir(params.datadir, 0o700)
  const releaseLock = await acquireDatadirLock(params.datadir)
  try {
    return await startLocked(params, fresh, releaseLock)
  } catch (err) {
    await releaseLock()
    throw err
  }
}

/** A new devnet's source, loaded (genesis) or probed (fork), with its chain id and description. */
type FreshSource = { engine: EngineSource; info: DevnetSourceInfo; chainId: number; kind: DevnetSource['kind'] }

async function resolveFreshSource(params: StartDevnetChainParameters): Promise<FreshSource> {
  const asked = params.source ?? { kind: 'embedded' }
  let chainId = typeof params.chainId === 'number' ? params.chainId : DEVNET_CHAIN_ID
  if (asked.kind === 'fork') {
    const probe = await probeForkSource({ url: asked.url, blockNumber: asked.blockNumber })
    if (params.chainId === 'source') chainId = probe.upstreamChainId
    return {
      kind: 'fork',
      chainId,
      engine: {
        kind: 'fork',
        url: asked.url,
        blockNumber: probe.blockNumber,
        generation: probe.registry.generation ?? undefined,
      },
      info: {
        kind: 'fork',
        genesis: null,
        fork: {
          url: redactUrl(asked.url),
          blockNumber: probe.blockNumber.toString(),
          upstreamChainId: probe.upstreamChainId,
        },
      },
    }
  }
  const genesis = loadGenesis(asked.kind === 'embedded' ? 'next' : asked.genesis)
  if (params.chainId === 'source') chainId = genesis.chainId
  return {
    kind: asked.kind,
    chainId,
    engine: { kind: 'genesis', genesis },
    info: {
      kind: asked.kind,
      genesis: {
        name: genesis.name,
        path: genesis.path,
        chainId: genesis.chainId,
        sha256: createHash('sha256').update(readFileSync(genesis.path)).digest('hex'),
      },
      fork: null,
    },
  }
}

function sourceLabel(info: DevnetSourceInfo): string {
  if (info.kind === 'fork' && info.fork) return `a fork of ${info.fork.url} at block ${info.fork.blockNumber}`
  if (info.kind === 'embedded') return 'the embedded devnet'
  return `the genesis ${info.genesis?.name ?? info.genesis?.path}`
}

function askedLabel(source: DevnetSource): string {
  if (source.kind === 'embedded') return 'the embedded devnet'
  if (source.kind === 'fork') return `a fork of ${redactUrl(source.url)}`
  return `the genesis ${source.genesis}`
}

async function startLocked(
  params: StartDevnetChainParameters,
  fresh: FreshSource | null,
  releaseLock: () => Promise<void>,
): Promise<DevnetChain> {
  const { datadir, protocolLoop = true, blockTime = DEFAULT_BLOCK_TIME } = params
  const statePath = join(datadir, ANVIL_STATE_FILE)
  const record = await prepareDatadir(datadir, statePath)
  const accounts = devnetDevAccounts()
  const balances = accounts.map((a) => ({ address: a.address, wei: DEV_ACCOUNT_BALANCE }))

  let engine: RehearsalEngine
  let chainRecord: ChainRecord
  if (record) {
    checkResume(datadir, record, params)
    const source: EngineSource =
      record.source.kind === 'fork'
        ? {
            kind: 'fork',
            url: (params.source as Extract<DevnetSource, { kind: 'fork' }>).url,
            blockNumber: BigInt(record.source.fork?.blockNumber ?? '0'),
            generation: record.generation,
          }
        : { kind: 'resume', generation: record.generation, hardfork: record.hardfork }
    engine = await startEngine({ source, dir: datadir, chainId: record.chainId, port: params.port, statePath })
    const epochSeconds = params.epochSeconds === undefined ? record.epochSeconds : params.epochSeconds
    chainRecord = { ...record, epochSeconds }
    if (epochSeconds !== record.epochSeconds) await writeChainRecord(datadir, chainRecord)
  } else {
    const f = fresh ?? (await resolveFreshSource(params))
    engine = await startEngine({
      source: f.engine,
      dir: datadir,
      chainId: f.chainId,
      port: params.port,
      balances,
      statePath,
    })
    try {
      if (f.kind === 'fork') await fundOnFork(engine, balances)
      chainRecord = {
        format: 2,
        createdAt: new Date().toISOString(),
        chainId: f.chainId,
        source: f.info,
        generation: engine.generation,
        registryCodeHash: engine.registry.codeHash as `0x${string}`,
        hardfork:
          f.engine.kind === 'genesis' && typeof f.engine.genesis === 'object' ? f.engine.genesis.hardfork : 'prague',
        epochSeconds:
          params.epochSeconds === undefined
            ? f.kind === 'embedded'
              ? EMBEDDED_EPOCH_SECONDS
              : null
            : params.epochSeconds,
      }
      await engine.saveState()
      await writeChainRecord(datadir, chainRecord)
    } catch (err) {
      await engine.stop()
      throw err
    }
  }

  const clock = createEpochClock({
    client: engine.client,
    generation: engine.generation,
    closeEpoch: engine.closeEpoch,
    epochSeconds: chainRecord.epochSeconds,
    blockTime,
    autoConclude: protocolLoop,
    onError: params.onProtocolError,
    onEpoch: params.onEpoch,
  })
  clock.start()

  let stopped = false
  let stopping: Promise<void> | undefined
  let diedWith: AnvilExit | undefined
  const exitListeners: ((info: AnvilExit) => void)[] = []
  const compaction = startCompaction(engine, clock, params, () => stopped || stopping !== undefined)
  void engine.exited.then(async (info) => {
    if (stopping) return
    stopped = true
    await compaction.stop()
    await clock.stop()
    await engine.stop()
    await releaseLock()
    diedWith = info
    for (const listener of exitListeners) listener(info)
  })
  const live = <T>(operation: string, fn: () => Promise<T>): Promise<T> => {
    if (stopped || stopping) return Promise.reject(new DevnetStoppedError(operation))
    return fn()
  }
  const abi = registryAbis[engine.generation]

  return {
    chainId: chainRecord.chainId,
    source: chainRecord.source,
    generation: engine.generation,
    registryCode: {
      codeHash: engine.registry.codeHash as `0x${string}`,
      match: engine.registry.match === 'exact' ? 'exact' : 'interface',
      source: engine.registry.source,
    },
    engineIpcPath: engine.ipcPath,
    engineIsolation: engine.isolation,
    engineIsolationNotice: engine.isolationNotice,
    get enginePid() {
      return engine.pid
    },
    registry: REGISTRY_ADDRESS,
    issuance: ISSUANCE_ADDRESS,
    blsVerifier: engine.blsVerifier,
    accounts,
    epochSeconds: chainRecord.epochSeconds,
    blockTime,
    resumed: record !== null,
    // reads hold the clock's lock too, so they wait for a compaction instead of failing
    owner: () =>
      live('read the owner', () =>
        clock.exclusive(
          async () =>
            (await engine.client.readContract({ address: REGISTRY_ADDRESS, abi, functionName: 'owner' })) as Address,
        ),
      ),
    position: () => live('read the epoch', () => clock.exclusive(() => clock.position())),
    advanceEpoch: () => live('advance the epoch', () => clock.advanceEpoch()),
    mine: (blocks = 1) => {
      if (!Number.isInteger(blocks) || blocks < 0)
        return Promise.reject(
          new InvalidDevnetParameterError(`mine: blocks must be a whole number ≥ 0, got ${blocks}.`),
        )
      return live('mine blocks', () => clock.mine(blocks))
    },
    governance: (request) =>
      live(`rehearse governance (${request.action})`, () =>
        clock.exclusive(() => rehearsalGovernance(engine, request)),
      ),
    forkStats: () => engine.forkStats?.() ?? null,
    stop() {
      stopping ??= (async () => {
        await compaction.stop()
        await clock.stop()
        await engine.stop()
        stopped = true
        await releaseLock()
      })()
      return stopping
    },
    onEngineExit(listener) {
      if (diedWith) queueMicrotask(() => listener(diedWith as AnvilExit))
      else exitListeners.push(listener)
    },
  }
}

/** How often the devnet checks whether its engine is due for a compaction. */
const COMPACTION_CHECK_MS = 1000

/**
 * Compacts the engine when it holds more than twice `engineHistoryBlocks` recent blocks
 * (./engine-compaction.ts), inside the clock's lock: when the block 2 × `engineHistoryBlocks`
 * back from the latest is at or after the oldest recent block kept by this run's last
 * compaction. Before this run has compacted, that block is looked up in the engine: a devnet
 * resumed after a compaction holds it only once its chain has grown by `engineHistoryBlocks`
 * blocks since (no record of the last compaction is needed).
 * A compaction that could not happen (the engine runs on, uncompacted) turns compaction off for
 * this run and is reported through `onProtocolError`.
 */
function startCompaction(
  engine: RehearsalEngine,
  clock: EpochClock,
  params: StartDevnetChainParameters,
  ended: () => boolean,
): { stop(): Promise<void> } {
  const history = params.engineHistoryBlocks ?? DEFAULT_ENGINE_HISTORY_BLOCKS
  const abi = registryAbis[engine.generation]
  let timer: NodeJS.Timeout | undefined
  let checking: Promise<void> = Promise.resolve()
  let on = true
  /** The oldest of the recent blocks the engine holds, once this run has compacted it. */
  let floor: bigint | null = null

  async function compactIfDue(): Promise<void> {
    const latest = await engine.client.getBlockNumber({ cacheTime: 0 })
    const probe = latest - 2n * BigInt(history)
    // block 0 is always kept, so it says nothing
    if (probe < (floor ?? 1n)) return
    if (floor === null && (await engine.rpc.request('eth_getBlockByNumber', [numberToHex(probe), false])) === null)
      return
    // the epoch clock reads the block before the epoch's first block, `tnv node upgrade` the first
    const info = (await engine.client.readContract({
      address: REGISTRY_ADDRESS,
      abi,
      functionName: 'getCurrentEpochInfo',
    })) as { blockHeight: bigint }
    const keep = [info.blockHeight - 1n, info.blockHeight].filter((n) => n >= 0n)
    const resume = await params.pauseEngineUsers?.()
    try {
      const result = await engine.compact({ keepRecent: history, keep })
      floor = result.latest - BigInt(history) + 1n
      params.onEngineCompacted?.(result)
    } finally {
      await resume?.()
    }
  }

  const schedule = () => {
    timer = setTimeout(() => {
      checking = clock
        .exclusive(() => (ended() ? Promise.resolve() : compactIfDue()))
        .catch((err: unknown) => {
          if (ended()) return
          if (err instanceof EngineCompactionError) on = false
          params.onProtocolError?.(err instanceof Error ? err : new Error(String(err)))
        })
        .finally(() => {
          if (on && !ended()) schedule()
        })
    }, COMPACTION_CHECK_MS)
  }
  schedule()
  return {
    async stop() {
      on = false
      clearTimeout(timer)
      await checking
    },
  }
}

function checkParameters(p: StartDevnetChainParameters): void {
  if (
    p.epochSeconds !== undefined &&
    p.epochSeconds !== null &&
    (!Number.isInteger(p.epochSeconds) || p.epochSeconds < 1 || p.epochSeconds > MAX_EPOCH_SECONDS)
  )
    throw new InvalidDevnetParameterError(
      `The rehearsal epoch length must be a whole number of seconds from 1 to ${MAX_EPOCH_SECONDS}, got ${p.epochSeconds}.`,
      { fix: "Pass --epoch-seconds N, or leave it out for the registry's own epochDuration." },
    )
  if (p.blockTime !== undefined && (!Number.isInteger(p.blockTime) || p.blockTime < 0))
    throw new InvalidDevnetParameterError(`blockTime must be a whole number of seconds ≥ 0, got ${p.blockTime}.`, {
      fix: 'Pass 0 to mine only on transactions and on demand, or the seconds between idle blocks.',
    })
  if (
    p.engineHistoryBlocks !== undefined &&
    (!Number.isSafeInteger(p.engineHistoryBlocks) || p.engineHistoryBlocks < MIN_ENGINE_HISTORY_BLOCKS)
  )
    throw new InvalidDevnetParameterError(
      `The engine's block history must be a whole number of blocks ≥ ${MIN_ENGINE_HISTORY_BLOCKS}, got ${p.engineHistoryBlocks}.`,
      {
        fix: `Pass --devnet.history-blocks N with N ≥ ${MIN_ENGINE_HISTORY_BLOCKS}, or leave it out (${DEFAULT_ENGINE_HISTORY_BLOCKS}).`,
      },
    )
  if (p.port !== undefined && (!Number.isInteger(p.port) || p.port < 0 || p.port > 65535))
    throw new InvalidDevnetParameterError(`port must be 0..65535, got ${p.port}.`, {
      fix: 'Pass 0 (or nothing) for a free port.',
    })
  if (typeof p.chainId === 'number' && (!Number.isSafeInteger(p.chainId) || p.chainId <= 0))
    throw new InvalidDevnetParameterError(`The chain id must be a positive whole number, got ${p.chainId}.`)
}

/**
 * What a start with these parameters would do in `datadir`, checked without changing anything:
 * the record of the devnet it would resume (null: a new devnet).
 * @throws DevnetStateMismatchError (old devnet), DevnetSourceMismatchError, ForkUrlRequiredError
 */
export async function checkDevnetDirectory(
  datadir: string,
  params: Pick<StartDevnetChainParameters, 'source' | 'chainId'>,
): Promise<ChainRecord | null> {
  const [record, hasState] = await Promise.all([readChainRecord(datadir), pathExists(join(datadir, ANVIL_STATE_FILE))])
  if (!record || !hasState) return null
  checkResume(datadir, record, { datadir, ...params })
  return record
}

/**
 * A fork resumes on the same chain and code as when it was made, or the saved state would sit on
 * another chain: the upstream is probed at the recorded block (three requests).
 */
async function checkForkResume(datadir: string, record: ChainRecord, p: StartDevnetChainParameters): Promise<void> {
  const url = (p.source as Extract<DevnetSource, { kind: 'fork' }>).url
  const blockNumber = BigInt(record.source.fork?.blockNumber ?? '0')
  const probe = await probeForkSource({ url, blockNumber })
  if (
    probe.upstreamChainId !== record.source.fork?.upstreamChainId ||
    probe.registry.codeHash !== record.registryCodeHash
  )
    throw new DevnetSourceMismatchError(
      datadir,
      sourceLabel(record.source),
      `a fork of ${redactUrl(url)} (chain id ${probe.upstreamChainId}, registry code hash ${probe.registry.codeHash} at block ${blockNumber})`,
    )
}

/** A resume must not silently become another rehearsal than the one asked for. */
function checkResume(datadir: string, record: ChainRecord, p: StartDevnetChainParameters): void {
  const holds = sourceLabel(record.source)
  const asked = p.source
  if (asked) {
    const same =
      asked.kind === record.source.kind &&
      (asked.kind !== 'genesis' ||
        asked.genesis === record.source.genesis?.name ||
        asked.genesis === record.source.genesis?.path) &&
      (asked.kind !== 'fork' ||
        asked.blockNumber === undefined ||
        asked.blockNumber.toString() === record.source.fork?.blockNumber)
    if (!same) throw new DevnetSourceMismatchError(datadir, holds, askedLabel(asked))
  }
  if (record.source.kind === 'fork' && asked?.kind !== 'fork')
    throw new ForkUrlRequiredError(datadir, record.source.fork?.url ?? '?', record.source.fork?.blockNumber ?? '?')
  const wanted =
    p.chainId === 'source' ? (record.source.genesis?.chainId ?? record.source.fork?.upstreamChainId) : p.chainId
  if (wanted !== undefined && wanted !== record.chainId)
    throw new DevnetSourceMismatchError(datadir, `${holds} under chain id ${record.chainId}`, `chain id ${wanted}`)
}

/**
 * Decides between resuming and making a new chain. A devnet is resumable when both anvil's state
 * and chain.json exist. A half-made devnet is never deleted: its leftover file is renamed aside.
 */
async function prepareDatadir(datadir: string, statePath: string): Promise<ChainRecord | null> {
  const [record, hasState] = await Promise.all([readChainRecord(datadir), pathExists(statePath)])
  const stamp = fileTimestamp()
  if (record && hasState) {
    // anvil rewrites the state file in place; keep the last good one in case it is cut short.
    await fs.copyFile(statePath, join(datadir, 'anvil-state.prev.json'))
    return record
  }
  if (hasState) await fs.rename(statePath, join(datadir, `anvil-state.incomplete-${stamp}.json`))
  if (record) await fs.rename(join(datadir, 'chain.json'), join(datadir, `chain.orphaned-${stamp}.json`))
  return null
}

/** Fork mode: the dev accounts get their TEL on the local fork only. */
async function fundOnFork(engine: RehearsalEngine, balances: ReadonlyArray<{ address: Address; wei: bigint }>) {
  const request = engine.client.request as unknown as (a: { method: string; params: unknown[] }) => Promise<unknown>
  await Promise.all(
    balances.map(({ address, wei }) => request({ method: 'anvil_setBalance', params: [address, numberToHex(wei)] })),
  )
}
