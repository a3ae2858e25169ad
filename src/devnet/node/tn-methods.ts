/**
 * The `tn_*` methods, answered by the node itself, with the shapes of the real node
 * (node.md §5; telcoin-network crates/execution/tn-rpc). Registry views are read from the code
 * that runs (0x07e1…17e1) through the engine, with the ABI of its generation
 * (`registryAbis[generation]`), so they answer the same over the embedded devnet, a genesis
 * rehearsal and a fork. Shapes (docs/devnet.md): struct fields by name, uint8..uint64 as JSON
 * numbers, uint256 as 0x quantities, validator status by name.
 *
 * The consensus methods (`tn_latestConsensusHeader`, its deprecated alias `tn_latestHeader`,
 * `tn_nodeMode`) describe the devnet's simulated consensus (src/devnet/chain/consensus.ts): one
 * commit per block, its leader round-robin over the epoch's committee, commit timestamp = the
 * block's timestamp, reputation = blocks led so far in the epoch (what `applyIncentives` credits).
 */
import { readFile } from 'node:fs/promises'
import type { Abi, Address, Hex } from 'viem'
import type { RegistryGeneration } from '../../lib/registry/generations/detect.js'
import { registryAbis } from '../../lib/registry/generations/detect.js'
import { VALIDATOR_STATUSES } from '../../lib/registry/generations/status.js'
import type { EngineClient } from './engine-client.js'
import { EngineRpcError } from './engine-client.js'
import { ErrorCode, RpcAnswerError } from './jsonrpc.js'
import type { TN_METHODS } from './methods.js'
import type { PresenceSpans } from './presence.js'

/** Who this node is (from the node-info.yaml of its data directory), for tn_info and tn_nodeMode. */
export type NodeIdentity = {
  name: string
  blsPublicKey: Hex
  executionAddress: Address
  primaryNetworkKey: string
  workerNetworkKey: string
  primaryExternalAddress: string
  workerExternalAddress: string
}

export type TnContext = {
  engine: EngineClient
  chainId: number
  registry: Address
  issuance: Address
  clientVersion: string
  /** The registry generation of the code that runs (default next). */
  generation?: RegistryGeneration
  /** This node's keys; null for a node without node-info.yaml (the devnet's own node: an observer). */
  identity?: NodeIdentity | null
  /** Where `tn_genesis` reads the chain's genesis (the anvil init file); null when there is none (a fork). */
  genesisFile?: string | null
  /**
   * Which keys nodes on the devnet hold (./presence.ts): validators outside the genesis committee
   * lead and score only while present. Absent: every committee member leads (the chain alone).
   */
  presence?: () => Promise<PresenceSpans>
  /** REHEARSAL (--devnet.never-catch-up): this node reports CvvInactive for ever. */
  neverCatchUp?: boolean
}

export interface TnMethods {
  handle(method: string, params: unknown[]): Promise<unknown>
}

type Viem = typeof import('viem')

type RawValidator = {
  validatorAddress: Address
  activationEpoch: number
  exitEpoch: number
  currentStatus: number
  isRetired: boolean
  stakeVersion: number
  region: number
}
type RawEpochInfo = {
  committee: readonly Address[]
  epochIssuance: bigint
  blockHeight: bigint
  epochId: number
  epochDuration: number
  stakeVersion: number
}
type Block = { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex }

const quantity = (n: bigint) => `0x${n.toString(16)}`
const ANY_STATUS = VALIDATOR_STATUSES.indexOf('Any')
const ZERO_32: Hex = `0x${'00'.repeat(32)}`

function validatorJson(v: RawValidator) {
  return {
    validatorAddress: v.validatorAddress,
    activationEpoch: v.activationEpoch,
    exitEpoch: v.exitEpoch,
    currentStatus: VALIDATOR_STATUSES[v.currentStatus] ?? v.currentStatus,
    isRetired: v.isRetired,
    stakeVersion: v.stakeVersion,
    region: v.region,
  }
}

function epochInfoJson(e: RawEpochInfo) {
  return {
    committee: [...e.committee],
    epochIssuance: quantity(e.epochIssuance),
    blockHeight: Number(e.blockHeight),
    epochId: e.epochId,
    epochDuration: e.epochDuration,
    stakeVersion: e.stakeVersion,
  }
}

function invalidParams(message: string): RpcAnswerError {
  return new RpcAnswerError(ErrorCode.InvalidParams, `invalid params: ${message}`)
}

