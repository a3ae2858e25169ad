/**
 * A Safe Transaction Builder batch file: the JSON the Safe web app's Transaction Builder imports
 * (drag the file onto it; the Safe's owners then confirm and execute the batch as one Safe
 * transaction through MultiSend). The format is the app's own (safe-global/safe-react-apps,
 * apps/tx-builder/src/typings/models.ts `BatchFile`): `version` "1.0", `chainId` as a decimal
 * string, `createdAt` in ms, `meta` {name, description, createdFromSafeAddress, checksum} and
 * `transactions` [{to, value (wei, decimal string), data, contractMethod {inputs, name, payable},
 * contractInputsValues}]. `data` carries the exact calldata tnv built and simulated (the app uses
 * it as is when present); `contractMethod` and `contractInputsValues` name the method and its
 * arguments, decoded from that calldata with the registry's ABI, for the people who confirm it.
 */
import {
  type Abi,
  type AbiFunction,
  type AbiParameter,
  type Address,
  decodeFunctionData,
  type Hex,
  toFunctionSelector,
} from 'viem'
import { batchChecksum } from './checksum.js'

export type SafeContractInput = { internalType: string; name: string; type: string; components?: SafeContractInput[] }

export type SafeBatchTransaction = {
  to: Address
  value: string
  data: Hex
  contractMethod: { inputs: SafeContractInput[]; name: string; payable: boolean }
  contractInputsValues: Record<string, string>
}

export type SafeBatchFile = {
  version: '1.0'
  chainId: string
  createdAt: number
  meta: {
    name: string
    description: string
    createdFromSafeAddress: Address
    createdFromOwnerAddress: string
    checksum: Hex
  }
  transactions: SafeBatchTransaction[]
}

export type SafeCall = { to: Address; value: bigint; data: Hex }

export type BuildSafeBatchParameters = {
  chainId: number
  /** The Safe that executes the batch (the validator address). */
  safe: Address
  name: string
  description: string
  calls: readonly SafeCall[]
  /** The ABI the calldata is decoded with (the registry generation's). */
  abi: Abi
  createdAt?: number
}

/**
 * @example const batch = buildSafeBatch({ chainId: 2017, safe, name: 'tnv onboarding', description, calls, abi })
 */
export function buildSafeBatch({
  chainId,
  safe,
  name,
  description,
  calls,
  abi,
  createdAt = Date.now(),
}: BuildSafeBatchParameters): SafeBatchFile {
  const transactions = calls.map((call) => describeCall(call, abi))
  const withoutChecksum = {
    version: '1.0' as const,
    chainId: String(chainId),
    createdAt,
    meta: { name, description, createdFromSafeAddress: safe, createdFromOwnerAddress: '' },
    transactions,
  }
  const checksum = batchChecksum(withoutChecksum)
  return { ...withoutChecksum, meta: { ...withoutChecksum.meta, checksum } }
}

function describeCall(call: SafeCall, abi: Abi): SafeBatchTransaction {
  const selector = call.data.slice(0, 10).toLowerCase()
  const item = abi.find(
    (x): x is AbiFunction => x.type === 'function' && toFunctionSelector(x).toLowerCase() === selector,
  )
  if (!item) throw new Error(`calldata ${selector}… is no function of the registry ABI`)
  const { args } = decodeFunctionData({ abi: [item], data: call.data })
  const values: Record<string, string> = {}
  item.inputs.forEach((input, i) => {
    values[input.name || String(i)] = valueString(input, (args ?? [])[i])
  })
  return {
    to: call.to,
    value: call.value.toString(),
    data: call.data,
    contractMethod: { inputs: item.inputs.map(inputOf), name: item.name, payable: item.stateMutability === 'payable' },
    contractInputsValues: values,
  }
}

function inputOf(p: AbiParameter): SafeContractInput {
  const components = 'components' in p && p.components ? p.components.map(inputOf) : undefined
  return {
    internalType: p.internalType ?? p.type,
    name: p.name ?? '',
    type: p.type,
    ...(components ? { components } : {}),
  }
}

/** As the Transaction Builder's form holds values: strings; tuples and arrays as JSON of strings. */
function valueString(p: AbiParameter, v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(plain(p, v))
}

function plain(p: AbiParameter, v: unknown): unknown {
  if (p.type.endsWith('[]') && Array.isArray(v)) {
    const inner = { ...p, type: p.type.slice(0, -2) } as AbiParameter
    return v.map((x) => plain(inner, x))
  }
  if (p.type === 'tuple' && 'components' in p && p.components) {
    const comps = p.components
    return comps.map((c, i) => plain(c, Array.isArray(v) ? v[i] : (v as Record<string, unknown>)[c.name ?? String(i)]))
  }
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  return String(v)
}
