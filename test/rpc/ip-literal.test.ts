/**
 * IP literals as the node parses them (Rust's std::net, through clap for --http.addr and
 * rust-multiaddr for /ip4 and /ip6): src/lib/net/ip-literal.ts. The expectations are std::net's
 * documented grammar: four decimal octets without leading zeros, RFC 4291 text for IPv6 (one
 * `::`, an embedded IPv4 tail), nothing around the address, no zone id.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ipFamily } from '../../src/lib/net/ip-literal.js'
import { isLoopbackAddress, isWildcardAddress } from '../../src/lib/rpc/loopback.js'
import { parseListenAddress } from '../../src/lib/rpc/values.js'

const CASES: [string, 0 | 4 | 6][] = [
  ['127.0.0.1', 4],
  ['0.0.0.0', 4],
  ['255.255.255.255', 4],
  ['256.0.0.1', 0],
  ['1.2.3', 0],
  ['1.2.3.4.5', 0],
  ['01.2.3.4', 0],
  ['0x7f.0.0.1', 0],
  ['::', 6],
  ['::1', 6],
  ['2001:DB8::1', 6],
  ['::ffff:127.0.0.1', 6],
  ['1:2:3:4:5:6:1.2.3.4', 6],
  ['1:2:3:4:5:6:7:8', 6],
  ['1:2:3:4:5:6:7:8:9', 0],
  ['1::2::3', 0],
  ['12345::', 0],
  ['[::1]', 0],
  ['fe80::1%eth0', 0],
  ['fe80::1%', 0],
  [' 1.2.3.4', 0],
  ['1.2.3.4\n', 0],
  ['localhost', 0],
  ['', 0],
]

describe('ipFamily', () => {
  for (const [text, family] of CASES)
    it(`${JSON.stringify(text)} → ${family}`, () => assert.equal(ipFamily(text), family))
})

describe('the RPC address checks on it', () => {
  it('listen addresses: literals only, IPv6 canonicalised, zone ids refused', () => {
    assert.deepEqual(parseListenAddress('--http.addr', '0.0.0.0'), { value: '0.0.0.0', error: null })
    assert.deepEqual(parseListenAddress('--http.addr', '0:0::0:1'), { value: '::1', error: null })
    for (const bad of ['fe80::1%eth0', '[::1]', 'localhost', '01.2.3.4'])
      assert.match(parseListenAddress('--http.addr', bad).error ?? '', /is not an IP address/)
  })

  it('loopback and wildcard', () => {
    assert.equal(isLoopbackAddress('127.5.6.7'), true)
    assert.equal(isLoopbackAddress('[::1]'), true)
    assert.equal(isLoopbackAddress('::ffff:127.0.0.1'), true)
    assert.equal(isLoopbackAddress('fe80::1%lo'), false)
    assert.equal(isLoopbackAddress('0.0.0.0'), false)
    assert.equal(isWildcardAddress('0:0::0'), true)
    assert.equal(isWildcardAddress('0.0.0.0'), true)
    assert.equal(isWildcardAddress('127.0.0.1'), false)
  })
})
