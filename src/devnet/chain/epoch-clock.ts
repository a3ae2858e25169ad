/**
 * The devnet's epoch clock: what the real network's consensus does at epoch boundaries, timed
 * the way the node times them (node.md §6, registry.md §2): epoch E ends when chain time reaches
 * E's start timestamp + `stakeConfig(E's stakeVersion).epochDuration` seconds; its closing block
 * carries the node's system calls (./system-calls.ts). E's start timestamp is the timestamp of
 * the block that concluded E−1 (`EpochInfo.blockHeight − 1`), or of the genesis block for the
 * first epoch. A rehearsal may set its own epoch length in seconds (`epochSeconds`), which
 * replaces the registry's for the clock only (the registry's stake config is not changed).
 *
 * It also makes idle blocks (`blockTime` seconds without a block: one empty block) so an idle
 * devnet's time moves like a network's, and mines on demand. Every chain-changing operation
 * holds one lock, so the background ticks, `advanceEpoch` and `mine` never interleave.
 *
 * Chain time is wall-clock time plus the offset `advanceEpoch` creates when it warps to a
 * boundary (anvil keeps that offset for every later block).
 */
import type { Abi, Address, PublicClient } from 'viem'
import { REGISTRY_ADDRESS } from '../../lib/chain/addresses.js'
import { type RegistryGeneration, registryAbis } from '../../lib/registry/generations/detect.js'
import type { CloseEpochParameters, CloseEpochReturnType } from './system-calls.js'

export type EpochClockParameters = {
  client: PublicClient
  generation: RegistryGeneration
  /** The engine's closeEpoch (system calls in one block). */
  closeEpoch: (params?: Omit<CloseEpochParameters, 'generation'>) => Promise<CloseEpochReturnType>
  /** Rehearsal setting: epoch length in seconds instead of the registry's; null = the registry's. */
  epochSeconds: number | null
  /** Seconds without a block before an idle block is mined; 0 = none. */
  blockTime: number
  /** Conclude epochs in the background when they are due. */
  autoConclude: boolean
  /** Background poll interval. */
  tickMs?: number
  /** Called with each background failure; the clock retries after a pause. */
  onError?: (error: Error) => void
  /** Called after each epoch the clock concludes (background or advanceEpoch). */
  onEpoch?: (result: AdvanceEpochResult) => void
}

export type EpochPosition = {
  epoch: number
  stakeVersion: number
  /** The epoch's first block (`EpochInfo.blockHeight`). */
  startBlock: bigint
  /** Unix seconds the epoch started. */
  startTimestamp: bigint
  /** Epoch length in seconds the clock uses. */
  duration: number
  /** `stakeConfig(stakeVersion).epochDuration` (seconds on the real network). */
  registryDuration: number
  durationSource: 'registry' | 'rehearsal'
  /** Unix seconds the epoch is due to end. */
  dueAt: bigint
  /** The chain's time now (wall clock plus the warp offset). */
  chainTime: bigint
  secondsLeft: number
  latestBlock: bigint
  latestTimestamp: bigint
  committee: Address[]
}

export type AdvanceEpochResult = CloseEpochReturnType & {
  /** Seconds the chain's clock was moved forward to reach the boundary (0 when it was due). */
  warpedSeconds: number
  /** Who concluded it: the background clock, or a request. */
  trigger: 'clock' | 'request'
}

export type EpochClock = {
  position(): Promise<EpochPosition>
  /** Concludes the current epoch now, warping the chain's clock to its end when it is not due yet. */
  advanceEpoch(): Promise<AdvanceEpochResult>
  /** Mines `blocks` blocks now (epochs still end by time only). */
  mine(blocks: number): Promise<void>
  /** Runs `fn` holding the clock's lock (no epoch boundary or idle block in between). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>
  /** Seconds the chain's clock runs ahead of the wall clock. */
  offsetSeconds(): number
  start(): void
  /** Stops ticking and waits for the operation in flight. */
  stop(): Promise<void>
}

type Request = (args: { method: string; params: unknown[] }) => Promise<unknown>
type EpochInfo = { committee: readonly Address[]; blockHeight: bigint; epochId: number; stakeVersion: number }
type StakeConfig = { epochDuration: number }

const wallNow = () => BigInt(Math.floor(Date.now() / 1000))
// biome-ignore lint/complexity/useMathMinMax: Math.max does not take bigints
const maxBigint = (...values: bigint[]) => values.reduce((a, b) => (b > a ? b : a))

/**
 * @example const clock = createEpochClock({ client, generation, closeEpoch: engine.closeEpoch, epochSeconds: null, blockTime: 1, autoConclude: true }); clock.start()
 */
