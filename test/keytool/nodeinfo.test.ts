/** node-info.yaml: reading (incl. the legacy worker: map and files written by the reference), writing, and bad input. */
import assert from 'node:assert/strict'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import bs58 from 'bs58'
import { parse as parseYaml } from 'yaml'
import { ExitCode } from '../../src/lib/errors.js'
import { parseExecutionAddress, ZERO_ADDRESS } from '../../src/lib/nodeinfo/address.js'
import { NodeInfoFieldError, NodeInfoMissingError, NodeInfoSyntaxError } from '../../src/lib/nodeinfo/errors.js'
import { parseP2pAddress, withPeerId } from '../../src/lib/nodeinfo/multiaddr.js'
import { parseNodeInfo } from '../../src/lib/nodeinfo/parse.js'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { checkRpcEndpoints, checkRpcUrl } from '../../src/lib/nodeinfo/rpc-url.js'
import { formatNodeInfo } from '../../src/lib/nodeinfo/serialize.js'
import type { NodeInfo } from '../../src/lib/nodeinfo/types.js'
import { tempDir } from '../helpers/cli.js'
import { FIXED, hex, PK58, POP58, PRIMARY_ADDR, REFERENCE_STYLE, unhex, WORKER_ADDR } from './fixtures.js'

const LIST_STYLE = REFERENCE_STYLE.replace(
  `  worker:\n    network_key: ${FIXED.worker0.networkKey}\n    network_address: ${WORKER_ADDR}\n`,
  `  workers:\n  - network_address: ${WORKER_ADDR}\n    network_key: ${FIXED.worker0.networkKey}\n    rpc:\n      http: https://rpc.example.org\n      ws: wss://rpc.example.org/ws\n`,
)

