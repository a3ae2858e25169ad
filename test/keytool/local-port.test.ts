/**
 * The local-only p2p port of `keytool generate` (src/lib/keys/local-port.ts): from /proc as the
 * kernel would pick for a bind to port 0 (the ephemeral range, less reserved and bound ports),
 * never twice in one process, and by binding when /proc cannot tell.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { freeUdpPort } from '../../src/lib/keys/local-port.js'

const roots: string[] = []
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true })
})

/** A /proc with the given UDP sockets (IPv4 and IPv6 local ports) and port settings. */
function fakeProc({ v4, v6, range, reserved = '' }: { v4: number[]; v6: number[]; range: string; reserved?: string }) {
  const root = mkdtempSync(join(tmpdir(), 'tnv-proc-'))
  roots.push(root)
  mkdirSync(join(root, 'net'))
  mkdirSync(join(root, 'sys', 'net', 'ipv4'), { recursive: true })
  const header =
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n'
  const line = (i: number, local: string) =>
    `  ${i}: ${local} 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 ${1000 + i} 2 0000000000000000 0\n`
  const hex = (p: number) => p.toString(16).toUpperCase().padStart(4, '0')
  writeFileSync(join(root, 'net', 'udp'), header + v4.map((p, i) => line(i, `0100007F:${hex(p)}`)).join(''))
  writeFileSync(
    join(root, 'net', 'udp6'),
    header + v6.map((p, i) => line(i, `00000000000000000000000000000000:${hex(p)}`)).join(''),
  )
  writeFileSync(join(root, 'sys', 'net', 'ipv4', 'ip_local_port_range'), `${range}\n`)
  writeFileSync(join(root, 'sys', 'net', 'ipv4', 'ip_local_reserved_ports'), `${reserved}\n`)
  return root
}

describe('freeUdpPort', () => {
  it('picks unbound, unreserved ports of the ephemeral range, each once', async () => {
    const proc = fakeProc({ v4: [40000, 40001], v6: [40003], range: '40000\t40009', reserved: '40002,40004-40005' })
    const got = new Set<number>()
    for (let i = 0; i < 4; i++) got.add(await freeUdpPort(proc))
    assert.deepEqual([...got].sort(), [40006, 40007, 40008, 40009])
    // the range is used up: a socket bound to port 0 answers instead, and it is none of those
    const bound = await freeUdpPort(proc)
    assert.ok(Number.isInteger(bound) && bound > 0 && bound < 65536 && !got.has(bound), String(bound))
  })

  it('binds to port 0 where /proc cannot tell (no /proc, an unreadable range)', async () => {
    for (const proc of [join(tmpdir(), 'tnv-no-proc-here'), fakeProc({ v4: [], v6: [], range: 'garbage' })]) {
      const port = await freeUdpPort(proc)
      assert.ok(Number.isInteger(port) && port > 0 && port < 65536, String(port))
    }
  })

  it('on this host: a port of the ephemeral range that nothing has bound', async () => {
    const port = await freeUdpPort()
    assert.ok(Number.isInteger(port) && port > 0 && port < 65536, String(port))
  })
})
