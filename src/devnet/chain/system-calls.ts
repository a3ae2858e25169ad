/**
 * The epoch boundary as the node makes it (node.md §6, registry.md §8): in the epoch's closing
 * block, system calls from SYSTEM_ADDRESS (0xff…fe) to the registry, in order:
 *   applyIncentives(RewardInfo[])   per-leader consensus-header counts of the closing epoch
 *   applySlashes([])                next generation only (the adiri node does not call it)
 *   concludeEpoch(address[])        the committee of epoch current+2, chosen as the node does
 * The committee: size from getNextCommitteeSize(); pool = the Active set (Active, PendingActivation,
 * PendingExit); PendingExit validators join (at random) only when the others are too few; a
 * seeded Fisher-Yates shuffle; truncate to the size; sort ascending (the registry requires it).
 *
 * On the devnet the engine is anvil: the system address is impersonated, and the calls are
 * mined together in one block with automine paused. The shuffle's random stream is keccak256 of
 * (seed, index) instead of the node's ChaCha-based StdRng: the same algorithm, another stream.
 * The header counts come from the devnet's simulated consensus (./consensus.ts) unless given.
 */
import {
  type Abi,
  type Address,
  concatHex,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  hexToBigInt,
  keccak256,
  numberToHex,
  type PublicClient,
  toHex,
} from 'viem'
import { REGISTRY_ADDRESS, SYSTEM_ADDRESS } from '../../lib/chain/addresses.js'
import { type RegistryGeneration, registryAbis } from '../../lib/registry/generations/detect.js'
import { headerCounts, type RewardInfo } from './consensus.js'
import { DevnetTransactionError } from './errors.js'
import { engineReceipt } from './receipt.js'

export type { RewardInfo } from './consensus.js'

/** Gas limits of the system calls (the node runs them outside the block gas accounting; anvil needs a limit). */
const SYSTEM_CALL_GAS = { applyIncentives: 6_000_000n, applySlashes: 1_000_000n, concludeEpoch: 15_000_000n } as const
/** The system address is given gas money when it has less than this. */
const SYSTEM_GAS_FLOOR = 10n ** 21n
const SYSTEM_GAS_BALANCE = 10n ** 24n

/** Validator status codes (registry.md §2). */
const PENDING_EXIT = 4

export type ValidatorRecord = {
  validatorAddress: Address
  activationEpoch: number
  exitEpoch: number
  currentStatus: number
  isRetired: boolean
  stakeVersion: number
  region: number
}

export type CloseEpochParameters = {
  generation: RegistryGeneration
  /** 32 bytes of epoch randomness (the node's comes from the consensus output); default from the latest block hash. */
  seed?: Hex
  /** Headers each leader produced in the closing epoch; default: the simulated consensus's leader counts (./consensus.ts). */
  headerCounts?: readonly RewardInfo[]
  /** The closing block's timestamp (a warp forward in time); default: the engine's clock. */
  timestamp?: bigint
  registry?: Address
}

export type CloseEpochReturnType = {
  /** The epoch that was concluded. */
  concluded: number
  /** The epoch now current. */
  epoch: number
  /** The committee chosen for epoch `epoch + 2` (sorted). */
  newCommittee: Address[]
  incentives: RewardInfo[]
  /** The closing block. */
  blockNumber: bigint
  timestamp: bigint
}

type Request = (args: { method: string; params: unknown[] }) => Promise<unknown>

/**
 * Concludes the current epoch the node's way.
 * @example const r = await closeEpoch(client, { generation: 'next' }); r.epoch // 1
 */
