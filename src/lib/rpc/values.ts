/**
 * Numeric and address values of the node's RPC flags, checked the way the node parses them:
 * decimal digits only (leading zeros allowed, no sign, no `0x`, no `_`, no fraction), within
 * the flag's range. Pure; a bad value gives an error string that says what to write.
 */
import { ipFamily } from '../net/ip-literal.js'
import { canonicalIp } from './loopback.js'

export type Checked<T> = { value: T; error: null } | { value: null; error: string }

/** An integer flag value within [min, max]. */
export function parseIntegerValue(flag: string, raw: string, min: number, max: number): Checked<number> {
  const text = raw.trim()
  if (!/^\d+$/.test(text)) {
    return {
      value: null,
      error: `${flag} "${raw}" is not a whole number: write it in decimal digits (no sign, unit, 0x or _).`,
    }
  }
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    return { value: null, error: `${flag} ${text} is out of range: it must be from ${min} to ${max}.` }
  }
  return { value: n, error: null }
}

/**
 * A TCP port: 1 to 65535. Port 0 (let the OS pick) is refused: clients, the worker-port rule
 * and `tnv rpc check` could not know the port.
 */
export function parsePort(flag: string, raw: string): Checked<number> {
  const checked = parseIntegerValue(flag, raw, 0, 65535)
  if (checked.value === 0) {
    return {
      value: null,
      error: `${flag} 0 asks the OS for a random port, which no client can know. Give a port from 1 to 65535.`,
    }
  }
  if (checked.error !== null && /^\d+$/.test(raw.trim())) {
    return { value: null, error: `${flag} ${raw.trim()} is not a TCP port: give a port from 1 to 65535.` }
  }
  return checked
}

/** A listen address: an IPv4 or IPv6 literal without brackets (the node takes an IP address, not a host name). */
export function parseListenAddress(flag: string, raw: string): Checked<string> {
  const text = raw.trim()
  if (ipFamily(text) !== 0) return { value: canonicalIp(text), error: null }
  const hint =
    text.startsWith('[') && text.endsWith(']')
      ? ` Write the IPv6 address without brackets: ${flag} ${text.slice(1, -1)}.`
      : text === 'localhost'
        ? ` Write ${flag} 127.0.0.1.`
        : ` Write an IP address such as 127.0.0.1 (this host only) or 0.0.0.0 (every interface).`
  return { value: null, error: `${flag} "${raw}" is not an IP address.${hint}` }
}
