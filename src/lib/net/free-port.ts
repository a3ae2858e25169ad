/** A free TCP port on 127.0.0.1, chosen by the OS. */
import { createServer } from 'node:net'

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      if (address && typeof address === 'object') {
        const { port } = address
        server.close(() => resolve(port))
      } else server.close(() => reject(new Error('the OS gave no port')))
    })
  })
}
