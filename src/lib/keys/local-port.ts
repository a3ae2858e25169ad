/**
 * A free UDP port on 127.0.0.1, for the local-only address used when no external address is
 * given: the kernel's choice for a bind to port 0, released at once. The port is free now, not
 * reserved: the node binds it when it starts, as with the node's own keytool. Ports handed out
 * earlier in the same process are not handed out again.
 */
import { createSocket } from 'node:dgram'

const handedOut = new Set<number>()

/** @example const port = await freeUdpPort() // e.g. 41273 */
export async function freeUdpPort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const socket = createSocket('udp4')
      socket.once('error', reject)
      socket.bind(0, '127.0.0.1', () => {
        const { port } = socket.address()
        socket.close(() => resolve(port))
      })
    })
    if (!handedOut.has(port)) {
      handedOut.add(port)
      return port
    }
  }
}