function addressParam(params: unknown[], index: number, viem: Viem, what = 'a 20-byte 0x address'): Address {
  const a = params[index]
  if (typeof a !== 'string' || !viem.isAddress(a, { strict: false }))
    throw invalidParams(`expected ${what} as parameter ${index + 1}`)
  return a as Address
}

function bytesParam(params: unknown[], index: number, viem: Viem): Hex {
  const b = params[index]
  if (typeof b !== 'string' || !viem.isHex(b) || b.length % 2 !== 0)
    throw invalidParams(`expected 0x hex bytes as parameter ${index + 1}`)
  return b as Hex
}

function uintParam(params: unknown[], index: number, max: bigint, what: string): bigint {
  const v = params[index]
  let n: bigint | null = null
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) n = BigInt(v)
  else if (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v)) n = BigInt(v)
  else if (typeof v === 'string' && /^[0-9]+$/.test(v)) n = BigInt(v)
  if (n === null || n > max) throw invalidParams(`expected ${what} (integer or 0x quantity) as parameter ${index + 1}`)
  return n
}

const epochParam = (params: unknown[]) => Number(uintParam(params, 0, 0xffffffffn, 'an epoch number'))

/** A status NAME, as the node takes it ("Any" = every unretired validator). */
function statusParam(params: unknown[]): number {
  const v = params[0]
  const index = typeof v === 'string' ? VALIDATOR_STATUSES.indexOf(v as (typeof VALIDATOR_STATUSES)[number]) : -1
  if (index < 0) throw invalidParams(`expected a validator status name (${VALIDATOR_STATUSES.join(', ')})`)
  return index
}

