/** A free UDP port on 127.0.0.1, for the local-only address used when no external address is given. */
import { createSocket } from 'node:dgram'

export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4')
    socket.once('error', reject)
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address()
      socket.close(() => resolve(port))
    })
  })
}
