/**
 * The guard of `tnv offline sign`: once installed, every socket API of the process throws
 * NetworkForbidden (in a child process, so the test runner keeps its own network).
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { describe, it } from 'node:test'
import { ROOT } from '../helpers/paths.js'

const probe = `
import { forbidNetwork } from './src/lib/offline/no-network.ts'
import net from 'node:net'
import { connect as tlsConnect } from 'node:tls'
forbidNetwork()
const { request } = await import('node:http')
const dgram = await import('node:dgram')
const dns = await import('node:dns')
const tries = {
  'net.connect': () => net.connect(80, '127.0.0.1'),
  'new Socket().connect': () => new net.Socket().connect(80, '127.0.0.1'),
  'tls.connect': () => tlsConnect(443, '127.0.0.1'),
  'http.request': () => request('http://127.0.0.1/'),
  'dgram.createSocket': () => dgram.createSocket('udp4'),
  'dns.lookup': () => dns.lookup('localhost', () => {}),
  fetch: () => fetch('http://127.0.0.1/'),
}
const out = {}
for (const [name, f] of Object.entries(tries)) {
  try { await f(); out[name] = 'opened' } catch (e) { out[name] = e.code ?? e.message }
}
process.stdout.write(JSON.stringify(out))
`

describe('offline sign: the network guard', () => {
  it('every socket API throws NetworkForbidden once the guard is installed', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      let text = ''
      child.stdout.on('data', (d) => {
        text += d
      })
      child.on('error', reject)
      child.on('close', () => resolve(text))
    })
    const result = JSON.parse(out) as Record<string, string>
    for (const [name, code] of Object.entries(result)) assert.equal(code, 'NetworkForbidden', name)
    assert.equal(Object.keys(result).length, 7)
  })
})
