/** The wizard's pure pieces: the journal file, the progress bar, the prerequisites check. */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { NodeInfo } from '../../src/lib/nodeinfo/types.js'
import { checkPrerequisites } from '../../src/lib/onboard/prerequisites.js'
import { progressBar } from '../../src/lib/wizard/io.js'
import {
  findOpenSubmission,
  JOURNAL_FILE,
  type JournalEntry,
  readJournal,
  recordOutcome,
  recordSubmission,
} from '../../src/lib/wizard/journal.js'
import { tempDir } from '../helpers/cli.js'

const A = '0x1111111111111111111111111111111111111111' as const
const entry = (hash: `0x${string}`, step: JournalEntry['step'] = 'stake'): JournalEntry => ({
  step,
  chainId: 7,
  from: A,
  to: A,
  hash,
  nonce: null,
  submittedAt: '2026-01-01T00:00:00.000Z',
})

describe('journal', () => {
  it('records submissions and outcomes; only unknown outcomes are open; no temp file is left', async () => {
    const { dir, cleanup } = tempDir('tnv-journal-')
    try {
      assert.deepEqual(await readJournal(dir), { version: 1, entries: [] })
      recordSubmission(dir, entry('0xaa'))
      recordSubmission(dir, entry('0xaa')) // the same hash twice is one entry
      assert.equal((await readJournal(dir)).entries.length, 1)
      assert.equal((await findOpenSubmission(dir, { step: 'stake', chainId: 7, from: A.toUpperCase() }))?.hash, '0xaa')
      assert.equal(await findOpenSubmission(dir, { step: 'stake', chainId: 8, from: A }), undefined)
      assert.equal(await findOpenSubmission(dir, { step: 'activate', chainId: 7, from: A }), undefined)
      recordOutcome(dir, '0xaa', 'success', 12n)
      assert.equal(await findOpenSubmission(dir, { step: 'stake', chainId: 7, from: A }), undefined)
      const [e] = (await readJournal(dir)).entries
      assert.equal(e?.outcome, 'success')
      assert.equal(e?.blockNumber, '12')
      assert.deepEqual(readdirSync(dir), [JOURNAL_FILE])
    } finally {
      cleanup()
    }
  })
})

describe('journal with an unreadable file', () => {
  it('keeps the unreadable file aside instead of overwriting it', () => {
    const { dir, cleanup } = tempDir('tnv-journal-')
    try {
      writeFileSync(join(dir, JOURNAL_FILE), '{"version":1,"entries":[{"hash":"0xold"') // cut short
      recordSubmission(dir, entry('0xbb'))
      const kept = readdirSync(dir).filter((f) => f.startsWith(`${JOURNAL_FILE}.unreadable-`))
      assert.equal(kept.length, 1)
      assert.equal(readFileSync(join(dir, kept[0] as string), 'utf8'), '{"version":1,"entries":[{"hash":"0xold"')
      assert.deepEqual(
        (JSON.parse(readFileSync(join(dir, JOURNAL_FILE), 'utf8')) as { entries: { hash: string }[] }).entries.map(
          (e) => e.hash,
        ),
        ['0xbb'],
      )
    } finally {
      cleanup()
    }
  })
})

describe('progressBar', () => {
  it('fills in proportion and clamps', () => {
    assert.equal(progressBar(0, 4, 8), '[--------] 0/4')
    assert.equal(progressBar(2, 4, 8), '[####----] 2/4')
    assert.equal(progressBar(9, 4, 8), '[########] 4/4')
    assert.equal(progressBar(-1, 4, 8), '[--------] 0/4')
  })
})

describe('checkPrerequisites', () => {
  const info = (host: string, p1: number, p2: number): NodeInfo => ({
    name: 'n',
    blsPublicKey: new Uint8Array(96),
    proofOfPossession: new Uint8Array(48),
    executionAddress: A,
    primary: { networkAddress: `/ip4/${host}/udp/${p1}/quic-v1`, networkKey: '' },
    workers: [{ networkAddress: `/ip4/${host}/udp/${p2}/quic-v1`, networkKey: '' }],
  })
  it('flags a local-only p2p host, names the UDP ports, the binary and the balance', () => {
    const r = checkPrerequisites({
      info: info('127.0.0.1', 1000, 1001),
      nodeBinary: { error: 'The node binary /x does not exist' },
      balance: 5n,
      stakeAmount: 10n,
      staked: false,
    })
    assert.deepEqual(
      r.map((x) => [x.name, x.ok]),
      [
        ['public-ip', false],
        ['udp-ports', null],
        ['node-binary', false],
        ['balance', false],
      ],
    )
    assert.match(r[1]?.detail ?? '', /UDP 1000 and 1001.*convention is 49590 and 49594/)
  })
  it('a public host on the conventional ports, a found binary and enough funds', () => {
    const r = checkPrerequisites({
      info: info('203.0.113.10', 49590, 49594),
      nodeBinary: { path: '/usr/local/bin/telcoin-network' },
      balance: 11n,
      stakeAmount: 10n,
      staked: false,
    })
    assert.deepEqual(
      r.map((x) => x.ok),
      [null, null, true, true],
    )
    assert.doesNotMatch(r[1]?.detail ?? '', /convention/)
  })
})
