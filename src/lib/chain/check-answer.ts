/**
 * Checks an endpoint's answer has the JSON type its method returns before anything decodes it:
 * a quantity is 0x-hex of at most 256 bits, data is 0x followed by whole bytes, a block, receipt
 * or transaction is an object (or null) whose number fields are quantities. A wrong answer
 * becomes RpcBadAnswerError (exit 10) naming the method and a cleaned excerpt of what came,
 * rather than a crash deep inside decoding.
 */
import { remoteText } from '../io/remote-text.js'
import { RpcBadAnswerError } from './errors.js'

const QUANTITY_METHODS = new Set([
  'eth_chainId',
  'eth_blockNumber',
  'eth_getBalance',
  'eth_getTransactionCount',
  'eth_gasPrice',
  'eth_estimateGas',
  'eth_maxPriorityFeePerGas',
  'eth_blobBaseFee',
])
const DATA_METHODS = new Set(['eth_call', 'eth_getCode', 'eth_getStorageAt', 'eth_sendRawTransaction'])
const OBJECT_METHODS = new Set([
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_feeHistory',
])
/** Number fields of blocks, receipts and transactions that viem turns into bigint or number. */
const QUANTITY_FIELDS = [
  'number',
  'timestamp',
  'gasLimit',
  'gasUsed',
  'baseFeePerGas',
  'blockNumber',
  'status',
  'cumulativeGasUsed',
  'effectiveGasPrice',
  'nonce',
  'value',
  'gas',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'transactionIndex',
  'oldestBlock',
]

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a JSON array'
  if (typeof value === 'string') return `"${remoteText(value, 60)}"`
  if (typeof value === 'object') return 'a JSON object'
  return `${typeof value} ${remoteText(value, 40)}`
}

/**
 * @throws RpcBadAnswerError
 * @example checkAnswer(rpcUrl, 'eth_chainId', '0xde7e1')
 */
export function checkAnswer(rpcUrl: string, method: string, result: unknown): void {
  const bad = (problem: string) => new RpcBadAnswerError({ rpcUrl, method, problem })
  if (QUANTITY_METHODS.has(method)) {
    if (typeof result !== 'string' || !QUANTITY.test(result))
      throw bad(`${describe(result)}, not a hex quantity (0x followed by at most 64 hex digits)`)
    return
  }
  if (DATA_METHODS.has(method)) {
    if (typeof result !== 'string' || !DATA.test(result))
      throw bad(`${describe(result)}, not hex data (0x followed by whole bytes in hex)`)
    if (method === 'eth_sendRawTransaction' && result.length !== 66)
      throw bad(`${describe(result)}, not a 32-byte transaction hash`)
    return
  }
  if (OBJECT_METHODS.has(method)) {
    if (result === null && method !== 'eth_feeHistory') return
    if (typeof result !== 'object' || result === null || Array.isArray(result))
      throw bad(`${describe(result)}, not a JSON object`)
    const record = result as Record<string, unknown>
    for (const field of QUANTITY_FIELDS) {
      const value = record[field]
      if (value === undefined || value === null) continue
      if (typeof value !== 'string' || !QUANTITY.test(value))
        throw bad(`a ${field} of ${describe(value)}, not a hex quantity`)
    }
  }
}
