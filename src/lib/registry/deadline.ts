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
  return inRange(value, parseDeadlineText(value, nowSeconds))
}

/** The last second tnv takes as a deadline: 9999-12-31T23:59:59Z (four-digit years: dates print and parse everywhere). */
export const MAX_DEADLINE = 253_402_300_799n

function inRange(value: string, deadline: bigint): bigint {
  if (deadline > MAX_DEADLINE)
    throw new BadInputError(
      `--deadline ${value.length > 40 ? `${value.slice(0, 40)}…` : value} is beyond 9999-12-31T23:59:59Z, the last date tnv takes.`,
      {
        fix: 'Pass a nearer deadline: Unix seconds (e.g. 1767225600), a duration such as 24h or 7d, or an ISO date such as 2026-01-01T00:00:00Z. A delegation signature should expire soon after the stake is sent.',
      },
    )
  return deadline
}

function parseDeadlineText(value: string, nowSeconds: bigint): bigint {
  const text = value.trim()
  if (text.length > 64)
    throw new BadInputError(`--deadline is ${text.length} characters long, longer than any deadline.`, {
      fix: 'Pass Unix seconds (e.g. 1767225600), a duration such as 24h or 7d, or an ISO date.',
    })
  const relative = /^(\d+)([smhd])$/.exec(text)
  if (relative)
    return nowSeconds + BigInt(relative[1] as string) * BigInt(UNIT_SECONDS[relative[2] as string] as number)
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

/** The deadline as an ISO date; a value outside the dates JavaScript can show (a file's, a chain's) is named as such, never a crash. */
export function deadlineIso(deadline: bigint): string {
  const date = new Date(Number(deadline) * 1000)
  return Number.isNaN(date.getTime()) ? `${deadline} s since 1970 (beyond the date range)` : date.toISOString()
}
