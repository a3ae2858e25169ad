/**
 * node-info.yaml in both forms: reading (files the node writes, files it reads, the
 * specification's list), writing byte for byte as the node writes it (expectations built from
 * real-network/node.md §3 in fixtures.ts, not from tnv's writer), round trips that keep the
 * form, and bad input (wrong type, missing field, unknown key) in either form.
 */
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
import { formatNodeInfo, needsQuotes, scalar } from '../../src/lib/nodeinfo/serialize.js'
import type { NodeInfo } from '../../src/lib/nodeinfo/types.js'
import { tempDir } from '../helpers/cli.js'
import {
  FIXED,
  HAND_EDITED,
  hex,
  nodeWritesText,
  PK58,
  POP58,
  PRIMARY_ADDR,
  RELEASED_STYLE,
  unhex,
  WORKER_ADDR,
} from './fixtures.js'

const RPC = { http: 'https://rpc.example.org/', ws: 'wss://rpc.example.org/ws' }

/** The specification's form of the same node (a `workers:` list), with the worker's RPC set. */
const LIST_STYLE = nodeWritesText({
  name: 'node-reference',
  publicKey58: PK58,
  primary: { address: PRIMARY_ADDR, key: FIXED.primary.networkKey },
  workers: [{ address: WORKER_ADDR, key: FIXED.worker0.networkKey, rpc: RPC }],
  address: FIXED.address,
  pop58: POP58,
  form: 'workers',
})

describe('reading both forms', () => {
  it("reads the released node's own file: --- , worker: map, rpc: ~, quoted lower-case address", () => {
    assert.match(RELEASED_STYLE, /^---\nname: node-reference\n/)
    const info = parseNodeInfo(RELEASED_STYLE, 'node-info.yaml')
    assert.equal(info.form, 'worker')
    assert.equal(info.name, 'node-reference')
    assert.equal(hex(info.blsPublicKey), FIXED.publicKeyHex)
    assert.equal(hex(info.proofOfPossession), FIXED.popHex)
    assert.equal(info.executionAddress, FIXED.address)
    assert.deepEqual(info.primary, { networkAddress: PRIMARY_ADDR, networkKey: FIXED.primary.networkKey })
    assert.deepEqual(info.workers, [{ networkAddress: WORKER_ADDR, networkKey: FIXED.worker0.networkKey }])
  })

  it('reads a file the node reads but would not write (no ---, no rpc, unquoted address, other key order)', () => {
    const info = parseNodeInfo(HAND_EDITED, 'node-info.yaml')
    assert.equal(info.form, 'worker')
    assert.deepEqual(info, parseNodeInfo(RELEASED_STYLE, 'x'))
  })

  it("reads the specification's workers: list with rpc endpoints", () => {
    const info = parseNodeInfo(LIST_STYLE, 'node-info.yaml')
    assert.equal(info.form, 'workers')
    assert.deepEqual(info.workers[0]?.rpc, RPC)
  })

  it('rpc: ~, an empty rpc:, and ws: ~ are unset; rpc on the primary is read too', () => {
    const text = RELEASED_STYLE.replace(
      '    rpc: ~\n  worker:',
      `    rpc:\n      http: "https://p.example/"\n      ws: ~\n  worker:`,
    )
    const info = parseNodeInfo(text.replace(/(\n {2}worker:(?:\n {4}.*){2}\n {4}rpc:) ~/, '$1'), 'x')
    assert.deepEqual(info.primary.rpc, { http: 'https://p.example/' })
    assert.equal(info.workers[0]?.rpc, undefined)
  })
})

