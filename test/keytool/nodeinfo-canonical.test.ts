/**
 * node-info.yaml in the node's own layout, read without the YAML library
 * (src/lib/nodeinfo/read-canonical.ts), held to the library's reading:
 * - files as the node writes them (fixtures.ts builds them from real-network/node.md §3, not from
 *   tnv's writer), in both forms, give the document the library gives and the same NodeInfo;
 * - for random values of every kind (quoted, special, null, not ASCII), what tnv's writer writes
 *   the library reads back as the document written, and the fast reader gives that same
 *   document or leaves the text to the library, never another document;
 * - any other layout (comments, spacing, quoting, CRLF, order) is left to the library, and
 *   readNodeInfo still reads what the library reads, errors included.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { parseDocument } from 'yaml'
import { nodeInfoFromDoc } from '../../src/lib/nodeinfo/from-doc.js'
import { parseNodeInfo } from '../../src/lib/nodeinfo/parse.js'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { readCanonicalNodeInfo } from '../../src/lib/nodeinfo/read-canonical.js'
import { type NodeInfoDoc, type PeerDoc, renderNodeInfoDoc } from '../../src/lib/nodeinfo/serialize.js'
import { tempDir } from '../helpers/cli.js'
import { FIXED, nodeWritesText, PK58, POP58, PRIMARY_ADDR, RELEASED_STYLE, WORKER_ADDR } from './fixtures.js'

/** The document as tnv's YAML path reads it (src/lib/nodeinfo/parse.ts's options). */
const libraryDoc = (text: string): unknown => {
  const parsed = parseDocument(text, {
    schema: 'failsafe',
    customTags: ['null'],
    uniqueKeys: true,
    prettyErrors: false,
  })
  assert.equal(parsed.errors.length, 0, parsed.errors[0]?.message ?? '')
  return parsed.toJS({ maxAliasCount: 100 })
}

const RPC = { http: 'https://rpc.example.org/', ws: 'wss://rpc.example.org/ws' }
const nodeFiles = [
  RELEASED_STYLE,
  nodeWritesText({
    name: 'node-reference',
    publicKey58: PK58,
    primary: { address: PRIMARY_ADDR, key: FIXED.primary.networkKey, rpc: { http: RPC.http } },
    workers: [{ address: WORKER_ADDR, key: FIXED.worker0.networkKey, rpc: RPC }],
    address: FIXED.address,
    pop58: POP58,
  }),
  nodeWritesText({
    name: 'node-reference',
    publicKey58: PK58,
    primary: { address: PRIMARY_ADDR, key: FIXED.primary.networkKey },
    workers: [
      { address: WORKER_ADDR, key: FIXED.worker0.networkKey, rpc: RPC },
      { address: WORKER_ADDR, key: FIXED.worker0.networkKey },
    ],
    address: FIXED.address,
    pop58: POP58,
    form: 'workers',
  }),
]

