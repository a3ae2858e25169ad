/**
 * Access rules of the HTTP and WebSocket servers: the JWT bearer token (--rpc.jwtsecret;
 * IPC never needs one), the browser origins allowed by --http.corsdomain and --ws.origins.
 * Verification is the RPC library's (src/lib/rpc/jwt.ts); a token already verified is
 * remembered with its `iat`, so a client reusing it costs a map lookup, and is still refused
 * once its `iat` is more than 60 s from the clock.
 */
import { JWT_MAX_SKEW_SECONDS, verifyAuthorizationHeader } from '../../lib/rpc/jwt.js'

export type JwtGate = (authorization: string | undefined) => Promise<{ ok: true } | { ok: false; reason: string }>

const MAX_REMEMBERED = 1024

/** A gate for one secret; null secret = no authentication (the spec's default). */
export function createJwtGate(secretHex: string | null): JwtGate | null {
  if (secretHex === null) return null
  const verified = new Map<string, number>()
  return async (authorization) => {
    const now = Math.floor(Date.now() / 1000)
    if (authorization !== undefined) {
      const iat = verified.get(authorization)
      if (iat !== undefined) {
        if (Math.abs(now - iat) <= JWT_MAX_SKEW_SECONDS) return { ok: true }
        verified.delete(authorization)
      }
    }
    const result = await verifyAuthorizationHeader(authorization, secretHex, { now })
    if (!result.valid) return { ok: false, reason: result.reason }
    if (verified.size >= MAX_REMEMBERED) verified.clear()
    verified.set(authorization as string, result.iat)
    return { ok: true }
  }
}

/**
 * Whether a browser origin may call: requests without an Origin header (not from a browser)
 * always may; otherwise the origin must be listed, or the list must hold `*`. With no list
 * (the flag not given) no browser origin may.
 */
export function originAllowed(origin: string | undefined, allowed: readonly string[] | null): boolean {
  if (origin === undefined) return true
  if (allowed === null) return false
  const o = normalizeOrigin(origin)
  return allowed.some((a) => a === '*' || normalizeOrigin(a) === o)
}

function normalizeOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '')
}