export function createEpochClock(params: EpochClockParameters): EpochClock {
  const { client, generation, epochSeconds, blockTime, autoConclude, tickMs = 250, onError, onEpoch } = params
  const abi = registryAbis[generation] as Abi
  const request = client.request as unknown as Request
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: REGISTRY_ADDRESS, abi, functionName, args }) as Promise<T>

  let lock: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  let running = false
  let offset = 0n
  /** The current epoch's start timestamp by its start block (fixed once the block exists); only the current one is kept. */
  let startTime: { block: bigint; timestamp: bigint } | null = null
  /** The latest block seen by the ticks, and when (wall clock ms). */
  let seen = { number: -1n, at: Date.now() }
  let cached: EpochPosition | null = null

  function locked<T>(fn: () => Promise<T>): Promise<T> {
    const result = lock.then(fn)
    lock = result.catch(() => {})
    return result
  }

  async function startTimestamp(startBlock: bigint): Promise<bigint> {
    if (startTime?.block === startBlock) return startTime.timestamp
    const block = await client.getBlock({ blockNumber: startBlock > 0n ? startBlock - 1n : 0n })
    startTime = { block: startBlock, timestamp: block.timestamp }
    return block.timestamp
  }

  async function position(): Promise<EpochPosition> {
    const [info, latest] = await Promise.all([
      read<EpochInfo>('getCurrentEpochInfo'),
      client.getBlock({ blockTag: 'latest' }),
    ])
    const [config, started] = await Promise.all([
      read<StakeConfig>('stakeConfig', [info.stakeVersion]),
      startTimestamp(info.blockHeight),
    ])
    if (latest.timestamp > wallNow() + offset) offset = latest.timestamp - wallNow()
    const duration = epochSeconds ?? config.epochDuration
    const dueAt = started + BigInt(duration)
    const chainTime = wallNow() + offset
    return {
      epoch: info.epochId,
      stakeVersion: info.stakeVersion,
      startBlock: info.blockHeight,
      startTimestamp: started,
      duration,
      registryDuration: config.epochDuration,
      durationSource: epochSeconds === null ? 'registry' : 'rehearsal',
      dueAt,
      chainTime,
      secondsLeft: dueAt > chainTime ? Number(dueAt - chainTime) : 0,
      latestBlock: latest.number,
      latestTimestamp: latest.timestamp,
      committee: [...info.committee],
    }
  }

  async function conclude(p: EpochPosition, trigger: AdvanceEpochResult['trigger']): Promise<AdvanceEpochResult> {
    const now = wallNow() + offset
    const timestamp = maxBigint(p.dueAt, now, p.latestTimestamp)
    const warpedSeconds = p.dueAt > now ? Number(p.dueAt - now) : 0
    const result = await params.closeEpoch({ timestamp })
    if (result.timestamp > wallNow() + offset) offset = result.timestamp - wallNow()
    cached = null
    const out = { ...result, warpedSeconds, trigger }
    onEpoch?.(out)
    return out
  }

  async function tickOnce(): Promise<void> {
    const latest = await client.getBlock({ blockTag: 'latest' })
    if (latest.number !== seen.number) {
      seen = { number: latest.number, at: Date.now() }
      cached = null
    }
    if (autoConclude) {
      cached ??= await position()
      const chainTime = wallNow() + offset
      if (chainTime >= cached.dueAt) {
        await conclude(cached, 'clock')
        seen = { number: seen.number + 1n, at: Date.now() }
        return
      }
    }
    if (blockTime > 0 && Date.now() - seen.at >= blockTime * 1000) {
      await request({ method: 'evm_mine', params: [] })
      seen = { number: latest.number + 1n, at: Date.now() }
      cached = null
    }
  }

  async function tick(): Promise<void> {
    if (!running) return
    let pause = tickMs
    try {
      await locked(tickOnce)
    } catch (err) {
      pause = Math.max(tickMs, 1000)
      if (running) onError?.(err instanceof Error ? err : new Error(String(err)))
    }
    if (running) timer = setTimeout(() => void tick(), pause)
  }

  return {
    position: () => position(),
    advanceEpoch: () => locked(async () => conclude(await position(), 'request')),
    mine: (blocks) =>
      locked(async () => {
        if (blocks > 0) await request({ method: 'anvil_mine', params: [`0x${blocks.toString(16)}`] })
        cached = null
      }),
    exclusive: (fn) =>
      locked(async () => {
        try {
          return await fn()
        } finally {
          cached = null
        }
      }),
    offsetSeconds: () => Number(offset),
    start() {
      if (running || (!autoConclude && blockTime === 0)) return
      running = true
      timer = setTimeout(() => void tick(), 0)
    },
    async stop() {
      running = false
      if (timer) clearTimeout(timer)
      await lock
    },
  }
}
