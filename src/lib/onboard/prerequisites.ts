/**
 * The spec's prerequisites, as far as tnv can see them from here: the p2p host (a static
 * public IP, not a loopback or private one), the UDP ports of the primary and the worker
 * (49590 and 49594 by convention; tnv cannot see a firewall, so it names them to open), the
 * node binary, and whether the wallet covers the stake.
 */

import { formatTelAndWei } from '../chain/units.js'
import { ipFamily } from '../net/ip-literal.js'
import { parseP2pAddress } from '../nodeinfo/multiaddr.js'
import type { NodeInfo } from '../nodeinfo/types.js'

export type Prerequisite = {
  name: 'public-ip' | 'udp-ports' | 'node-binary' | 'balance'
  /** true: met; false: not met; null: tnv cannot tell (the operator checks). */
  ok: boolean | null
  detail: string
}

export type CheckPrerequisitesParameters = {
  info: NodeInfo
  /** The node binary's path, or the reason it was not found. */
  nodeBinary: { path: string } | { error: string }
  /** wei */
  balance: bigint
  /** wei */
  stakeAmount: bigint
  /** The validator already staked: the balance no longer matters. */
  staked: boolean
}

export function checkPrerequisites({
  info,
  nodeBinary,
  balance,
  stakeAmount,
  staked,
}: CheckPrerequisitesParameters): Prerequisite[] {
  const primary = parseP2pAddress(info.primary.networkAddress, 'primary')
  const workers = info.workers.map((w, i) => parseP2pAddress(w.networkAddress, `worker ${i}`))
  const local = isLocalHost(primary.host)
  const ports = [primary.port, ...workers.map((w) => w.port)]
  return [
    {
      name: 'public-ip',
      ok: local ? false : null,
      detail: local
        ? `p2p host ${primary.host} is local-only: other validators cannot reach it (fine for a devnet; for a real network regenerate the keys with --external-primary-addr/--external-worker-addrs)`
        : `p2p host ${primary.host}: make sure it is a static public address with a reliable, low-latency connection`,
    },
    {
      name: 'udp-ports',
      ok: null,
      detail: `open UDP ${ports.join(' and ')} for peer-to-peer traffic (primary, worker)${ports[0] === 49590 && ports[1] === 49594 ? '' : '; the convention is 49590 and 49594'}`,
    },
    'path' in nodeBinary
      ? { name: 'node-binary', ok: true, detail: `node binary ${nodeBinary.path}` }
      : { name: 'node-binary', ok: false, detail: nodeBinary.error },
    {
      name: 'balance',
      ok: staked ? true : balance > stakeAmount,
      detail: staked
        ? `wallet balance ${formatTelAndWei(balance)} (already staked)`
        : `wallet balance ${formatTelAndWei(balance)}; the stake is ${formatTelAndWei(stakeAmount)} plus gas`,
    },
  ]
}

function isLocalHost(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true
  if (ipFamily(host) !== 4) return false
  const [a = 0, b = 0] = host.split('.').map(Number)
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || a === 0
}
