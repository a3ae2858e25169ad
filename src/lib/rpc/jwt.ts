import { jwtVerify, SignJWT } from 'jose'
import { TnvError } from '../errors.js'
import { readSmallFile } from '../fs/read-small-file.js'
import { InvalidJwtSecretError, JwtSecretFileError } from './errors.js'

/** Largest distance between `iat` and the verifier's clock, in seconds (engine API: ±60 s). */
export const JWT_MAX_SKEW_SECONDS = 60

/**
 * Checks a hex secret and returns it normalised (64 lowercase hex digits, no 0x).
 * @param label where the secret came from, for the error ("given", "in /path/jwt.hex")
 * @throws InvalidJwtSecretError (says the length or the bad characters, never the secret)
 */
export function parseJwtSecretHex(hex: string, label = 'given'): string {
  const digits = hex.trim().replace(/^0x/i, '')
  if (digits.length === 0) throw new InvalidJwtSecretError(label, 'it is empty')
  if (!/^[0-9a-fA-F]+$/.test(digits))
    throw new InvalidJwtSecretError(label, 'it contains characters that are not hex digits')
  if (digits.length !== 64) {
    const bytes = digits.length % 2 === 0 ? `${digits.length / 2} bytes` : `${digits.length} hex digits`
    throw new InvalidJwtSecretError(label, `expected 32 bytes (64 hex digits), got ${bytes}`)
  }
  return digits.toLowerCase()
}

/**
 * Reads a JWT secret given as HEX or as @FILE (a file holding the hex; surrounding whitespace
 * ignored). Returns the normalised hex.
 * @example await readJwtSecret('@/etc/tn/jwt.hex')
 * @throws JwtSecretFileError, InvalidJwtSecretError
 */
export async function readJwtSecret(value: string): Promise<string> {
  if (!value.startsWith('@')) return parseJwtSecretHex(value)
  const path = value.slice(1)
  let text: string
  try {
    text = await readSmallFile(path, { what: 'a JWT secret file', maxBytes: 4096 })
  } catch (err) {
    if (err instanceof TnvError) throw err
    throw new JwtSecretFileError(path, err)
  }
  return parseJwtSecretHex(text, `in ${path}`)
}

function keyOf(secretHex: string): Uint8Array {
  return Buffer.from(parseJwtSecretHex(secretHex), 'hex')
}

/**
 * A bearer token for a node started with `--rpc.jwtsecret <secretHex>`.
 * @param iat issued-at, seconds since the epoch (default: now)
 * @example const token = await createJwt(secret); fetch(url, { headers: { authorization: `Bearer ${token}` } })
 */
export async function createJwt(secretHex: string, { iat }: { iat?: number } = {}): Promise<string> {
  const key = keyOf(secretHex)
  try {
    return await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat ?? Math.floor(Date.now() / 1000))
      .sign(key)
  } finally {
    key.fill(0)
  }
}

export type JwtVerification = { valid: true; iat: number } | { valid: false; reason: string }

export type VerifyJwtOptions = {
  /** The verifier's clock, seconds since the epoch (default: now). */
  now?: number
  /** Allowed distance between `iat` and `now`, seconds (default 60). */
  skewSeconds?: number
}

/**
 * Verifies a token the way the node does: HS256 signature with the secret, and an `iat`
 * claim within `skewSeconds` of `now` (either side). Never throws for a bad token; throws
 * InvalidJwtSecretError for a bad secret.
 * @example
 * const r = await verifyJwt(token, secret)
 * if (!r.valid) respond401(r.reason)
 */
export async function verifyJwt(
  token: string,
  secretHex: string,
  { now = Math.floor(Date.now() / 1000), skewSeconds = JWT_MAX_SKEW_SECONDS }: VerifyJwtOptions = {},
): Promise<JwtVerification> {
  const key = keyOf(secretHex)
  try {
    // exp/nbf, when present, are checked by jose against the same clock
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(now * 1000) })
    if (typeof payload.iat !== 'number') return { valid: false, reason: 'the token has no iat claim' }
    if (Math.abs(now - payload.iat) > skewSeconds) {
      return {
        valid: false,
        reason: `iat is ${payload.iat - now} s from the server's clock (allowed: ±${skewSeconds} s)`,
      }
    }
    return { valid: true, iat: payload.iat }
  } catch (err) {
    return { valid: false, reason: err instanceof Error ? err.message : String(err) }
  } finally {
    key.fill(0)
  }
}

/**
 * Verifies an HTTP `Authorization` header (`Bearer <token>`, scheme case-insensitive).
 * For servers: a missing or malformed header is invalid with a reason.
 */
export async function verifyAuthorizationHeader(
  header: string | undefined,
  secretHex: string,
  options: VerifyJwtOptions = {},
): Promise<JwtVerification> {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match?.[1])
    return {
      valid: false,
      reason: header === undefined ? 'no Authorization header' : 'the Authorization header is not "Bearer <token>"',
    }
  return verifyJwt(match[1], secretHex, options)
}
