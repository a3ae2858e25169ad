/**
 * The RPC limits with the spec's defaults (node-rpc-namespaces.md, "Limits"; the request-size
 * limit is the reference's `--rpc.max-request-size`, 15 MB), and the check of every value.
 * Zero is accepted only where the spec gives it a meaning (0 = no limit for
 * `--rpc.max-blocks-per-filter` and `--rpc.max-logs-per-response`); elsewhere 0 would make the
 * server unusable (no tracing slot, no connection, no response fits) and is refused. Pure.
 */
import type { RpcValueFlag } from './node-flags.js'
import type { RpcLimits } from './types.js'
import { parseIntegerValue } from './values.js'

const U32_MAX = 4_294_967_295
const SAFE_MAX = Number.MAX_SAFE_INTEGER

export type LimitSpec = {
  flag: RpcValueFlag
  key: keyof RpcLimits
  min: 0 | 1
  max: number
  /** The default; `cpus` is the host's CPU count (only the tracing limit uses it). */
  defaultFor: (cpus: number) => number
  /** How the docs and `rpc plan` describe the default (without the unit). */
  defaultText: string
  /** Unit of the value, shown after it. */
  unit?: 'MB'
}

export const LIMIT_SPECS: readonly LimitSpec[] = [
  {
    flag: '--rpc.max-tracing-requests',
    key: 'maxTracingRequests',
    min: 1,
    max: U32_MAX,
    defaultFor: (cpus) => Math.max(2, Math.floor(cpus) - 2),
    defaultText: 'CPU cores minus 2, at least 2',
  },
  {
    flag: '--rpc.max-trace-filter-blocks',
    key: 'maxTraceFilterBlocks',
    min: 1,
    max: SAFE_MAX,
    defaultFor: () => 100,
    defaultText: '100',
  },
  {
    flag: '--rpc.max-blocks-per-filter',
    key: 'maxBlocksPerFilter',
    min: 0,
    max: SAFE_MAX,
    defaultFor: () => 100_000,
    defaultText: '100000',
  },
  {
    flag: '--rpc.max-logs-per-response',
    key: 'maxLogsPerResponse',
    min: 0,
    max: SAFE_MAX,
    defaultFor: () => 20_000,
    defaultText: '20000',
  },
  { flag: '--rpc.gascap', key: 'gasCap', min: 1, max: SAFE_MAX, defaultFor: () => 50_000_000, defaultText: '50000000' },
  {
    flag: '--rpc.max-response-size',
    key: 'maxResponseSizeMb',
    min: 1,
    max: U32_MAX,
    defaultFor: () => 160,
    defaultText: '160',
    unit: 'MB',
  },
  {
    flag: '--rpc.max-connections',
    key: 'maxConnections',
    min: 1,
    max: U32_MAX,
    defaultFor: () => 500,
    defaultText: '500',
  },
  {
    flag: '--rpc.max-request-size',
    key: 'maxRequestSizeMb',
    min: 1,
    max: U32_MAX,
    defaultFor: () => 15,
    defaultText: '15',
    unit: 'MB',
  },
]

export type ResolvedLimits = {
  limits: RpcLimits
  /** The limits given on the command line (the others are defaults). */
  given: (keyof RpcLimits)[]
  errors: string[]
}

/**
 * @param values the flag values as written (from parseNodeFlags)
 * @param cpus   CPU cores of the host the node runs on
 * @example resolveLimits({ '--rpc.gascap': '30000000' }, 8).limits.maxTracingRequests // 6
 */
export function resolveLimits(values: Partial<Record<RpcValueFlag, string>>, cpus: number): ResolvedLimits {
  const limits = {} as RpcLimits
  const given: (keyof RpcLimits)[] = []
  const errors: string[] = []
  for (const spec of LIMIT_SPECS) {
    const raw = values[spec.flag]
    limits[spec.key] = spec.defaultFor(cpus)
    if (raw === undefined) continue
    const checked = parseIntegerValue(spec.flag, raw, spec.min, spec.max)
    if (checked.error !== null) {
      errors.push(
        spec.min === 1 && /^\s*0+\s*$/.test(raw)
          ? `${spec.flag} 0 is refused: it must be at least 1 (0 means "no limit" only for --rpc.max-blocks-per-filter and --rpc.max-logs-per-response). Leave the flag out for the default, ${spec.defaultText}${spec.unit ? ` ${spec.unit}` : ''}.`
          : checked.error,
      )
      continue
    }
    limits[spec.key] = checked.value
    given.push(spec.key)
  }
  return { limits, given, errors }
}