export async function closeEpoch(client: PublicClient, params: CloseEpochParameters): Promise<CloseEpochReturnType> {
  const { generation, registry = REGISTRY_ADDRESS } = params
  const abi = registryAbis[generation] as Abi
  const request = client.request as unknown as Request
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: registry, abi, functionName, args }) as Promise<T>

  const [info, size, pool, latest, systemBalance] = await Promise.all([
    read<{ committee: readonly Address[]; blockHeight: bigint; epochId: number }>('getCurrentEpochInfo'),
    read<number>('getNextCommitteeSize'),
    read<readonly ValidatorRecord[]>(generation === 'next' ? 'getValidatorsInfo' : 'getValidators', [3]),
    client.getBlock({ blockTag: 'latest' }),
    client.getBalance({ address: SYSTEM_ADDRESS }),
  ])
  const seed = params.seed ?? keccak256(concatHex([latest.hash ?? '0x', numberToHex(info.epochId, { size: 4 })]))
  const newCommittee = chooseCommittee(pool, Number(size), seed)
  // the closing block is the next one
  const incentives = params.headerCounts
    ? [...params.headerCounts]
    : headerCounts(info.committee, info.blockHeight, latest.number + 1n)

  const calls: { name: keyof typeof SYSTEM_CALL_GAS; data: Hex }[] = [
    { name: 'applyIncentives', data: encodeFunctionData({ abi, functionName: 'applyIncentives', args: [incentives] }) },
    ...(generation === 'next'
      ? [{ name: 'applySlashes' as const, data: encodeFunctionData({ abi, functionName: 'applySlashes', args: [[]] }) }]
      : []),
    { name: 'concludeEpoch', data: encodeFunctionData({ abi, functionName: 'concludeEpoch', args: [newCommittee] }) },
  ]

  if (systemBalance < SYSTEM_GAS_FLOOR)
    await request({ method: 'anvil_setBalance', params: [SYSTEM_ADDRESS, numberToHex(SYSTEM_GAS_BALANCE)] })
  await request({ method: 'anvil_impersonateAccount', params: [SYSTEM_ADDRESS] })
  const hashes: Hex[] = []
  await request({ method: 'evm_setAutomine', params: [false] })
  try {
    for (const call of calls)
      hashes.push(
        (await request({
          method: 'eth_sendTransaction',
          params: [{ from: SYSTEM_ADDRESS, to: registry, data: call.data, gas: toHex(SYSTEM_CALL_GAS[call.name]) }],
        })) as Hex,
      )
    if (params.timestamp !== undefined)
      await request({ method: 'evm_setNextBlockTimestamp', params: [toHex(params.timestamp)] })
    await request({ method: 'evm_mine', params: [] })
  } finally {
    await request({ method: 'evm_setAutomine', params: [true] })
  }
  let blockNumber = 0n
  for (const [i, hash] of hashes.entries()) {
    const receipt = await engineReceipt(client, hash)
    if (i > 0 && receipt.blockNumber !== blockNumber)
      throw new DevnetTransactionError(`system calls of epoch ${info.epochId}`, {
        details: [`they landed in blocks ${blockNumber} and ${receipt.blockNumber}; the node makes them in one block`],
      })
    blockNumber = receipt.blockNumber
    if (receipt.status !== 'success') {
      const call = calls[i] as (typeof calls)[number]
      throw new DevnetTransactionError(`system call ${call.name} of epoch ${info.epochId}`, {
        details: [await replayRevert(client, abi, registry, call.data, receipt.blockNumber)],
      })
    }
  }
  const block = await client.getBlock({ blockNumber })
  return {
    concluded: info.epochId,
    epoch: info.epochId + 1,
    newCommittee,
    incentives,
    blockNumber,
    timestamp: block.timestamp,
  }
}

/**
 * The committee the node would choose (node.md §6), sorted ascending.
 * @example chooseCommittee(pool, 4, seed)
 */
export function chooseCommittee(pool: readonly ValidatorRecord[], size: number, seed: Hex): Address[] {
  const eligible = pool.filter((v) => !v.isRetired)
  const exiting = eligible.filter((v) => v.currentStatus === PENDING_EXIT).map((v) => v.validatorAddress)
  let candidates = eligible.filter((v) => v.currentStatus !== PENDING_EXIT).map((v) => v.validatorAddress)
  if (candidates.length < size) {
    const topUp = shuffle(exiting, keccak256(concatHex([seed, toHex('pending-exit')])))
    candidates = [...candidates, ...topUp.slice(0, size - candidates.length)]
  }
  return shuffle(candidates, seed)
    .slice(0, size)
    .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0))
}

/** Fisher-Yates with a keccak256(seed ‖ index) stream. */
function shuffle<T>(items: readonly T[], seed: Hex): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Number(hexToBigInt(keccak256(concatHex([seed, numberToHex(i, { size: 32 })]))) % BigInt(i + 1))
    const t = out[i] as T
    out[i] = out[j] as T
    out[j] = t
  }
  return out
}

async function replayRevert(
  client: PublicClient,
  abi: Abi,
  to: Address,
  data: Hex,
  blockNumber: bigint,
): Promise<string> {
  try {
    await client.call({ account: SYSTEM_ADDRESS, to, data, blockNumber: blockNumber - 1n })
    return 'reverted on chain (the replay against the previous block succeeds)'
  } catch (err) {
    const raw = (err as { walk?: (f: (e: unknown) => boolean) => unknown }).walk?.(
      (e) => typeof (e as { data?: unknown }).data === 'string',
    ) as { data?: Hex } | undefined
    if (raw?.data) {
      try {
        const d = decodeErrorResult({ abi, data: raw.data })
        return `reverted with ${d.errorName}(${(d.args ?? []).map(String).join(', ')})`
      } catch {
        return `reverted with data ${raw.data}`
      }
    }
    return (err as Error).message.split('\n')[0] ?? String(err)
  }
}
