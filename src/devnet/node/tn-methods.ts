/**
 * The `tn_*` methods, answered by the node itself from the registry
 * (0x07e17e17e17e17e17e17e17e17e17e17e17e17e1) through the engine. Result shapes are
 * documented in docs/devnet.md: struct fields by name, uint8..uint64 as JSON numbers, uint256
 * as 0x quantities, validator status by name.
 */
import type { Abi, Address, Hex } from 'viem'
import { sharedRegistryAbi as registryAbi } from '../../lib/registry/generations/shared-abi.js'
import { VALIDATOR_STATUSES } from '../../lib/registry/generations/status.js'
import type { EngineClient } from './engine-client.js'
import { EngineRpcError } from './engine-client.js'
import { ErrorCode, RpcAnswerError } from './jsonrpc.js'
import type { TN_METHODS } from './methods.js'

export type TnContext = {
  engine: EngineClient
  chainId: number
  registry: Address
  issuance: Address
  clientVersion: string
}

export interface TnMethods {
  handle(method: string, params: unknown[]): Promise<unknown>
}

type Viem = typeof import('viem')

/** views the registry ABI of src/lib/registry lacks but the reference contract has (facts page). */
const extraAbi = [
  {
    type: 'function',
    name: 'getValidators',
    stateMutability: 'view',
    inputs: [{ name: 'status', type: 'uint8' }],
    outputs: [
      {
        name: '',
        type: 'tuple[]',
        components: [
          { name: 'validatorAddress', type: 'address' },
          { name: 'activationEpoch', type: 'uint32' },
          { name: 'exitEpoch', type: 'uint32' },
          { name: 'currentStatus', type: 'uint8' },
          { name: 'isRetired', type: 'bool' },
          { name: 'stakeVersion', type: 'uint8' },
          { name: 'region', type: 'uint8' },
        ],
      },
    ],
  },
] as const satisfies Abi

const abi = [...registryAbi, ...extraAbi] as const

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

const quantity = (n: bigint) => `0x${n.toString(16)}`

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

function addressParam(params: unknown[], viem: Viem): Address {
  const a = params[0]
  if (typeof a !== 'string' || !viem.isAddress(a, { strict: false })) {
    throw invalidParams('expected a 20-byte 0x address as the first parameter')
  }
  return a as Address
}

function bytesParam(params: unknown[], viem: Viem): Hex {
  const b = params[0]
  if (typeof b !== 'string' || !viem.isHex(b) || b.length % 2 !== 0) {
    throw invalidParams('expected 0x hex bytes as the first parameter')
  }
  return b as Hex
}

function u32Param(params: unknown[]): number {
  const v = params[0]
  const n = typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v) ? Number.parseInt(v, 16) : v
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) {
    throw invalidParams('expected an epoch number (integer or 0x quantity) as the first parameter')
  }
  return n
}

function statusParam(params: unknown[]): number {
  const v = params[0]
  if (v === undefined) return VALIDATOR_STATUSES.indexOf('Active')
  const byName = typeof v === 'string' ? VALIDATOR_STATUSES.findIndex((s) => s.toLowerCase() === v.toLowerCase()) : -1
  if (byName >= 0) return byName
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < VALIDATOR_STATUSES.length) return v
  throw invalidParams(`expected a validator status (${VALIDATOR_STATUSES.join(', ')})`)
}

export function createTnMethods(ctx: TnContext): TnMethods {
  let viemModule: Viem | null = null
  const viem = async (): Promise<Viem> => {
    viemModule ??= await import('viem')
    return viemModule
  }

  async function read(functionName: string, args: readonly unknown[] = []): Promise<unknown> {
    const v = await viem()
    const data = v.encodeFunctionData({ abi, functionName, args } as Parameters<Viem['encodeFunctionData']>[0])
    let out: unknown
    try {
      out = await ctx.engine.call('eth_call', [{ to: ctx.registry, data }, 'latest'])
    } catch (err) {
      if (err instanceof EngineRpcError) throw revertError(v, functionName, err)
      throw err
    }
    return v.decodeFunctionResult({ abi, functionName, data: out as Hex } as Parameters<
      Viem['decodeFunctionResult']
    >[0])
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

  const handlers: Record<(typeof TN_METHODS)[number], (params: unknown[]) => Promise<unknown>> = {
    info: async () => {
      const [blockNumber, epoch] = await Promise.all([ctx.engine.call('eth_blockNumber', []), read('getCurrentEpoch')])
      return {
        clientVersion: ctx.clientVersion,
        chain: 'devnet',
        chainId: ctx.chainId,
        nodeMode: 'observer',
        registry: ctx.registry,
        issuance: ctx.issuance,
        blockNumber: Number.parseInt(blockNumber as string, 16),
        epoch: Number(epoch),
      }
    },
    nodeMode: async () => 'observer',
    latestHeader: async () => ctx.engine.call('eth_getBlockByNumber', ['latest', false]),
    genesis: async () => ({
      chainId: ctx.chainId,
      registry: ctx.registry,
      issuance: ctx.issuance,
      header: await ctx.engine.call('eth_getBlockByNumber', ['0x0', false]),
    }),
    getCurrentEpoch: async () => Number(await read('getCurrentEpoch')),
    getCurrentEpochInfo: async () => epochInfoJson((await read('getCurrentEpochInfo')) as RawEpochInfo),
    getEpochInfo: async (params) => epochInfoJson((await read('getEpochInfo', [u32Param(params)])) as RawEpochInfo),
    getValidators: async (params) =>
      ((await read('getValidators', [statusParam(params)])) as RawValidator[]).map(validatorJson),
    getCommitteeValidators: async () => {
      const info = (await read('getCurrentEpochInfo')) as RawEpochInfo
      const members = await Promise.all(info.committee.map((a) => read('getValidator', [a])))
      return (members as RawValidator[]).map(validatorJson)
    },
    getValidator: async (params) =>
      validatorJson((await read('getValidator', [addressParam(params, await viem())])) as RawValidator),
    getBlsPubkey: async (params) => read('getBlsPubkey', [addressParam(params, await viem())]),
    isValidator: async (params) => read('isValidator', [bytesParam(params, await viem())]),
    isDelegated: async (params) => read('isDelegated', [addressParam(params, await viem())]),
    isRetired: async (params) => read('isRetired', [addressParam(params, await viem())]),
    getRewards: async (params) => quantity((await read('getRewards', [addressParam(params, await viem())])) as bigint),
  }

  return {
    handle(method, params) {
      const name = method.slice(3) as (typeof TN_METHODS)[number]
      const handler = handlers[name]
      if (!method.startsWith('tn_') || !handler) {
        return Promise.reject(new RpcAnswerError(ErrorCode.MethodNotFound, 'Method not found'))
      }
      return handler(params)
    },
  }
}
