/**
 * The local-only p2p port of `keytool generate` (src/lib/keys/local-port.ts): a port nothing has
 * bound, never twice in one process.
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import { describe, it } from 'node:test'
import { freeUdpPort } from '../../src/lib/keys/local-port.js'

/** Binds 127.0.0.1:port over UDP and releases it; rejects when something holds it. */
function bindOnce(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4')
    socket.once('error', reject)
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve()))
  })
}

describe('freeUdpPort', () => {
  it('a port that can be bound now, and a different one on each call', async () => {
    const ports = [await freeUdpPort(), await freeUdpPort(), await freeUdpPort()]
    assert.equal(new Set(ports).size, 3, String(ports))
    for (const port of ports) {
      assert.ok(Number.isInteger(port) && port > 0 && port < 65536, String(port))
      await bindOnce(port)
    }
  })
})
