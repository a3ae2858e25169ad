/**
 * Which IP address literal a text is, by the grammar the node itself parses addresses with:
 * @chainsafe/is-ip's parser is a port of Rust's std::net parser, which the node's flags
 * (`--http.addr`, an IpAddr) and multiaddrs (rust-multiaddr) use. Whole text only: no brackets,
 * no surrounding space, no zone id (`fe80::1%eth0`, which std::net's Ipv6Addr refuses).
 * @example ipFamily('127.0.0.1') // 4
 */
import { parseIPv4, parseIPv6 } from '@chainsafe/is-ip/parse'

export function ipFamily(text: string): 0 | 4 | 6 {
  if (text.includes('%')) return 0
  return parseIPv4(text) ? 4 : parseIPv6(text) ? 6 : 0
}