export function createTnMethods(ctx: TnContext): TnMethods {
  const generation = ctx.generation ?? 'next'
  const abi = registryAbis[generation] as Abi
  let viemModule: Viem | null = null
  const viem = async (): Promise<Viem> => {
    viemModule ??= await import('viem')
    return viemModule
  }
  /** Authority ids by BLS key (fixed for ever). */
  const authorityIds = new Map<string, string>()

  async function read<T = unknown>(functionName: string, args: readonly unknown[] = [], block = 'latest'): Promise<T> {
    const v = await viem()
    const data = v.encodeFunctionData({ abi, functionName, args } as Parameters<Viem['encodeFunctionData']>[0])
    let out: unknown
    try {
      out = await ctx.engine.call('eth_call', [{ to: ctx.registry, data }, block])
    } catch (err) {
      if (err instanceof EngineRpcError) throw revertError(v, functionName, err)
      throw err
    }
    return v.decodeFunctionResult({ abi, functionName, data: out as Hex } as Parameters<
      Viem['decodeFunctionResult']
    >[0]) as T
  }

  function revertError(v: Viem, functionName: string, err: EngineRpcError): RpcAnswerError {
    const answer = err.answer as { code?: unknown; data?: unknown } | null
    const data = typeof answer?.data === 'string' && answer.data.startsWith('0x') ? (answer.data as Hex) : null
    let reason = err.message
    if (data && data.length >= 10) {
      try {
        const decoded = v.decodeErrorResult({ abi, data })
        reason = `${decoded.errorName}(${(decoded.args ?? []).map((a) => String(a)).join(', ')})`
      } catch {
        // not one of the registry's errors: keep the engine's message
      }
    }
    return new RpcAnswerError(3, `registry ${functionName} reverted: ${reason}`, data ?? undefined)
  }

  async function authorityIdOf(validator: Address, block: string): Promise<string | null> {
    let key: Hex
    try {
      key = await read<Hex>('getBlsPubkey', [validator], block)
    } catch {
      return null
    }
    const hit = authorityIds.get(key)
    if (hit) return hit
    const { authorityId } = await import('../chain/consensus.js')
    const { hexToBytes } = await viem()
    const id = authorityId(hexToBytes(key))
    authorityIds.set(key, id)
    return id
  }

  /** The simulated consensus header of the latest block (src/devnet/chain/consensus.ts). */
  async function latestConsensusHeader() {
    const latest = (await ctx.engine.call('eth_getBlockByNumber', ['latest', false])) as Block
    const number = BigInt(latest.number)
    const tag = latest.number
    let info = await read<RawEpochInfo>('getCurrentEpochInfo', [], tag)
    // the closing block of an epoch belongs to that epoch, although the registry has moved on
    if (number < info.blockHeight && info.epochId > 0)
      info = await read<RawEpochInfo>('getEpochInfo', [info.epochId - 1], tag)
    const { leaderCounts, leaderIndex } = await import('../chain/consensus.js')
    const committee = [...info.committee]
    const counts = leaderCounts(committee, info.blockHeight, number)
    const ids = await Promise.all(committee.map((a) => authorityIdOf(a, tag)))
    // outside the genesis committee, a validator leads only the blocks a node holding its key was present for
    const spans = ctx.presence ? await ctx.presence() : null
    const devnetRun = spans ? await genesisCommittee() : null
    const absent = (i: number) =>
      devnetRun !== null && !devnetRun.has((committee[i] as string).toLowerCase()) ? (ids[i] ?? null) : null
    if (spans) {
      const { ledInSpans } = await import('./presence.js')
      const first = info.blockHeight > 1n ? Number(info.blockHeight) : 1
      committee.forEach((_, i) => {
        const id = absent(i)
        if (id !== null)
          counts[i] = BigInt(
            ledInSpans(spans.get(id) ?? [], Number(info.blockHeight), committee.length, i, first, Number(number)),
          )
      })
    }
    const scores: Record<string, number> = {}
    committee.forEach((_, i) => {
      const id = ids[i] ?? committee[i]
      scores[id as string] = (scores[id as string] ?? 0) + Number(counts[i])
    })
    const led = number > 0n && number >= info.blockHeight && committee.length > 0
    let leader = led ? leaderIndex(number, info.blockHeight, committee.length) : null
    if (leader !== null && spans) {
      const id = absent(leader)
      const { presentAt } = await import('./presence.js')
      // an absent leader's round commits nothing on a real network: no leader
      if (id !== null && !presentAt(spans.get(id), Number(number))) leader = null
    }
    const round = led ? 2 * Number(number - (info.blockHeight > 1n ? info.blockHeight : 1n) + 1n) : 0
    const { keccak256, concatHex } = await viem()
    return {
      parent_hash: number > 0n ? keccak256(concatHex([latest.parentHash, '0x01'])) : ZERO_32,
      sub_dag: {
        leader:
          leader === null
            ? null
            : {
                author: ids[leader] ?? null,
                execution_address: committee[leader],
                round,
                epoch: info.epochId,
                created_at: Number(BigInt(latest.timestamp)),
              },
        leader_round: round,
        commit_timestamp: Number(BigInt(latest.timestamp)),
        reputation_score: { scores_per_authority: scores, final_of_schedule: false },
        randomness: keccak256(latest.hash),
      },
      number: Number(number),
      extra: ZERO_32,
    }
  }

  /** The genesis committee (epoch 0), lowercased: the validators the devnet runs itself. Empty when out of the registry's window. */
  let genesis: Promise<Set<string>> | null = null
  function genesisCommittee(): Promise<Set<string>> {
    genesis ??= read<RawEpochInfo>('getEpochInfo', [0])
      .then((e) => new Set(e.committee.map((a) => a.toLowerCase())))
      .catch(() => new Set<string>())
    return genesis
  }

  async function nodeMode(): Promise<'CvvActive' | 'CvvInactive' | 'Observer'> {
    if (ctx.neverCatchUp) return 'CvvInactive'
    const identity = ctx.identity
    if (!identity) return 'Observer'
    const info = await read<RawEpochInfo>('getCurrentEpochInfo')
    const member = info.committee.some((a) => a.toLowerCase() === identity.executionAddress.toLowerCase())
    if (!member) return 'Observer'
    // a committee seat counts only with the key this node holds (the devnet engine is always in sync)
    const key = await read<Hex>('getBlsPubkey', [identity.executionAddress]).catch(() => null)
    return key?.toLowerCase() === identity.blsPublicKey.toLowerCase() ? 'CvvActive' : 'Observer'
  }

  const handlers: Record<(typeof TN_METHODS)[number], (params: unknown[]) => Promise<unknown>> = {
    info: async () => {
      const id = ctx.identity
      let authority: string | null = null
      if (id) {
        const { authorityId } = await import('../chain/consensus.js')
        authority = authorityId((await viem()).hexToBytes(id.blsPublicKey))
      }
      return {
        chain_id: ctx.chainId,
        version: ctx.clientVersion,
        name: id?.name ?? 'tnv-devnet',
        bls_public_key: id?.blsPublicKey ?? null,
        authority_id: authority,
        execution_address: id?.executionAddress ?? null,
        primary_network_key: id?.primaryNetworkKey ?? null,
        worker_network_key: id?.workerNetworkKey ?? null,
        primary_external_address: id?.primaryExternalAddress ?? null,
        worker_external_address: id?.workerExternalAddress ?? null,
      }
    },
    nodeMode,
    latestConsensusHeader: latestConsensusHeader,
    latestHeader: latestConsensusHeader,
    genesis: async () => {
      if (!ctx.genesisFile)
        throw new RpcAnswerError(
          ErrorCode.ServerError,
          'this devnet is a fork of a live chain: its genesis is the live network’s, not held locally',
        )
      return JSON.parse(await readFile(ctx.genesisFile, 'utf8'))
    },
    getCurrentEpoch: async () => Number(await read('getCurrentEpoch')),
    getCurrentEpochInfo: async () => epochInfoJson(await read<RawEpochInfo>('getCurrentEpochInfo')),
    getEpochInfo: async (params) => epochInfoJson(await read<RawEpochInfo>('getEpochInfo', [epochParam(params)])),
    getValidators: async (params) => {
      const status = statusParam(params)
      if (generation === 'adiri') return (await read<RawValidator[]>('getValidators', [status])).map(validatorJson)
      // the next generation's views return ValidatorInfo from getValidatorsInfo, and refuse
      // status 6: "Any" is then every unretired validator of the other statuses, as adiri answers it
      if (status !== ANY_STATUS) return (await read<RawValidator[]>('getValidatorsInfo', [status])).map(validatorJson)
      const lists = await Promise.all([1, 2, 3, 4, 5].map((s) => read<RawValidator[]>('getValidatorsInfo', [s])))
      const seen = new Set<string>()
      return lists
        .flat()
        .filter((v) => !seen.has(v.validatorAddress.toLowerCase()) && seen.add(v.validatorAddress.toLowerCase()))
        .map(validatorJson)
    },
    getCommitteeValidators: async (params) =>
      (await read<RawValidator[]>('getCommitteeValidators', [epochParam(params)])).map(validatorJson),
    getCommitteeBlsPubkeys: async (params) => read('getCommitteeBlsPubkeys', [epochParam(params)]),
    getValidator: async (params) =>
      validatorJson(await read<RawValidator>('getValidator', [addressParam(params, 0, await viem())])),
    getBlsPubkey: async (params) => read('getBlsPubkey', [addressParam(params, 0, await viem())]),
    isValidator: async (params) => read('isValidator', [bytesParam(params, 0, await viem())]),
    isDelegated: async (params) => read('isDelegated', [addressParam(params, 0, await viem())]),
    isRetired: async (params) => read('isRetired', [addressParam(params, 0, await viem())]),
    getRewards: async (params) => quantity(await read<bigint>('getRewards', [addressParam(params, 0, await viem())])),
    getBalanceBreakdown: async (params) => {
      const [balance, stakeAmount, rewards] = await read<readonly [bigint, bigint, bigint]>('getBalanceBreakdown', [
        addressParam(params, 0, await viem()),
      ])
      return { balance: quantity(balance), stakeAmount: quantity(stakeAmount), rewards: quantity(rewards) }
    },
    delegationDigest: async (params) => {
      const v = await viem()
      const key = bytesParam(params, 0, v)
      const validator = addressParam(params, 1, v, 'the validator address')
      const delegator = addressParam(params, 2, v, 'the delegator address')
      if (generation === 'adiri') return read('delegationDigest', [key, validator, delegator])
      const deadline = uintParam(params, 3, 2n ** 256n - 1n, 'the deadline (unix seconds)')
      return read('delegationDigest', [key, validator, delegator, deadline])
    },
    getNextCommitteeSize: async () => Number(await read('getNextCommitteeSize')),
    getCurrentStakeVersion: async () => Number(await read('getCurrentStakeVersion')),
    undistributedIssuance: async () => quantity(await read<bigint>('undistributedIssuance')),
  }

  return {
    handle(method, params) {
      const name = method.slice(3) as (typeof TN_METHODS)[number]
      const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined
      if (!method.startsWith('tn_') || !handler) {
        return Promise.reject(new RpcAnswerError(ErrorCode.MethodNotFound, 'Method not found'))
      }
      return handler(params)
    },
  }
}
