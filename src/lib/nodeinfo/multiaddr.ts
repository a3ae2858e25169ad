/**
 * The p2p multiaddrs keytool accepts and writes (reference-facts: Network keys):
 * `/ip4|ip6|dns4|dns6/<host>/udp/<port>/quic-v1`, and in node-info.yaml the same followed by
 * `/p2p/<peer id>`. The form is this narrow on purpose (the node listens on QUIC over UDP
 * only), so it is checked here directly rather than through a general multiaddr parser.
 */
import { ipFamily } from '../net/ip-literal.js'
import { InvalidMultiaddrError } from './errors.js'

export type P2pAddress = {
  protocol: 'ip4' | 'ip6' | 'dns4' | 'dns6'
  host: string
  port: number
  /** The `/p2p/<peer id>` suffix, when present. */
  peerId?: string
}

const DNS_NAME =
  /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/
const PEER_ID = /^[1-9A-HJ-NP-Za-km-z]+$/

/**
 * Parses a p2p multiaddr of the accepted form.
 * @example parseP2pAddress('/ip4/203.0.113.10/udp/49590/quic-v1', '--external-primary-addr')
 */
export function parseP2pAddress(value: string, label: string): P2pAddress {
  const fail = (problem: string): never => {
    throw new InvalidMultiaddrError(label, value, problem)
  }
  if (!value.startsWith('/')) fail('is not a multiaddr (it must start with /)')
  const parts = value.split('/').slice(1)
  const [protocol, host, transport, portText, quic, ...rest] = parts
  if (protocol !== 'ip4' && protocol !== 'ip6' && protocol !== 'dns4' && protocol !== 'dns6')
    fail(`starts with /${protocol ?? ''}; only /ip4, /ip6, /dns4 and /dns6 are accepted`)
  const proto = protocol as P2pAddress['protocol']
  if (!host) fail('has no host')
  const h = host as string
  if (proto === 'ip4' && ipFamily(h) !== 4) fail(`has "${h}", which is not an IPv4 address`)
  if (proto === 'ip6' && ipFamily(h) !== 6) fail(`has "${h}", which is not an IPv6 address`)
  if ((proto === 'dns4' || proto === 'dns6') && !DNS_NAME.test(h)) fail(`has "${h}", which is not a DNS name`)
  if (transport !== 'udp') fail(`uses /${transport ?? ''}; the node speaks QUIC, so it must be /udp/<port>/quic-v1`)
  if (!portText || !/^[1-9][0-9]{0,4}$/.test(portText) || Number(portText) > 65535)
    fail(`has port "${portText ?? ''}"; a port is 1 to 65535`)
  if (quic !== 'quic-v1') fail(`ends its transport with /${quic ?? ''}; it must be /udp/<port>/quic-v1`)
  let peerId: string | undefined
  if (rest.length > 0) {
    const [p2p, id, ...more] = rest
    if (p2p !== 'p2p' || !id || more.length > 0)
      fail(`has "/${rest.join('/')}" after /quic-v1; only /p2p/<peer id> may follow`)
    if (!PEER_ID.test(id as string)) fail(`has a /p2p/ part "${id}" that is not a base58 peer id`)
    peerId = id
  }
  return { protocol: proto, host: h, port: Number(portText), ...(peerId ? { peerId } : {}) }
}

/** The multiaddr text without its `/p2p/` part. */
export function formatP2pAddress({ protocol, host, port, peerId }: P2pAddress): string {
  return `/${protocol}/${host}/udp/${port}/quic-v1${peerId ? `/p2p/${peerId}` : ''}`
}

/**
 * The `network_address` for a node: the external multiaddr plus `/p2p/<peer id>`. An address
 * that already carries the same peer id is accepted as is; a different one is an error.
 */
export function withPeerId(value: string, peerId: string, label: string): string {
  const addr = parseP2pAddress(value, label)
  if (addr.peerId && addr.peerId !== peerId)
    throw new InvalidMultiaddrError(
      label,
      value,
      `already carries /p2p/${addr.peerId}, but these keys have peer id ${peerId}`,
    )
  return formatP2pAddress({ ...addr, peerId })
}