describe('parseNodeInfo', () => {
  it('reads the reference layout with the legacy worker: map and an unquoted 0x address', () => {
    const info = parseNodeInfo(REFERENCE_STYLE, 'node-info.yaml')
    assert.equal(info.name, 'node-reference')
    assert.equal(hex(info.blsPublicKey), FIXED.publicKeyHex)
    assert.equal(hex(info.proofOfPossession), FIXED.popHex)
    assert.equal(info.executionAddress, FIXED.address)
    assert.deepEqual(info.primary, { networkAddress: PRIMARY_ADDR, networkKey: FIXED.primary.networkKey })
    assert.deepEqual(info.workers, [{ networkAddress: WORKER_ADDR, networkKey: FIXED.worker0.networkKey }])
    assert.equal(info.legacyWorkerMap, true)
  })

  it('reads a workers: list with rpc endpoints', () => {
    const info = parseNodeInfo(LIST_STYLE, 'node-info.yaml')
    assert.deepEqual(info.workers[0]?.rpc, { http: 'https://rpc.example.org', ws: 'wss://rpc.example.org/ws' })
    assert.equal(info.legacyWorkerMap, undefined)
  })

  it('writes the reference field order, the workers as a list, and reads back what it wrote', async () => {
    const info = parseNodeInfo(REFERENCE_STYLE, 'node-info.yaml')
    const text = await formatNodeInfo(info)
    assert.deepEqual(
      text
        .split('\n')
        .filter((l) => /^\S/.test(l))
        .map((l) => l.split(':')[0]),
      ['name', 'bls_public_key', 'p2p_info', 'execution_address', 'proof_of_possession'],
    )
    assert.match(text, /\n {2}workers:\n {4}- network_address: /)
    assert.doesNotMatch(text, /\n {2}worker:/)
    const { legacyWorkerMap, ...rest } = info
    assert.equal(legacyWorkerMap, true)
    assert.deepEqual(parseNodeInfo(text, 'x'), rest)
  })

  it('keeps unknown top-level fields', async () => {
    const info = parseNodeInfo(`${LIST_STYLE}future_field: kept\nfuture_map:\n  a: "1"\n`, 'x')
    const text = await formatNodeInfo(info)
    assert.match(text, /future_field: kept/)
    assert.deepEqual(parseNodeInfo(text, 'x').extra, { future_field: 'kept', future_map: { a: '1' } })
  })

  it('writes YAML that the yaml library reads back to the same strings, whatever the name and URLs hold', async () => {
    const base = parseNodeInfo(LIST_STYLE, 'x')
    const [w0] = base.workers
    assert.ok(w0)
    const names = [
      'node-1',
      'true',
      'No',
      'null',
      '~',
      '123',
      '0x12',
      '1e3',
      '.inf',
      'a: b',
      '- x',
      '#x',
      ' lead',
      'trail ',
      'x\ny',
      '"q"',
      "it's",
      '@x',
      '&x',
      '*x',
      '!x',
      '%x',
      '|x',
      '>x',
      '[x',
      '{x',
      'x,y',
      '?x',
      'tab\tx',
      'nœud',
      'end:',
      'a#b',
      'back\\slash',
      'a\u2028b',
    ]
    for (const name of names) {
      const http = `https://rpc.example.org/p?a=1&b=%20#${name.length}`
      const info: NodeInfo = { ...base, name, workers: [{ ...w0, rpc: { http, ws: 'wss://[::1]:8546/ws' } }] }
      const text = await formatNodeInfo(info)
      const doc = parseYaml(text, { schema: 'core' })
      assert.equal(doc.name, name, `name ${JSON.stringify(name)} in:\n${text}`)
      assert.equal(parseYaml(text, { version: '1.1' }).name, name, `YAML 1.1, name ${JSON.stringify(name)}`)
      assert.equal(doc.execution_address, base.executionAddress)
      assert.equal(doc.p2p_info.workers[0].rpc.http, http)
      assert.deepEqual(parseNodeInfo(text, 'x'), info)
    }
  })

  const bad: [string, string, RegExp][] = [
    ['malformed YAML', 'name: [unclosed\nbls_public_key: x\n', /not valid YAML/],
    [
      'a truncated file',
      LIST_STYLE.slice(0, LIST_STYLE.indexOf('execution_address') + 25),
      /(execution_address|proof_of_possession): (is missing|.*not an execution address)/,
    ],
    ['an empty file', '', /expected a map of fields/],
    [
      'bad base58 in the public key',
      LIST_STYLE.replace(PK58, `${PK58.slice(0, 10)}0OIl`),
      /bls_public_key: ".*" is not base58/,
    ],
    [
      'a 95-byte public key',
      LIST_STYLE.replace(PK58, bs58.encode(unhex(FIXED.publicKeyHex).slice(1))),
      /bls_public_key: expected 96 bytes, got 95/,
    ],
    [
      'a 47-byte proof',
      LIST_STYLE.replace(POP58, bs58.encode(unhex(FIXED.popHex).slice(1))),
      /proof_of_possession: expected 48 bytes, got 47/,
    ],
    ['a bad address', LIST_STYLE.replace(FIXED.address, '0x1234'), /execution_address: .*not an execution address/],
    [
      'a bad checksum',
      LIST_STYLE.replace(FIXED.address, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'),
      /execution_address: .*checksum/,
    ],
    [
      'a network key that is not one',
      LIST_STYLE.replace(FIXED.primary.networkKey, 'abc'),
      /p2p_info.primary.network_key: "abc" is not a base58 libp2p ed25519 public key/,
    ],
    [
      "a peer id that is not the key's",
      LIST_STYLE.replace(PRIMARY_ADDR, `/ip4/203.0.113.10/udp/49590/quic-v1/p2p/${FIXED.worker0.peerId}`),
      /network_address: carries \/p2p\/.* but network_key belongs to peer id/,
    ],
    ['a tcp address', LIST_STYLE.replace('/udp/49590/quic-v1', '/tcp/49590'), /network_address: .*\/tcp/],
    [
      'an ftp rpc url',
      LIST_STYLE.replace('https://rpc.example.org', 'ftp://rpc.example.org'),
      /rpc.http: .*scheme ftp/,
    ],
    [
      'both worker: and workers:',
      REFERENCE_STYLE.replace(
        'p2p_info:\n',
        `p2p_info:\n  workers:\n  - network_address: ${WORKER_ADDR}\n    network_key: ${FIXED.worker0.networkKey}\n`,
      ),
      /both workers: and the legacy worker:/,
    ],
  ]
  for (const [what, text, message] of bad)
    it(`refuses ${what} with a one-paragraph error naming the file`, () => {
      assert.throws(
        () => parseNodeInfo(text, '/d/node-info.yaml'),
        (err: unknown) => {
          assert.ok(err instanceof NodeInfoFieldError || err instanceof NodeInfoSyntaxError, String(err))
          assert.equal(err.exitCode, ExitCode.BadInput)
          assert.match(err.message, /^\/d\/node-info\.yaml/)
          assert.match(err.message, message)
          assert.ok(err.fix)
          return true
        },
      )
    })
})

describe('readNodeInfo', () => {
  let dir: string
  let cleanup: () => void
  before(async () => {
    ;({ dir, cleanup } = tempDir())
    await fs.writeFile(join(dir, 'node-info.yaml'), LIST_STYLE)
  })
  after(() => cleanup())

  it('takes the file or the directory holding it', async () => {
    const a = await readNodeInfo(dir)
    const b = await readNodeInfo(join(dir, 'node-info.yaml'))
    assert.equal(a.path, join(dir, 'node-info.yaml'))
    assert.deepEqual(a, b)
  })

  it('names the missing path', async () => {
    await assert.rejects(
      readNodeInfo(join(dir, 'nope')),
      (e: unknown) => e instanceof NodeInfoMissingError && e.message.includes(join(dir, 'nope')),
    )
    const empty = join(dir, 'empty')
    await fs.mkdir(empty)
    await assert.rejects(
      readNodeInfo(empty),
      (e: unknown) => e instanceof NodeInfoMissingError && e.message.includes(join(empty, 'node-info.yaml')),
    )
  })
})

describe('execution addresses', () => {
  it('0 is the zero address; 0x is optional; the result is checksummed', () => {
    assert.equal(parseExecutionAddress('0', '--address'), ZERO_ADDRESS)
    assert.equal(
      parseExecutionAddress('5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', '--address'),
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    )
    assert.equal(
      parseExecutionAddress('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', '--address'),
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    )
    assert.equal(
      parseExecutionAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '--address'),
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    )
  })

  it('mixed case must carry a valid checksum', () => {
    assert.throws(
      () => parseExecutionAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', '--address'),
      /--address: .*checksum is wrong/,
    )
  })

  it('refuses what is not 20 bytes of hex', () => {
    for (const v of [
      '',
      '00',
      '0x',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaedff',
      'zz'.repeat(20),
    ])
      assert.throws(() => parseExecutionAddress(v, '--address'), /not an execution address/)
  })
})