describe('writing as the node writes', () => {
  const base = parseNodeInfo(RELEASED_STYLE, 'x')

  it('one worker: the worker: map, byte for byte the expected text', () => {
    assert.equal(formatNodeInfo(base), RELEASED_STYLE)
    const withRpc: NodeInfo = { ...base, workers: [{ ...(base.workers[0] as NodeInfo['workers'][0]), rpc: RPC }] }
    assert.equal(
      formatNodeInfo(withRpc),
      nodeWritesText({
        name: 'node-reference',
        publicKey58: PK58,
        primary: { address: PRIMARY_ADDR, key: FIXED.primary.networkKey },
        workers: [{ address: WORKER_ADDR, key: FIXED.worker0.networkKey, rpc: RPC }],
        address: FIXED.address,
        pop58: POP58,
      }),
    )
    const httpOnly: NodeInfo = {
      ...base,
      workers: [{ ...(base.workers[0] as NodeInfo['workers'][0]), rpc: { http: RPC.http } }],
    }
    assert.match(formatNodeInfo(httpOnly), /\n {4}rpc:\n {6}http: "https:\/\/rpc\.example\.org\/"\n {6}ws: ~\n/)
  })

  it("the specification's form when asked: the workers: list, byte for byte", () => {
    assert.equal(formatNodeInfo({ ...parseNodeInfo(LIST_STYLE, 'x') }), LIST_STYLE)
    assert.equal(formatNodeInfo(base, 'workers').split('\n').length, RELEASED_STYLE.split('\n').length)
  })

  it('several workers can only be a list', () => {
    const two: NodeInfo = { ...base, form: 'worker', workers: [...base.workers, ...base.workers] }
    assert.throws(() => formatNodeInfo(two), /cannot be written as one worker: map/)
    const { form: _, ...noForm } = two
    assert.match(formatNodeInfo(noForm as NodeInfo), /\n {2}workers:\n/)
  })

  it('round trips keep the form: read → write → read, both forms, a second write changes nothing', () => {
    for (const text of [RELEASED_STYLE, LIST_STYLE, HAND_EDITED]) {
      const first = parseNodeInfo(text, 'x')
      const written = formatNodeInfo(first)
      const second = parseNodeInfo(written, 'x')
      assert.deepEqual(second, first)
      assert.equal(second.form, first.form)
      assert.equal(formatNodeInfo(second), written)
    }
  })

  it("quotes a string exactly where the node's YAML emitter does (yaml-rust 0.4 need_quotes)", () => {
    // base58 values and multiaddrs are bare; 0x… and anything with ':' are double-quoted
    for (const bare of [PK58, POP58, PRIMARY_ADDR, FIXED.primary.networkKey, 'node-1', 'y', 'n', 'a b', 'nœud'])
      assert.equal(needsQuotes(bare), false, bare)
    const quoted: [string, string][] = [
      [FIXED.address.toLowerCase(), `"${FIXED.address.toLowerCase()}"`],
      ['https://rpc.example.org/', '"https://rpc.example.org/"'],
      ['', '""'],
      [' lead', '" lead"'],
      ['trail ', '"trail "'],
      ['-x', '"-x"'],
      ['@x', '"@x"'],
      ['a#b', '"a#b"'],
      ['a,b', '"a,b"'],
      ['true', '"true"'],
      ['No', '"No"'],
      ['~', '"~"'],
      ['null', '"null"'],
      ['.5x', '".5x"'],
      ['123', '"123"'],
      ['-4', '"-4"'],
      ['1e3', '"1e3"'],
      ['inf', '"inf"'],
      ['NaN', '"NaN"'],
      ['say "hi"', '"say \\"hi\\""'],
      ['back\\slash', '"back\\\\slash"'],
      ['x\ny', '"x\\ny"'],
      ['tab\tx', '"tab\\tx"'],
      // escape_str's escapes, when a string is quoted for another reason
      ['bell\u0007,', '"bell\\u0007,"'],
      ['del\u007f:', '"del\\u007f:"'],
      // need_quotes misses BEL, BS, VT, FF, ESC and DEL: yaml-rust writes them bare (keytool refuses such names)
      ['bell\u0007', 'bell\u0007'],
    ]
    for (const [value, expected] of quoted) assert.equal(scalar(value), expected, JSON.stringify(value))
  })

  it('whatever the name and URLs hold, the YAML library reads back the same strings', () => {
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
    ]
    for (const name of names) {
      const http = `https://rpc.example.org/p?a=1&b=%20#${name.length}`
      const info: NodeInfo = { ...base, name, workers: [{ ...w0, rpc: { http, ws: 'wss://[::1]:8546/ws' } }] }
      const text = formatNodeInfo(info)
      const doc = parseYaml(text, { schema: 'core' })
      assert.equal(doc.name, name, `name ${JSON.stringify(name)} in:\n${text}`)
      assert.equal(parseYaml(text, { version: '1.1' }).name, name, `YAML 1.1, name ${JSON.stringify(name)}`)
      assert.equal(doc.execution_address, base.executionAddress.toLowerCase())
      assert.equal(doc.p2p_info.worker.rpc.http, http)
      assert.deepEqual(parseNodeInfo(text, 'x'), info)
    }
  })
})

