/**
 * The backup file, the record and the gate as a library (no process started): a backup holds the
 * data directory's files byte for byte; an edited file is refused even when its sha256 was
 * recomputed to match (paths outside node-info.yaml and node-keys/, unknown fields, duplicates);
 * the gate accepts a phrase proof or a backup of the current key file, reports on the rehearsal
 * chain, and is skipped only with the flag.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { DEVNET_CHAIN_ID } from '../../src/lib/chain/addresses.js'
import { makeBackup, parseBackup } from '../../src/lib/keys/backup-file.js'
import { assertBackupGate } from '../../src/lib/keys/backup-gate.js'
import { recordBackupProof } from '../../src/lib/keys/backup-record.js'
import { generateNodeKeys } from '../../src/lib/keys/generate-node-keys.js'
import { generateMnemonic } from '../../src/lib/keys/mnemonic.js'
import { blsSecretFromMnemonic } from '../../src/lib/keys/mnemonic-key.js'
import { BackupFileError, BackupUnverifiedError } from '../../src/lib/keys/recovery-errors.js'
import { tempDir } from '../helpers/cli.js'

const ADDRESS = '0x4444444444444444444444444444444444444444'

/** The backup's own canonical hash, recomputed after an edit (what an attacker would do). */
function resign(doc: Record<string, unknown>): string {
  const { sha256: _old, ...body } = doc as Record<string, unknown> & {
    files: { path: string; mode: number; base64: string }[]
  }
  const canonical = JSON.stringify({
    format: body.format,
    version: body.version,
    createdAt: body.createdAt,
    blsPublicKey: body.blsPublicKey,
    executionAddress: body.executionAddress,
    keyFile: body.keyFile,
    files: body.files.map((f) => ({
      path: f.path,
      mode: f.mode,
      base64: f.base64,
    })),
  })
  return JSON.stringify({ ...doc, sha256: createHash('sha256').update(canonical).digest('hex') })
}

describe('backup file, record and gate (library)', () => {
  let dir: string
  let cleanup: () => void
  let datadir: string
  let publicKey: string
  before(async () => {
    ;({ dir, cleanup } = tempDir('tnv-backup-lib-'))
    datadir = join(dir, 'v')
    const secret = blsSecretFromMnemonic(generateMnemonic(), 0)
    const r = await generateNodeKeys({ datadir, address: ADDRESS, secret, passphrase: async () => undefined })
    publicKey = `0x${Buffer.from(r.info.blsPublicKey).toString('hex')}`
  })
  after(() => cleanup())

  it('holds node-info.yaml and node-keys/ byte for byte, and parses back', async () => {
    const { text, backup } = await makeBackup(datadir)
    assert.equal(backup.blsPublicKey, publicKey)
    assert.deepEqual(
      backup.files.map((f) => f.path),
      ['node-info.yaml', 'node-keys/bls.key', 'node-keys/primary.seed', 'node-keys/worker.seed'],
    )
    for (const f of backup.files) assert.deepEqual(Buffer.from(f.base64, 'base64'), readFileSync(join(datadir, f.path)))
    assert.deepEqual(parseBackup(text, 'b.json'), backup)
  })

  it('refuses edits even with a recomputed sha256: a path outside the data directory, unknown fields, duplicates', async () => {
    const { text } = await makeBackup(datadir)
    const doc = JSON.parse(text)
    const traversal = { ...doc, files: [...doc.files, { path: 'node-keys/../../etc/cron.d/x', mode: 420, base64: '' }] }
    assert.throws(() => parseBackup(resign(traversal), 'b.json'), /a field is missing or malformed/)
    assert.throws(() => parseBackup(resign({ ...doc, note: 'hi' }), 'b.json'), /fields a tnv backup never has \(note\)/)
    const dup = { ...doc, files: [...doc.files, doc.files[0]] }
    assert.throws(() => parseBackup(resign(dup), 'b.json'), /names a file twice/)
    assert.throws(() => parseBackup(resign({ ...doc, version: 2 }), 'b.json'), /format version 2/)
    assert.throws(() => parseBackup('hello', 'b.json'), /it is not JSON/)
    assert.throws(
      () => parseBackup(text.replace(/"createdAt": "[^"]+"/, '"createdAt": "2000-01-01T00:00:00.000Z"'), 'b.json'),
      BackupFileError,
    )
  })

  it('the gate: refused without a proof (the devnet too), reports only with --devnet-relaxed on the rehearsal chain, skipped with the flag, passes with a proof', async () => {
    const gate = (chainId: number, skip = false, relaxed = false) =>
      assertBackupGate({ datadir, publicKey, chainId, action: 'the stake', skip, relaxed })
    await assert.rejects(gate(2017), BackupUnverifiedError)
    // the devnet asks as a real network does, unless relaxed explicitly
    await assert.rejects(gate(DEVNET_CHAIN_ID), BackupUnverifiedError)
    assert.equal((await gate(DEVNET_CHAIN_ID, false, true)).outcome, 'rehearsal')
    // the relaxation is refused anywhere else, before anything is read
    await assert.rejects(gate(2017, false, true), (err: Error & { exitCode?: number }) => {
      assert.match(
        err.message,
        /--devnet-relaxed .* only on its rehearsal chain id 911329; this network is chain id 2017/,
      )
      assert.equal(err.exitCode, 2)
      return true
    })
    assert.match(JSON.stringify(await gate(487, true)), /You accept that losing/)
    // a backup of ANOTHER key file (e.g. before change-passphrase) does not count
    await recordBackupProof(datadir, {
      how: 'backup-verified',
      blsPublicKey: publicKey,
      keyFile: 'bls.key',
      keyFileSha256: '00'.repeat(32),
      backupFile: '/x',
      backupSha256: '00'.repeat(32),
      registry: null,
      at: new Date().toISOString(),
    })
    await assert.rejects(gate(2017), /holds the key file as it was before it changed/)
    // another key's phrase does not count either
    await recordBackupProof(datadir, {
      how: 'phrase-confirmed',
      blsPublicKey: `0x${'ab'.repeat(96)}`,
      keyPath: 'm/0',
      at: 'now',
    })
    await assert.rejects(gate(2017), BackupUnverifiedError)
    await recordBackupProof(datadir, {
      how: 'phrase-confirmed',
      blsPublicKey: publicKey,
      keyPath: 'm/12381/5522764/0/0/0',
      at: 'now',
    })
    assert.equal((await gate(2017)).outcome, 'verified')
    // an unreadable record proves nothing
    writeFileSync(join(datadir, 'tnv-backup.json'), '{')
    await assert.rejects(gate(2017), BackupUnverifiedError)
  })
})