describe('node-info.yaml in the node layout without the YAML library', () => {
  it('reads the files the node writes, in both forms, as the library does', () => {
    for (const text of nodeFiles) {
      const doc = readCanonicalNodeInfo(text)
      assert.ok(doc, text)
      assert.deepEqual(doc, libraryDoc(text))
      assert.deepEqual(nodeInfoFromDoc(doc, 'x'), parseNodeInfo(text, 'x'))
    }
  })

  it('for random values of every kind: the library reads what the writer wrote, and the fast reader agrees or abstains', () => {
    const pieces = [
      ...'abcXYZ019/._-',
      ' ',
      ':',
      '#',
      '"',
      "'",
      '\\',
      '~',
      '-',
      '?',
      '!',
      '&',
      '*',
      '[',
      '{',
      ',',
      '%',
      '@',
      '`',
      '|',
      '>',
      '=',
      '\t',
      '\u0001',
      '\u007f',
      'é',
      '\u2028',
      '\u0085',
      '\ufeff',
      'null',
      'Null',
      'true',
      'yes',
      'y',
      '0x',
      '12',
      '1e5',
      '.inf',
      '---',
      '...',
    ]
    const randomText = (): string | null => {
      const r = randomBytes(8)
      if ((r[0] as number) < 20) return null
      if ((r[0] as number) < 40) return '' // the empty string (written "")
      let s = ''
      for (let i = 0; i < 1 + ((r[1] as number) % 6); i++) s += pieces[(r[2 + i] as number) % pieces.length]
      return s
    }
    const plain = () => randomBytes(12).toString('base64').replace(/[+=]/g, 'x')
    const value = () => ((randomBytes(1)[0] as number) < 128 ? plain() : randomText())
    const peer = (): PeerDoc => ({
      network_address: value(),
      network_key: value(),
      rpc: (randomBytes(1)[0] as number) < 100 ? null : { http: value(), ws: value() },
    })
    let fast = 0
    for (let round = 0; round < 1500; round++) {
      const primary = peer()
      const doc: NodeInfoDoc = {
        name: value(),
        bls_public_key: value(),
        p2p_info:
          round % 2 === 0
            ? { primary, worker: peer() }
            : { primary, workers: Array.from({ length: 1 + (round % 3) }, peer) },
        execution_address: value(),
        proof_of_possession: value(),
      }
      const text = renderNodeInfoDoc(doc)
      assert.deepEqual(libraryDoc(text), doc, text)
      const read = readCanonicalNodeInfo(text)
      if (read !== undefined) {
        fast++
        assert.deepEqual(read, doc, text)
      }
    }
    assert.ok(fast > 50, `the fast reader took ${fast} of 1500 files`)
  })

  it('leaves every other layout to the library', () => {
    const [released] = nodeFiles as [string]
    const variants = [
      released.replace('---\n', ''),
      released.replace('---\n', '---\n# comment\n'),
      released.replace('\nname: ', '\nname:  '),
      released.replace(/\n/g, '\r\n'),
      `${released}\n`,
      released.replace(/"(0x[0-9a-f]+)"/, "'$1'"),
      released.replace(/"(0x[0-9a-f]+)"/, '$1'),
      released.replace('rpc: ~', 'rpc: null'),
      released.replace('rpc: ~', 'rpc:'),
      released.replace(/name: (\S+)/, 'name: "$1"'),
      released.replace(/^(name: .*)\n(bls_public_key: .*)$/m, '$2\n$1'),
      released.replace('  worker:', '  worker: # the one worker'),
      released.replace(/\n {2}worker:(\n {4}.*){3}/, '\n  workers:'),
      released.replace('rpc: ~', 'rpc: { http: "https://a.example/" }'),
      released.replace(/name: \S+/, 'name: "n\\u0041"'),
    ]
    for (const text of variants) assert.equal(readCanonicalNodeInfo(text), undefined, JSON.stringify(text))
  })

  describe('readNodeInfo reads what the library reads, through either reader', () => {
    const tmp = tempDir('tnv-nodeinfo-canonical-')
    after(() => tmp.cleanup())
    const [released] = nodeFiles as [string]
    const texts = [
      ...nodeFiles,
      released.replace('---\n', '---\n# edited by hand\n'),
      released.replace(/"(0x[0-9a-f]+)"/, "'$1'"),
      released.replace(/name: \S+/, 'name: ~'),
      released.replace(/bls_public_key: \S+/, 'bls_public_key: not-base58-0OIl'),
      released.replace(/execution_address: .*/, 'execution_address: "0x12"'),
      released.replace('rpc: ~', 'rpc: ~\n    extra: 1'),
      released.replace('\n  worker:', '\n  workers:'),
    ]
    for (const [i, text] of texts.entries())
      it(`file ${i}`, async () => {
        const path = join(tmp.dir, `node-info-${i}.yaml`)
        await fs.writeFile(path, text)
        let expected: unknown
        try {
          expected = parseNodeInfo(text, path)
        } catch (err) {
          expected = err
        }
        let actual: unknown
        try {
          actual = (await readNodeInfo(path)).info
        } catch (err) {
          actual = err
        }
        if (expected instanceof Error) {
          assert.ok(actual instanceof Error, 'an error through the library is an error through readNodeInfo')
          assert.equal(actual.constructor, expected.constructor)
          assert.equal(actual.message, expected.message)
        } else assert.deepEqual(actual, expected)
      })
  })
})
