/**
 * Which IP address literal a text is, by the grammar the node itself parses addresses with:
 * @chainsafe/is-ip's parser is a port of Rust's std::net parser, which the node's flags
 * (`--http.addr`, an IpAddr) and multiaddrs (rust-multiaddr) use. Whole text only: no brackets,
 * no surrounding space, no zone id (`fe80::1%eth0`, which std::net's Ipv6Addr refuses).
 *
 * Not node:net's isIP: loading node:net (its streams and TCP handles) for a text check cost
 * `tnv rpc plan`, which opens no socket, about 5 to 9 ms (docs/benchmarks.md, Start-up).
 * @example ipFamily('127.0.0.1') // 4
 */
import { parseIPv4, parseIPv6 } from '@chainsafe/is-ip/parse'

export function ipFamily(text: string): 0 | 4 | 6 {
  if (text.includes('%')) return 0
  return parseIPv4(text) ? 4 : parseIPv6(text) ? 6 : 0
}
