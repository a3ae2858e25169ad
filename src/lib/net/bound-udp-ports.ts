/** What /proc says about the UDP ports of this host (Linux; elsewhere null, never guessed). */
import { promises as fs } from 'node:fs'

/**
 * UDP ports bound on this host, with the socket inodes bound to each, from /proc/net/udp and
 * /proc/net/udp6 (`sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid
 * timeout inode`); null without /proc.
 */
export async function boundUdpPorts(procRoot = '/proc'): Promise<Map<number, string[]> | null> {
  const tables = await Promise.all(
    ['udp', 'udp6'].map((t) => fs.readFile(`${procRoot}/net/${t}`, 'utf8').catch(() => null)),
  )
  if (tables.every((t) => t === null)) return null
  const ports = new Map<number, string[]>()
  for (const table of tables) {
    for (const line of (table ?? '').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      const local = cols[1]
      const inode = cols[9]
      if (!local || inode === undefined) continue
      const port = Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16)
      if (!Number.isInteger(port)) continue
      ports.set(port, [...(ports.get(port) ?? []), inode])
    }
  }
  return ports
}
