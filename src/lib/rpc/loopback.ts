/**
 * What counts as "loopback" for the spec's safety advice (Authentication, item 3): an address
 * only this host can reach. Loopback: 127.0.0.0/8, ::1, ::ffff:127.x.y.z and the name
 * `localhost`. Everything else is non-loopback, including the wildcards 0.0.0.0 and :: (they
 * listen on every interface) and any other host name (tnv cannot know where it resolves;
 * `tnv rpc check` resolves names before it decides). Pure.
 */
import { ipFamily } from '../net/ip-literal.js'

/** Strips the brackets of a URL-style IPv6 literal (`[::1]` → `::1`) and lowercases. */
function bare(address: string): string {
  const a = address.trim().toLowerCase()
  return a.startsWith('[') && a.endsWith(']') ? a.slice(1, -1) : a
}

export function isLoopbackAddress(address: string): boolean {
  const a = bare(address)
  if (a === 'localhost') return true
  const family = ipFamily(a)
  if (family === 4) return a.startsWith('127.')
  if (family === 6) {
    const canonical = canonicalIp(a)
    // IPv4-mapped loopback canonicalises to hex: ::ffff:127.0.0.1 → ::ffff:7f00:1 (0x7f = 127)
    return canonical === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canonical)
  }
  return false
}

/** 0.0.0.0 or :: : the server listens on every interface of the host. */
export function isWildcardAddress(address: string): boolean {
  const a = bare(address)
  if (ipFamily(a) === 4) return a === '0.0.0.0'
  if (ipFamily(a) === 6) return canonicalIp(a) === '::'
  return false
}

/** The canonical text of an IP address (IPv6 compressed and lowercase; IPv4 unchanged). Other text is returned as is. */
export function canonicalIp(address: string): string {
  const a = bare(address)
  if (ipFamily(a) !== 6) return a
  return new URL(`http://[${a}]/`).hostname.slice(1, -1)
}
