/**
 * `--check` of `tnv node start` and `tnv node stop` (the automation contract, docs/automation.md):
 * every refusal still runs, nothing starts or stops, no file is written, and `outcome` tells
 * would-change from already-done. Judged by the node process and the data directory's files.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const FAKE = join(ROOT, 'test/node/fixtures/fake-node.mjs')
type Check = { outcome: string; check: boolean; running: boolean; pid: number | null; args?: string[] }

describe('node start --check, node stop --check', () => {
  const t = tempDir('tnv-check-mode-')
  after(async () => {
    await runCli(['node', 'stop', '--datadir', t.dir])
    t.cleanup()
  })

  it('start --check: would-change, nothing started, nothing written; the JWT secret redacted', async () => {
    const port = await freePort()
    const secret = join(t.dir, 'jwt.hex')
    writeFileSync(secret, 'ab'.repeat(32), { mode: 0o600 })
    const before = readdirSync(t.dir)
    const r = await runCli([
      'node',
      'start',
      '--check',
      '--json',
      '--datadir',
      t.dir,
      '--node-binary',
      FAKE,
      '--jwt-secret-file',
      secret,
      '--',
      '--http',
      '--http.port',
      String(port),
      '--ipcdisable',
    ])
    assert.equal(r.code, 0, r.stderr)
    const c = parseJson<Check>(r)
    assert.equal(c.outcome, 'would-change')
    assert.equal(c.running, false)
    assert.ok(c.args?.includes('<redacted>'))
    assert.equal(r.stdout.includes('ab'.repeat(32)), false)
    assert.deepEqual(readdirSync(t.dir), before)
    assert.equal(existsSync(join(t.dir, 'tnv-node.json')), false)
  })

  it('start --check still refuses what start refuses (a flag the node does not define)', async () => {
    const r = await runCli([
      'node',
      'start',
      '--check',
      '--json',
      '--datadir',
      t.dir,
      '--node-binary',
      FAKE,
      '--',
      '--workers',
      '2',
    ])
    assert.equal(r.code, 25, r.stdout)
  })

  it('a running node: start --check is already-done; stop --check would-change and leaves it running; after the stop, already-done', async () => {
    const port = await freePort()
    const flags = ['--', '--http', '--http.port', String(port), '--ipcdisable']
    const started = await runCli([
      'node',
      'start',
      '--detach',
      '--json',
      '--datadir',
      t.dir,
      '--node-binary',
      FAKE,
      ...flags,
    ])
    assert.equal(started.code, 0, started.stderr)
    const pid = parseJson<{ pid: number }>(started).pid
    const again = parseJson<Check>(
      await runCli(['node', 'start', '--check', '--json', '--datadir', t.dir, '--node-binary', FAKE, ...flags]),
    )
    assert.deepEqual([again.outcome, again.running, again.pid], ['already-done', true, pid])
    const stopCheck = parseJson<Check>(await runCli(['node', 'stop', '--check', '--json', '--datadir', t.dir]))
    assert.deepEqual([stopCheck.outcome, stopCheck.pid], ['would-change', pid])
    // the node still runs: process.kill(pid, 0) throws for a process that is gone
    assert.doesNotThrow(() => process.kill(pid, 0))
    const stopped = await runCli(['node', 'stop', '--json', '--datadir', t.dir])
    assert.equal(parseJson<{ stopped: boolean }>(stopped).stopped, true)
    const after = parseJson<Check>(await runCli(['node', 'stop', '--check', '--json', '--datadir', t.dir]))
    assert.deepEqual([after.outcome, after.running], ['already-done', false])
  })
})
