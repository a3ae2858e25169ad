/**
 * A commit prepared while a staged file's content is still being computed (what `keytool
 * generate` does during PBKDF2): until `commit()` nothing in the data directory is replaced and
 * no record in phase swap exists, so a kill rolls back; `abandon()` leaves every file as it was;
 * `commit()` swaps the filled files in, with the backup of what was there.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { reserveFile } from '../../src/lib/fs/atomic.js'
import {
  COMMIT_INTENT_FILE,
  type FileReplacement,
  prepareCommit,
  recoverCommit,
  reserveStagedFile,
  stageDir,
} from '../../src/lib/keys/commit-files.js'
import { tempDir } from '../helpers/cli.js'

/** A data directory with keys and node-info.yaml, as a previous generate leaves it. */
function existing(datadir: string): void {
  mkdirSync(join(datadir, 'node-keys'), { recursive: true, mode: 0o700 })
  writeFileSync(join(datadir, 'node-keys', 'bls.kw'), 'old key', { mode: 0o600 })
  writeFileSync(join(datadir, 'node-info.yaml'), 'old info\n')
}

/** Staged node-keys/ with an empty reserved bls.kw, and a reserved node-info.yaml. */
async function stage(datadir: string) {
  const stagedKeys = await stageDir(
    join(datadir, 'node-keys'),
    [{ name: 'primary.seed', data: 'seed', mode: 0o600 }],
    0o700,
  )
  const key = await reserveFile(join(stagedKeys, 'bls.kw'), 0o600)
  const info = await reserveStagedFile(join(datadir, 'node-info.yaml'), 0o644)
  const replacements: FileReplacement[] = [
    { kind: 'dir', target: join(datadir, 'node-keys'), staged: stagedKeys },
    { kind: 'file', target: join(datadir, 'node-info.yaml'), staged: info.path },
  ]
  return { key, info, replacements }
}

const listing = (datadir: string) => readdirSync(datadir).sort()

describe('a commit prepared before its content is known', () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir('tnv-prepare-'))
  })
  after(() => cleanup())

  it('replacing: the backup is made and the record says backup (a kill rolls back) until commit()', async () => {
    const datadir = join(dir, 'replace')
    existing(datadir)
    const { key, info, replacements } = await stage(datadir)
    assert.equal(statSync(key.path).mode & 0o777, 0o600, 'the reserved key file has its mode from the start')
    const prepared = await prepareCommit({ datadir, replacements })
    const record = JSON.parse(readFileSync(join(datadir, COMMIT_INTENT_FILE), 'utf8'))
    assert.equal(record.phase, 'backup')
    const backups = listing(datadir).filter((n) => n.startsWith('backup-'))
    assert.equal(backups.length, 1)
    assert.equal(readFileSync(join(datadir, backups[0] as string, 'node-info.yaml'), 'utf8'), 'old info\n')
    // nothing replaced yet
    assert.equal(readFileSync(join(datadir, 'node-keys', 'bls.kw'), 'utf8'), 'old key')
    await key.fill('new key')
    await info.fill('new info\n')
    const { backupDir } = await prepared.commit()
    assert.equal(readFileSync(join(datadir, 'node-keys', 'bls.kw'), 'utf8'), 'new key')
    assert.equal(readFileSync(join(datadir, 'node-info.yaml'), 'utf8'), 'new info\n')
    assert.equal(readFileSync(join(backupDir as string, 'node-keys', 'bls.kw'), 'utf8'), 'old key')
    assert.deepEqual(listing(datadir), [backups[0], 'node-info.yaml', 'node-keys'].sort())
    await assert.rejects(prepared.commit(), /already committed/)
  })

  it('abandon() after prepare: every file as it was, no backup, record or staged entry left', async () => {
    const datadir = join(dir, 'abandon')
    existing(datadir)
    const before = listing(datadir)
    const { key, info, replacements } = await stage(datadir)
    const prepared = await prepareCommit({ datadir, replacements })
    await key.discard()
    await info.discard()
    await prepared.abandon()
    assert.deepEqual(listing(datadir), before)
    assert.deepEqual(readdirSync(join(datadir, 'node-keys')), ['bls.kw'])
    assert.equal(readFileSync(join(datadir, 'node-keys', 'bls.kw'), 'utf8'), 'old key')
  })

  it('a first write: no record at all before commit(), only our own temporary one', async () => {
    const datadir = join(dir, 'first')
    mkdirSync(datadir)
    const { key, info, replacements } = await stage(datadir)
    const prepared = await prepareCommit({ datadir, replacements })
    const names = listing(datadir)
    assert.ok(!names.includes(COMMIT_INTENT_FILE))
    const record = names.find((n) => n.startsWith(`.${COMMIT_INTENT_FILE}.tmp-${process.pid}-`))
    assert.ok(record, names.join(' '))
    assert.equal(JSON.parse(readFileSync(join(datadir, record), 'utf8')).phase, 'swap')
    // a recovery now (as after a kill, but this writer lives) does not make the empty key current
    assert.equal((await recoverCommit(datadir)).action, 'rolled-back')
    assert.ok(!listing(datadir).includes('node-keys'))
    await key.discard()
    await info.discard()
    await prepared.abandon()
    assert.deepEqual(listing(datadir), [])
  })

  it('a record brought back after the commit (its removal is not fsynced): nothing to do, nothing reported', async () => {
    const datadir = join(dir, 'brought-back')
    mkdirSync(datadir)
    const { key, info, replacements } = await stage(datadir)
    const prepared = await prepareCommit({ datadir, replacements })
    const tmp = listing(datadir).find((n) => n.startsWith(`.${COMMIT_INTENT_FILE}.tmp-`)) as string
    const record = readFileSync(join(datadir, tmp), 'utf8')
    await key.fill('new key')
    await info.fill('new info\n')
    await prepared.commit()
    writeFileSync(join(datadir, COMMIT_INTENT_FILE), record)
    assert.deepEqual(await recoverCommit(datadir), { action: 'none' })
    assert.deepEqual(listing(datadir), ['node-info.yaml', 'node-keys'])
    assert.equal(readFileSync(join(datadir, 'node-keys', 'bls.kw'), 'utf8'), 'new key')
  })
})
