import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      if (addr && typeof addr === 'object') {
        const { port } = addr
        srv.close(() => resolve(port))
      } else reject(new Error('no port'))
    })
  })
}

/** The kernel's ephemeral range: bind(0) and outgoing connections only ever take ports inside it. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)
    if (low && high) return [low, high]
  } catch {}
  return [32768, 60999]
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer()
    srv.unref()
    srv.once('error', () => resolve(false))
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
  })
}

/**
 * `count` consecutive free ports on 127.0.0.1, below the kernel's ephemeral range. For a node
 * whose workers derive ports above the configured ones (src/lib/rpc/workers.ts): a port that
 * freePort() found free and then released may be taken by any other process's bind(0) or
 * outgoing connection before the node binds it, and so may the ports above it; below the
 * ephemeral range only another explicit bind can take them, and the start is random so
 * parallel test files do not pick the same block.
 */
export async function freePortBlock(count: number): Promise<number[]> {
  const [low] = ephemeralRange()
  const floor = 10_000
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = floor + Math.floor(Math.random() * (low - floor - count))
    const ports = Array.from({ length: count }, (_, i) => base + i)
    let free = true
    for (const p of ports) if (!(await bindable(p))) free = false
    if (free) return ports
  }
  throw new Error(`no ${count} consecutive free ports between ${floor} and ${low}`)
}
