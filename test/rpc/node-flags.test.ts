/** The node argument parser: both value forms, switches, duplicates, missing values, passthrough. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isLoopbackAddress, isWildcardAddress } from '../../src/lib/rpc/loopback.js'
import { parseNodeFlags, RPC_NODE_FLAGS } from '../../src/lib/rpc/node-flags.js'

describe('parseNodeFlags', () => {
  it('reads --flag value and --flag=value alike', () => {
    const a = parseNodeFlags(['--http', '--http.api', 'eth,tn', '--ws.port', '9000'])
    const b = parseNodeFlags(['--http', '--http.api=eth,tn', '--ws.port=9000'])
    assert.deepEqual(a, b)
    assert.deepEqual(a.values, { '--http.api': 'eth,tn', '--ws.port': '9000' })
    assert.deepEqual(a.switches, { '--http': true })
    assert.deepEqual(a.errors, [])
  })
  it('keeps a value containing "=" whole', () => {
    assert.equal(
      parseNodeFlags(['--http.corsdomain=https://a.example/?x=1']).values['--http.corsdomain'],
      'https://a.example/?x=1',
    )
  })
  it('an empty value is a value: --http.api ""', () => {
    assert.deepEqual(parseNodeFlags(['--http.api', '']).values, { '--http.api': '' })
    assert.deepEqual(parseNodeFlags(['--http.api=']).values, { '--http.api': '' })
  })
  it('interprets every RPC flag of the spec', () => {
    for (const [flag, kind] of Object.entries(RPC_NODE_FLAGS)) {
      const parsed = parseNodeFlags(kind === 'switch' ? [flag] : [flag, '1'])
      assert.deepEqual(parsed.passthrough, [], flag)
      assert.deepEqual(parsed.errors, [], flag)
    }
  })
  it('a value flag without a value is an error', () => {
    assert.match(parseNodeFlags(['--http.api']).errors[0] ?? '', /--http\.api needs a value/)
    assert.match(parseNodeFlags(['--http.api', '--ws']).errors[0] ?? '', /--http\.api needs a value/)
    assert.deepEqual(parseNodeFlags(['--http.api', '--ws']).switches, { '--ws': true })
  })
  it('a negative number is taken as the value (and refused later by the value check)', () => {
    assert.deepEqual(parseNodeFlags(['--http.port', '-1']).values, { '--http.port': '-1' })
  })
  it('a switch with a value is an error', () => {
    for (const token of ['--http=true', '--ws=false', '--ipcdisable=1']) {
      assert.match(parseNodeFlags([token]).errors[0] ?? '', /takes no value/, token)
    }
  })
  it('a flag given twice is an error (the first value stays)', () => {
    const p = parseNodeFlags(['--http.api', 'eth', '--http.api=net', '--http', '--http'])
    assert.equal(p.errors.length, 2)
    assert.match(p.errors[0] ?? '', /--http\.api is given more than once \("eth" and "net"\)/)
    assert.equal(p.values['--http.api'], 'eth')
  })
  it('passes everything else through untouched, in order, and stops at --', () => {
    const argv = ['node', '--datadir', '/d', '-vvv', '--http', '--observer', '--instance', '2', '--', '--ws', 'x']
    const p = parseNodeFlags(argv)
    assert.deepEqual(p.passthrough, [
      'node',
      '--datadir',
      '/d',
      '-vvv',
      '--observer',
      '--instance',
      '2',
      '--',
      '--ws',
      'x',
    ])
    assert.deepEqual(p.switches, { '--http': true })
  })
  it('flag names are exact: --HTTP and --http.API are other flags', () => {
    const p = parseNodeFlags(['--HTTP', '--http.API', 'eth'])
    assert.deepEqual(p.passthrough, ['--HTTP', '--http.API', 'eth'])
  })
})

describe('loopback', () => {
  it('loopback: 127.0.0.0/8, ::1, mapped 127.x, localhost', () => {
    for (const a of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      'localhost',
      'LOCALHOST',
    ]) {
      assert.equal(isLoopbackAddress(a), true, a)
    }
  })
  it('non-loopback: wildcards, private and public addresses, other host names', () => {
    for (const a of [
      '0.0.0.0',
      '::',
      '10.0.0.1',
      '192.0.2.2',
      'fd00::2',
      '::ffff:10.0.0.1',
      'node.example.org',
      '128.0.0.1',
    ]) {
      assert.equal(isLoopbackAddress(a), false, a)
    }
  })
  it('wildcards', () => {
    assert.equal(isWildcardAddress('0.0.0.0'), true)
    assert.equal(isWildcardAddress('::'), true)
    assert.equal(isWildcardAddress('0:0::0'), true)
    assert.equal(isWildcardAddress('127.0.0.1'), false)
  })
})
