/**
 * The devnet's protocol loop: what the real network's consensus does at epoch boundaries.
 * Epoch E starts at block H(E) (recorded by the registry) and lasts `epochDuration` blocks of the
 * epoch's stake config. When the chain has mined up to the block before the epoch's last one,
 * the system account sends `concludeEpoch(E)`, which lands in the last block, so epoch E + 1
 * starts exactly at H(E) + epochDuration when the loop keeps up. Every operation holds one lock,
 * so the background ticks, advanceEpoch and mine never conclude the same epoch twice (the
 * registry also refuses a stale epoch id).
 */
import type { PublicClient, WalletClient } from 'viem'
import { consensusRegistryAbi } from './abi.js'
import { anvilMine } from './anvil-rpc.js'
import { sendDevnetTransaction } from './send-devnet-transaction.js'
import { REGISTRY_ADDRESS } from './types.js'

/** Enough for a few hundred validators; the sender pays only what is used. */
const CONCLUDE_EPOCH_GAS = 15_000_000n

export type ProtocolLoopParameters = {
  publicClient: PublicClient
  /** Wallet client of the system account. */
  systemWallet: WalletClient
  /** Conclude epochs in the background (and while mining). */
  autoConclude: boolean
  /** Background poll interval. */
  intervalMs?: number
  /** Called with each background failure; the loop retries after a pause. */
  onError?: (error: Error) => void
}

export type EpochPosition = {
  epoch: number
  /** First block of the epoch. */
  startBlock: bigint
  duration: number
  latestBlock: bigint
  /** Blocks to mine before concludeEpoch is due (0 = due now). */
  blocksUntilDue: bigint
}

export type ProtocolLoop = {
  /** Reads where the chain stands in its epoch. */
  position(): Promise<EpochPosition>
  /** Concludes the current epoch if it is due; the new epoch id, or null. */
  concludeIfDue(): Promise<number | null>
  /** Mines to the epoch's last block and concludes it; the new epoch id. */
  advanceEpoch(): Promise<number>
  /** Mines exactly `blocks` blocks; with autoConclude the boundary blocks carry concludeEpoch. */
  mine(blocks: number): Promise<void>
  /** Starts background ticks (no-op without autoConclude). */
  start(): void
  /** Stops ticking and waits for the operation in flight. */
  stop(): Promise<void>
}

/**
 * @example const loop = createProtocolLoop({ publicClient, systemWallet, autoConclude: true }); loop.start()
 */
export function createProtocolLoop(params: ProtocolLoopParameters): ProtocolLoop {
  const { publicClient, systemWallet, autoConclude, intervalMs = 100, onError } = params
  let chain: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  let running = false

  // Serializes every chain-changing operation of the loop.
  function locked<T>(fn: () => Promise<T>): Promise<T> {
    const result = chain.then(fn)
    chain = result.catch(() => {})
    return result
  }

  async function position(): Promise<EpochPosition> {
    const [info, latestBlock] = await Promise.all([
      publicClient.readContract({
        address: REGISTRY_ADDRESS,
        abi: consensusRegistryAbi,
        functionName: 'getCurrentEpochInfo',
      }),
      publicClient.getBlockNumber({ cacheTime: 0 }),
    ])
    const dueAt = info.blockHeight + BigInt(info.epochDuration) - 2n
    return {
      epoch: info.epochId,
      startBlock: info.blockHeight,
      duration: info.epochDuration,
      latestBlock,
      blocksUntilDue: dueAt > latestBlock ? dueAt - latestBlock : 0n,
    }
  }

  async function conclude(epoch: number): Promise<number> {
    await sendDevnetTransaction(publicClient, systemWallet, {
      what: `conclude epoch ${epoch}`,
      address: REGISTRY_ADDRESS,
      abi: consensusRegistryAbi,
      functionName: 'concludeEpoch',
      args: [epoch],
      gas: CONCLUDE_EPOCH_GAS,
    })
    return epoch + 1
  }

  async function concludeIfDueUnlocked(): Promise<number | null> {
    const p = await position()
    return p.blocksUntilDue === 0n ? conclude(p.epoch) : null
  }

  async function tick(): Promise<void> {
    if (!running) return
    let pause = intervalMs
    try {
      await locked(concludeIfDueUnlocked)
    } catch (err) {
      pause = Math.max(intervalMs, 1000)
      if (running) onError?.(err instanceof Error ? err : new Error(String(err)))
    }
    if (running) timer = setTimeout(() => void tick(), pause)
  }

  return {
    position,
    concludeIfDue: () => locked(concludeIfDueUnlocked),
    advanceEpoch: () =>
      locked(async () => {
        const p = await position()
        if (p.blocksUntilDue > 0n) await anvilMine(publicClient, Number(p.blocksUntilDue))
        return conclude(p.epoch)
      }),
    mine: (blocks) =>
      locked(async () => {
        let remaining = blocks
        while (remaining > 0) {
          if (!autoConclude) {
            await anvilMine(publicClient, remaining)
            return
          }
          const p = await position()
          if (p.blocksUntilDue === 0n) {
            await conclude(p.epoch) // the concludeEpoch transaction is one of the blocks
            remaining -= 1
          } else {
            const n = Math.min(remaining, Number(p.blocksUntilDue))
            await anvilMine(publicClient, n)
            remaining -= n
          }
        }
      }),
    start() {
      if (!autoConclude || running) return
      running = true
      timer = setTimeout(() => void tick(), 0)
    },
    async stop() {
      running = false
      if (timer) clearTimeout(timer)
      await chain
    },
  }
}
