/**
 * What `--check` reports for a transaction it would send (docs/automation.md): the prepared
 * transaction, decoded from its own calldata with the registry's ABI, and the gas the simulation
 * (eth_estimateGas) measured. Wei as decimal strings (JSON-safe), TEL beside it.
 */
import { type Abi, type Address, decodeFunctionData, type Hex, toFunctionSignature } from 'viem'
import { maxCost, type PreparedTransaction } from '../chain/transaction.js'
import { formatTel } from '../chain/units.js'

export type CheckedTransaction = {
  chainId: number
  from: Address
  to: Address
  /** The function signature ("activate()"), or null when the ABI does not decode the calldata. */
  function: string | null
  /**
   * The arguments under their ABI names (bigints as decimal strings), or null as above. Named
   * `inputs` as every contract call's arguments in tnv's JSON: kept exactly as the ABI names them.
   */
  inputs: Record<string, unknown> | null
  /** Wei. */
  value: string
  valueTel: string
  data: Hex
  nonce: number
  /** The simulation's gas estimate, and the limit it would be sent with (+20 %). */
  gasEstimate: string
  gasLimit: string
  /** Value plus gas limit times the max fee per gas, in wei. */
  maxCost: string
}

function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(jsonValue)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v)]))
  return value
}

function decodeCall(abi: Abi, data: Hex): Pick<CheckedTransaction, 'function' | 'inputs'> {
  try {
    const { functionName, args = [] } = decodeFunctionData({ abi, data })
    const item = abi.find((x) => x.type === 'function' && x.name === functionName && x.inputs.length === args.length)
    if (item?.type !== 'function') return { function: null, inputs: null }
    return {
      function: toFunctionSignature(item),
      inputs: Object.fromEntries(item.inputs.map((input, i) => [input.name || `arg${i}`, jsonValue(args[i])])),
    }
  } catch {
    return { function: null, inputs: null }
  }
}

/** @example checkedTransaction(tx, estimate, adapter.abi).function // 'activate()' */
export function checkedTransaction(tx: PreparedTransaction, gasEstimate: bigint, abi: Abi): CheckedTransaction {
  return {
    chainId: tx.chainId,
    from: tx.from,
    to: tx.to,
    ...decodeCall(abi, tx.data),
    value: tx.value.toString(),
    valueTel: formatTel(tx.value),
    data: tx.data,
    nonce: tx.nonce,
    gasEstimate: gasEstimate.toString(),
    gasLimit: tx.gas.toString(),
    maxCost: maxCost(tx).toString(),
  }
}