describe('p2p multiaddrs', () => {
  it('accepts /ip4, /ip6, /dns4, /dns6 over /udp/<port>/quic-v1', () => {
    for (const a of [
      '/ip4/203.0.113.10/udp/49590/quic-v1',
      '/ip6/::1/udp/1/quic-v1',
      '/dns4/node.example.org/udp/65535/quic-v1',
      '/dns6/a-b.example/udp/49594/quic-v1',
    ])
      assert.equal(parseP2pAddress(a, 'x').protocol, a.split('/')[1])
  })

  it('refuses other forms with the reason', () => {
    const cases: [string, RegExp][] = [
      ['/ip4/203.0.113.10/tcp/49590', /\/tcp.*quic-v1/],
      ['/ip4/203.0.113.10/udp/49590', /ends its transport/],
      ['/ip4/203.0.113.10/udp/49590/quic', /ends its transport/],
      ['/ip4/300.1.1.1/udp/1/quic-v1', /not an IPv4 address/],
      ['/ip6/203.0.113.10/udp/1/quic-v1', /not an IPv6 address/],
      ['/dns4/-bad-/udp/1/quic-v1', /not a DNS name/],
      ['/ip4/203.0.113.10/udp/0/quic-v1', /port/],
      ['/ip4/203.0.113.10/udp/65536/quic-v1', /port/],
      ['/unix/tmp/x', /only \/ip4/],
      ['ip4/1.2.3.4/udp/1/quic-v1', /must start with \//],
      ['/ip4/203.0.113.10/udp/1/quic-v1/ws', /only \/p2p\/<peer id> may follow/],
    ]
    for (const [a, re] of cases) assert.throws(() => parseP2pAddress(a, '--external-primary-addr'), re, a)
  })

  it('appends /p2p/<peer id>; the same peer id is accepted, another one refused', () => {
    const base = '/ip4/203.0.113.10/udp/49590/quic-v1'
    assert.equal(withPeerId(base, FIXED.primary.peerId, 'x'), `${base}/p2p/${FIXED.primary.peerId}`)
    assert.equal(
      withPeerId(`${base}/p2p/${FIXED.primary.peerId}`, FIXED.primary.peerId, 'x'),
      `${base}/p2p/${FIXED.primary.peerId}`,
    )
    assert.throws(
      () => withPeerId(`${base}/p2p/${FIXED.worker0.peerId}`, FIXED.primary.peerId, 'x'),
      /already carries \/p2p\//,
    )
  })
})

describe('rpc urls', () => {
  it('http/https for http, ws/wss for ws, at most 2048 characters', () => {
    assert.equal(checkRpcUrl('http://127.0.0.1:8545', 'http', '--http'), 'http://127.0.0.1:8545')
    assert.equal(checkRpcUrl('wss://rpc.example.org/ws', 'ws', '--ws'), 'wss://rpc.example.org/ws')
    assert.throws(() => checkRpcUrl('ws://x', 'http', '--http'), /scheme ws; http or https is required/)
    assert.throws(() => checkRpcUrl('https://x', 'ws', '--ws'), /scheme https; ws or wss is required/)
    assert.throws(() => checkRpcUrl('not a url', 'http', '--http'), /not a URL/)
    const long = `https://example.org/${'a'.repeat(2048 - 20)}`
    assert.equal(long.length, 2048)
    assert.equal(checkRpcUrl(long, 'http', '--http'), long)
    assert.throws(() => checkRpcUrl(`${long}a`, 'http', '--http'), /2049 characters long; the limit is 2048/)
  })

  it('ws needs http', () => {
    assert.throws(
      () => checkRpcEndpoints({ ws: 'ws://x' }, { http: '--http', ws: '--ws' }),
      /--ws is given without --http/,
    )
    assert.equal(checkRpcEndpoints({}, { http: '--http', ws: '--ws' }), undefined)
  })
})
