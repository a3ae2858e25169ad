/**
 * A free UDP port on 127.0.0.1, for the local-only address used when no external address is given.
 *
 * On Linux it is chosen the way the kernel chooses one for a bind to port 0, without binding: a
 * random port of the ephemeral range (/proc/sys/net/ipv4/ip_local_port_range, less
 * ip_local_reserved_ports) that /proc/net/udp and udp6 show unbound. Binding with node:dgram
 * loads Node's cluster, child_process and net modules on the way (about 40 ms of CPU in
 * `keytool generate`, where it shares the machine with the key derivation: docs/benchmarks.md).
 * Elsewhere, or when /proc cannot be read, a socket is bound to port 0 and released. Either way
 * the port is free now, not reserved: the node binds it when it starts, as with the node's own
 * keytool. Ports handed out earlier in the same process are not handed out again.
 */
import { createSocket } from 'node:dgram'
import { promises as fs } from 'node:fs'
import { boundUdpPorts } from '../net/bound-udp-ports.js'

const handedOut = new Set<number>()

export async function freeUdpPort(procRoot = '/proc'): Promise<number> {
  const port = (await fromProc(procRoot)) ?? (await fromBind())
  handedOut.add(port)
  return port
}

async function fromProc(procRoot: string): Promise<number | undefined> {
  const [bound, range, reserved] = await Promise.all([
    boundUdpPorts(procRoot),
    fs.readFile(`${procRoot}/sys/net/ipv4/ip_local_port_range`, 'utf8').catch(() => null),
    fs.readFile(`${procRoot}/sys/net/ipv4/ip_local_reserved_ports`, 'utf8').catch(() => ''),
  ])
  const m = range === null ? null : /^\s*(\d+)\s+(\d+)\s*$/.exec(range)
  if (!bound || !m) return undefined
  const low = Number(m[1])
  const high = Number(m[2])
  if (!(low >= 1 && low <= high && high <= 65535)) return undefined
  const reservedRanges = parseReserved(reserved)
  const unavailable = (p: number) =>
    bound.has(p) || handedOut.has(p) || reservedRanges.some(([a, b]) => p >= a && p <= b)
  // from a random start, the first available port going up (and round): as bind(0) scans
  const span = high - low + 1
  const start = Math.floor(Math.random() * span)
  for (let i = 0; i < span; i++) {
    const port = low + ((start + i) % span)
    if (!unavailable(port)) return port
  }
  return undefined
}

/** ip_local_reserved_ports (`8080,9000-9010`, empty when none) as [first, last] ranges. */
function parseReserved(text: string): [number, number][] {
  const ranges: [number, number][] = []
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part)
    if (m) ranges.push([Number(m[1]), Number(m[2] ?? m[1])])
  }
  return ranges
}

async function fromBind(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const socket = createSocket('udp4')
      socket.once('error', reject)
      socket.bind(0, '127.0.0.1', () => {
        const { port } = socket.address()
        socket.close(() => resolve(port))
      })
    })
    if (!handedOut.has(port)) return port
  }
}
