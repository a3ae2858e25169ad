/**
 * Delegation deadlines (spec rule 2: a Unix timestamp; the signature is rejected after it).
 * Accepted forms: Unix seconds (`1767225600`), a duration from now (`90m`, `24h`, `7d`), or
 * an ISO 8601 date (`2026-01-01T00:00:00Z`).
 */
import { BadInputError } from '../errors.js'

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 }

/**
 * @example parseDeadline('24h', 1_700_000_000n) // 1_700_086_400n
 */
export function parseDeadline(value: string, nowSeconds: bigint): bigint {
  const text = value.trim()
  const relative = /^(\d+)([smhd])$/.exec(text)
  if (relative) return nowSeconds + BigInt(Number(relative[1]) * (UNIT_SECONDS[relative[2] as string] as number))
  if (/^\d+$/.test(text)) {
    const seconds = BigInt(text)
    if (seconds < 1_000_000_000n)
      throw new BadInputError(`--deadline ${value} looks like a duration without a unit, not a Unix timestamp.`, {
        fix: 'Pass Unix seconds (e.g. 1767225600), a duration such as 24h or 7d, or an ISO date.',
      })
    return seconds
  }
  const ms = Date.parse(text)
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(ms)) return BigInt(Math.floor(ms / 1000))
  throw new BadInputError(`--deadline ${value} is not a deadline tnv understands.`, {
    fix: 'Pass Unix seconds (e.g. 1767225600), a duration such as 90m, 24h or 7d, or an ISO date such as 2026-01-01T00:00:00Z.',
  })
}

export function deadlineIso(deadline: bigint): string {
  return new Date(Number(deadline) * 1000).toISOString()
}
