/**
 * The request limits of the spec's Limits table that need a look inside a request or an
 * answer: --rpc.gascap, --rpc.max-blocks-per-filter, --rpc.max-logs-per-response and
 * --rpc.max-trace-filter-blocks. A block range is `toBlock - fromBlock`, as the reference
 * (reth) measures it: with a limit of 100, blocks 0 to 100 pass and 0 to 101 do not.
 */
import { ErrorCode, RpcAnswerError } from './jsonrpc.js'

type TxObject = Record<string, unknown>

function isObject(v: unknown): v is TxObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function toBigInt(v: unknown): bigint | null {
  try {
    if (typeof v === 'string' && v.length > 0) return BigInt(v)
    if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v)
  } catch {
    // not a number: the engine will answer the bad value
  }
  return null
}

const hex = (n: bigint) => `0x${n.toString(16)}`

/** The call objects of a gas-capped method's params, with a setter for each. */
function callObjects(method: string, params: unknown[]): TxObject[] {
  const first = params[0]
  switch (method) {
    case 'trace_callMany':
      return Array.isArray(first) ? first.flatMap((e) => (Array.isArray(e) && isObject(e[0]) ? [e[0]] : [])) : []
    case 'debug_traceCallMany':
      return Array.isArray(first)
        ? first.flatMap((b) => (isObject(b) && Array.isArray(b.transactions) ? b.transactions.filter(isObject) : []))
        : []
    case 'eth_simulateV1':
      return isObject(first) && Array.isArray(first.blockStateCalls)
        ? first.blockStateCalls.flatMap((b) => (isObject(b) && Array.isArray(b.calls) ? b.calls.filter(isObject) : []))
        : []
    default:
      return isObject(first) ? [first] : []
  }
}

/** Methods bounded by --rpc.gascap (spec: eth_call, eth_estimateGas, the debug and trace call methods). */
export function isGasCappedMethod(method: string): boolean {
  return (
    method === 'eth_call' ||
    method === 'eth_estimateGas' ||
    method === 'eth_createAccessList' ||
    method === 'eth_simulateV1' ||
    method === 'debug_traceCall' ||
    method === 'debug_traceCallMany' ||
    method === 'trace_call' ||
    method === 'trace_callMany'
  )
}

/**
 * Caps the gas of every call in the params at `cap`: a larger `gas` is lowered to the cap;
 * a call without `gas` gets the cap unless the engine's own default (`engineDefault`, its
 * block gas limit) is already within it. Returns new params, or null when nothing changed
 * (so the client's bytes can travel unchanged).
 */
export function capCallGas(
  method: string,
  params: unknown,
  cap: bigint,
  engineDefault: bigint | null,
): unknown[] | null {
  if (!Array.isArray(params)) return null
  const needsCap = (call: TxObject): boolean => {
    const given = toBigInt(call.gas ?? call.gasLimit)
    if (given !== null) return given > cap
    if (call.gas !== undefined || call.gasLimit !== undefined) return false // malformed: the engine says so
    return engineDefault === null || engineDefault > cap
  }
  if (!callObjects(method, params).some(needsCap)) return null
  const copy = structuredClone(params) as unknown[]
  for (const call of callObjects(method, copy)) {
    if (!needsCap(call)) continue
    delete call.gasLimit
    call.gas = hex(cap)
  }
  return copy
}

/** A block reference in a filter: a number, a tag meaning the head, or earliest. */
function blockNumberOf(ref: unknown, head: bigint): bigint | null {
  if (ref === undefined || ref === null) return head
  if (ref === 'latest' || ref === 'pending' || ref === 'safe' || ref === 'finalized') return head
  if (ref === 'earliest') return 0n
  return toBigInt(ref)
}

function needsHead(ref: unknown): boolean {
  return typeof ref !== 'string' || !ref.startsWith('0x')
}

/** The block range of a log filter, or null for a single-block (blockHash) or malformed filter. */
export async function filterRange(
  filter: unknown,
  head: () => Promise<bigint>,
): Promise<{ from: bigint; to: bigint } | null> {
  if (!isObject(filter) || filter.blockHash !== undefined) return null
  const h = needsHead(filter.fromBlock) || needsHead(filter.toBlock) ? await head() : 0n
  const from = blockNumberOf(filter.fromBlock, h)
  const to = blockNumberOf(filter.toBlock, h)
  if (from === null || to === null) return null
  return { from, to }
}

/** --rpc.max-blocks-per-filter (0 = no limit). */
export function checkFilterRange(range: { from: bigint; to: bigint } | null, max: number): void {
  if (!range || max === 0 || range.to < range.from) return
  const span = range.to - range.from
  if (span > BigInt(max)) {
    throw new RpcAnswerError(
      ErrorCode.InvalidParams,
      `query exceeds max block range ${max}: blocks ${range.from} to ${range.to} span ${span} (--rpc.max-blocks-per-filter); narrow fromBlock and toBlock`,
    )
  }
}

/** --rpc.max-trace-filter-blocks. */
export function checkTraceFilterRange(range: { from: bigint; to: bigint } | null, max: number): void {
  if (!range || range.to < range.from) return
  const span = range.to - range.from
  if (span > BigInt(max)) {
    throw new RpcAnswerError(
      ErrorCode.InvalidParams,
      `Block range too large; currently limited to ${max} blocks: blocks ${range.from} to ${range.to} span ${span} (--rpc.max-trace-filter-blocks)`,
    )
  }
}

/**
 * --rpc.max-logs-per-response (0 = no limit). The error names a narrower range that fits:
 * up to the block before the first log past the limit.
 */
export function checkLogCount(logs: unknown, max: number, range: { from: bigint; to: bigint } | null): void {
  if (max === 0 || !Array.isArray(logs) || logs.length <= max) return
  const firstOver = toBigInt((logs[max] as { blockNumber?: unknown } | undefined)?.blockNumber)
  const from = range?.from ?? toBigInt((logs[0] as { blockNumber?: unknown } | undefined)?.blockNumber)
  const retry =
    from !== null && firstOver !== null && firstOver > from
      ? `; retry with the range ${from}-${firstOver - 1n}`
      : '; narrow the range or the address and topics'
  throw new RpcAnswerError(
    ErrorCode.InvalidParams,
    `query exceeds max results ${max} (--rpc.max-logs-per-response): ${logs.length} logs match${retry}`,
  )
}
