/** The wizard's pure pieces: the journal file, the progress bar, the prerequisites check. */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { NodeInfo } from '../../src/lib/nodeinfo/types.js'
import { checkPrerequisites } from '../../src/lib/onboard/prerequisites.js'
import { JOURNAL_FILE, type JournalEntry, TxJournal } from '../../src/lib/tx/journal.js'
import { progressBar } from '../../src/lib/wizard/io.js'
import { tempDir } from '../helpers/cli.js'

const A = '0x1111111111111111111111111111111111111111' as const
const entry = (hash: `0x${string}`, step: JournalEntry['step'] = 'stake') => ({
  step,
  chainId: 7,
  from: A,
  to: A,
  hash,
  nonce: 3,
  raw: '0x02f8' as `0x${string}`,
  submittedAt: '2026-01-01T00:00:00.000Z',
})

describe('journal', () => {
  it('records signed transactions and outcomes under its lock; only unknown outcomes are open; no temp file is left', async () => {
    const { dir, cleanup } = tempDir('tnv-journal-')
    try {
      const j = new TxJournal(join(dir, JOURNAL_FILE))
      assert.deepEqual(j.read(), { version: 2, entries: [] })
      assert.throws(() => j.recordSigned(entry('0xaa')), /without its lock/)
      const release = await j.lock('test')
      j.recordSigned(entry('0xaa'))
      j.recordSigned(entry('0xaa')) // the same hash twice is one entry
      assert.equal(j.read().entries.length, 1)
      assert.equal(j.open(A.toUpperCase() as `0x${string}`, 7)[0]?.hash, '0xaa')
      assert.deepEqual(j.open(A, 8), [])
      j.recordOutcome('0xaa', 'success', { blockNumber: 12n })
      assert.deepEqual(j.open(A), [])
      const [e] = j.read().entries
      assert.equal(e?.outcome, 'success')
      assert.equal(e?.blockNumber, '12')
      assert.equal(e?.nonce, 3)
      await release()
      assert.deepEqual(readdirSync(dir), [JOURNAL_FILE])
    } finally {
      cleanup()
    }
  })

  it('a second holder waits, then is told who holds the lock (pid, command)', async () => {
    const { dir, cleanup } = tempDir('tnv-journal-')
    try {
      const path = join(dir, JOURNAL_FILE)
      const release = await new TxJournal(path).lock('tnv stake')
      const { acquireLock } = await import('../../src/lib/fs/lock.js')
      await assert.rejects(
        acquireLock({ lockPath: `${path}.lock`, what: 'the journal', command: 'tnv activate', waitMs: 300 }),
        (err: Error & { code?: string; exitCode?: number }) => {
          assert.equal(err.code, 'Locked')
          assert.equal(err.exitCode, 27)
          assert.match(err.message, new RegExp(`pid ${process.pid}.*tnv stake`))
          return true
        },
      )
      await release()
    } finally {
      cleanup()
    }
  })
})

describe('journal with an unreadable file', () => {
  it('keeps the unreadable file aside instead of overwriting it', async () => {
    const { dir, cleanup } = tempDir('tnv-journal-')
    try {
      writeFileSync(join(dir, JOURNAL_FILE), '{"version":1,"entries":[{"hash":"0xold"') // cut short
      const j = new TxJournal(join(dir, JOURNAL_FILE))
      const release = await j.lock('test')
      j.recordSigned(entry('0xbb'))
      await release()
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