describe('bad input: one paragraph naming the field, the form and the repair', () => {
  const inWorkerForm = (t: string) => t
  const bad: [string, string, RegExp, RegExp][] = [
    [
      'malformed YAML',
      'name: [unclosed\nbls_public_key: x\n',
      /not valid YAML \(the node stops on it with "bad yaml data"\)/,
      /backup/,
    ],
    [
      'a truncated file',
      RELEASED_STYLE.slice(0, RELEASED_STYLE.indexOf('execution_address')),
      /execution_address: is missing/,
      /generate pop/,
    ],
    ['an empty file', '', /\(top level\): the file is empty/, /backup/],
    ['a list at the top', '- a\n', /\(top level\): expected a map of fields/, /backup/],
    [
      'an unknown top-level key',
      `${RELEASED_STYLE}nmae: x\n`,
      /: nmae: is not a field of node-info\.yaml/,
      /Delete that key/,
    ],
    [
      'an unknown key in a P2pNode',
      RELEASED_STYLE.replace('    rpc: ~\n  worker:', '    rpc: ~\n    port: 1\n  worker:'),
      /p2p_info\.primary\.port: is not a field/,
      /Delete that key/,
    ],
    [
      'an unknown key in p2p_info',
      RELEASED_STYLE.replace('p2p_info:\n', 'p2p_info:\n  worker_rpc: x\n'),
      /p2p_info\.worker_rpc: is not a field/,
      /Delete that key/,
    ],
    ['a missing name', RELEASED_STYLE.replace('name: node-reference\n', ''), /: name: is missing/, /backup/],
    [
      'a map as the name',
      RELEASED_STYLE.replace('name: node-reference', 'name:\n  a: b'),
      /: name: expected a text value, found a map/,
      /backup/,
    ],
    [
      'a list as the execution address',
      RELEASED_STYLE.replace(/execution_address: .*/, 'execution_address: [1]'),
      /execution_address: expected a text value, found a list/,
      /tnv keytool generate pop --address/,
    ],
    [
      'bad base58 in the public key',
      RELEASED_STYLE.replace(PK58, `${PK58.slice(0, 10)}0OIl`),
      /bls_public_key: ".*" is not base58/,
      /backup/,
    ],
    [
      'a 95-byte public key',
      RELEASED_STYLE.replace(PK58, bs58.encode(unhex(FIXED.publicKeyHex).slice(1))),
      /bls_public_key: expected 96 bytes, got 95/,
      /backup/,
    ],
    [
      'a public key far too long to decode',
      RELEASED_STYLE.replace(PK58, PK58.repeat(500)),
      /bls_public_key: is \d+ characters long, too long for 96 bytes/,
      /backup/,
    ],
    [
      'a 47-byte proof',
      RELEASED_STYLE.replace(POP58, bs58.encode(unhex(FIXED.popHex).slice(1))),
      /proof_of_possession: expected 48 bytes, got 47/,
      /generate pop/,
    ],
    [
      'a bad address',
      RELEASED_STYLE.replace(FIXED.address.toLowerCase(), '0x1234'),
      /execution_address: .*not an execution address/,
      /generate pop/,
    ],
    [
      'a network key that is not one',
      RELEASED_STYLE.replace(FIXED.primary.networkKey, 'abc'),
      /p2p_info.primary.network_key: "abc" is not a base58 libp2p ed25519 public key/,
      /backup/,
    ],
    [
      "a peer id that is not the key's",
      RELEASED_STYLE.replace(PRIMARY_ADDR, `/ip4/203.0.113.10/udp/49590/quic-v1/p2p/${FIXED.worker0.peerId}`),
      /network_address: carries \/p2p\/.* but network_key belongs to peer id/,
      /backup/,
    ],
    ['a tcp address', RELEASED_STYLE.replace('/udp/49590/quic-v1', '/tcp/49590'), /network_address: .*\/tcp/, /backup/],
    [
      'an ftp rpc url on the worker',
      inWorkerForm(
        RELEASED_STYLE.replace(
          /(\n {2}worker:(?:\n {4}.*){2}\n {4}rpc:) ~/,
          '$1\n      http: "ftp://rpc.example.org/"\n      ws: ~',
        ),
      ),
      /p2p_info\.worker\.rpc\.http: invalid http endpoint scheme `ftp`/,
      /tnv keytool set-rpc/,
    ],
    [
      'a quoted "~" as rpc (text, not null)',
      RELEASED_STYLE.replace(/(\n {2}worker:(?:\n {4}.*){2}\n {4}rpc:) ~/, '$1 "~"'),
      /p2p_info\.worker\.rpc: expected a map with http and ws \(or ~\), found a text value/,
      /tnv keytool set-rpc/,
    ],
    [
      'an rpc without http',
      RELEASED_STYLE.replace(/(\n {2}worker:(?:\n {4}.*){2}\n {4}rpc:) ~/, '$1\n      ws: "wss://x/"'),
      /p2p_info\.worker\.rpc\.http: is missing/,
      /tnv keytool set-rpc/,
    ],
    [
      'a primary rpc of the wrong type',
      RELEASED_STYLE.replace('    rpc: ~\n  worker:', '    rpc: [1]\n  worker:'),
      /p2p_info\.primary\.rpc: expected a map/,
      /write `rpc: ~` under p2p_info\.primary/,
    ],
    [
      'both worker: and workers:',
      RELEASED_STYLE.replace(
        'p2p_info:\n',
        `p2p_info:\n  workers:\n    - network_address: ${WORKER_ADDR}\n      network_key: ${FIXED.worker0.networkKey}\n`,
      ),
      /p2p_info: has both worker: .* and workers:/,
      /backup/,
    ],
    [
      'neither worker: nor workers: (the released node: missing field `worker`)',
      RELEASED_STYLE.replace(/\n {2}worker:(?:\n {4}.*){3}/, ''),
      /p2p_info\.worker: missing field `worker`/,
      /backup/,
    ],
    [
      'an empty workers: list',
      LIST_STYLE.replace(/\n {2}workers:(?:\n {4,}.*)+/, '\n  workers: []'),
      /p2p_info\.workers: is an empty list/,
      /backup/,
    ],
    [
      'a map as workers:',
      RELEASED_STYLE.replace('\n  worker:\n', '\n  workers:\n'),
      /p2p_info\.workers: expected a list of workers, found a map/,
      /backup/,
    ],
    [
      'an unknown key in a list item',
      LIST_STYLE.replace('      rpc:\n', '      extra: 1\n      rpc:\n'),
      /p2p_info\.workers\[0\]\.extra: is not a field/,
      /Delete that key/,
    ],
  ]
  for (const [what, text, message, fix] of bad)
    it(`refuses ${what}`, () => {
      assert.throws(
        () => parseNodeInfo(text, '/d/node-info.yaml'),
        (err: unknown) => {
          assert.ok(err instanceof NodeInfoFieldError || err instanceof NodeInfoSyntaxError, String(err))
          assert.equal(err.exitCode, ExitCode.BadInput)
          assert.match(err.message, /^\/d\/node-info\.yaml/)
          assert.match(err.message, message)
          if (err instanceof NodeInfoFieldError) {
            const form = text === LIST_STYLE || text.includes('\n  workers:') ? 'workers' : 'worker'
            if (!/both worker|neither worker|top level|empty file|list at the top/.test(what)) {
              assert.equal(err.form, form, `${what}: ${err.message}`)
              assert.match(
                err.message,
                form === 'worker'
                  ? /The file is in the released node's form \(p2p_info\.worker: one map\)/
                  : /The file is in the specification's form \(p2p_info\.workers: a list\)/,
              )
            }
          }
          assert.match(err.fix ?? '', fix)
          assert.ok(!err.render().includes('\n'), 'one paragraph')
          return true
        },
      )
    })

  it('a rewrite of some fields tolerates problems in exactly those fields', () => {
    const text = RELEASED_STYLE.replace(/execution_address: .*/, 'execution_address: nope').replace(
      /(\n {2}worker:(?:\n {4}.*){2}\n {4}rpc:) ~/,
      '$1 [x]',
    )
    assert.throws(() => parseNodeInfo(text, 'x', { replacing: { pop: true } }), /p2p_info\.worker\.rpc/)
    assert.throws(() => parseNodeInfo(text, 'x', { replacing: { workerRpc: 0 } }), /execution_address/)
    const skipped: { field: string; problem: string }[] = []
    const info = parseNodeInfo(text, 'x', { replacing: { pop: true, workerRpc: 0 }, skipped })
    assert.deepEqual(
      skipped.map((s) => s.field),
      ['p2p_info.worker.rpc', 'execution_address'],
    )
    assert.equal(info.executionAddress, ZERO_ADDRESS)
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

  it('takes the file or the directory holding it, and returns its text', async () => {
    const a = await readNodeInfo(dir)
    const b = await readNodeInfo(join(dir, 'node-info.yaml'))
    assert.equal(a.path, join(dir, 'node-info.yaml'))
    assert.equal(a.text, LIST_STYLE)
    assert.deepEqual(a, b)
  })

  it('names the missing path; refuses a file far too large to be one', async () => {
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
    const huge = join(dir, 'huge.yaml')
    await fs.writeFile(huge, `name: ${'x'.repeat(100_000)}\n`)
    await assert.rejects(readNodeInfo(huge), /far larger than any node-info\.yaml/)
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

describe('rpc urls (the node: url crate parse, RpcInfo::validate)', () => {
  it('normalised like the url crate: a bare host gets a trailing /, default ports drop, host lower-cased', () => {
    assert.equal(checkRpcUrl('https://rpc.example.org', 'http', '--http'), 'https://rpc.example.org/')
    assert.equal(checkRpcUrl('HTTPS://RPC.Example.ORG:443/a', 'http', '--http'), 'https://rpc.example.org/a')
    assert.equal(checkRpcUrl('http://127.0.0.1:8545', 'http', '--http'), 'http://127.0.0.1:8545/')
    assert.equal(checkRpcUrl('wss://rpc.example.org/ws', 'ws', '--ws'), 'wss://rpc.example.org/ws')
  })

  it("http/https for http, ws/wss for ws, the node's texts; at most 2048 bytes after normalising", () => {
    assert.throws(
      () => checkRpcUrl('ws://x', 'http', '--http'),
      /--http: invalid worker rpc endpoint: invalid http endpoint scheme `ws`, expected `http` or `https`/,
    )
    assert.throws(
      () => checkRpcUrl('https://x', 'ws', '--ws'),
      /invalid ws endpoint scheme `https`, expected `ws` or `wss`/,
    )
    assert.throws(() => checkRpcUrl('not a url', 'http', '--http'), /it is not a URL/)
    const long = `https://example.org/${'a'.repeat(2048 - 20)}`
    assert.equal(long.length, 2048)
    assert.equal(checkRpcUrl(long, 'http', '--http'), long)
    assert.throws(
      () => checkRpcUrl(`${long}a`, 'http', '--http'),
      /rpc endpoint URL length 2049 exceeds maximum of 2048 bytes/,
    )
    // the length is the normalised URL's, in bytes: a bare host gains a '/'
    const host = `https://${'a'.repeat(2036)}.org`
    assert.equal(host.length, 2048)
    assert.throws(() => checkRpcUrl(host, 'http', '--http'), /length 2049 exceeds/)
  })

  it('ws needs http', () => {
    assert.throws(
      () => checkRpcEndpoints({ ws: 'ws://x' }, { http: '--http', ws: '--ws' }),
      /--ws is given without --http/,
    )
    assert.equal(checkRpcEndpoints({}, { http: '--http', ws: '--ws' }), undefined)
  })
})
