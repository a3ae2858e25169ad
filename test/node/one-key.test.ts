/**
 * One key, one node, judged by the processes and the chain: on a devnet where the test's own
 * validator sits in the committee,
 * - two data directories holding the same key: the second `tnv node start` is refused (exit 29)
 *   and starts no process, also when both start at once; a killed holder's entry is stale;
 * - a copy running elsewhere (the reference node run directly on a copy: the stand-in for another
 *   host; the devnet's headers show its authority leading and scoring): the start is refused and
 *   starts nothing; once the copy stops, the same start succeeds; --skip-doppelganger-check
 *   starts and says what the operator accepts; an observer is not checked.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { type SeatedValidator, seatedValidator, standIn, watchAuthority } from './one-key-fixture.js'

// zombies (a detached node whose parent tnv has exited) count as gone
const alive = (pid: number) => isProcessAlive(pid)
const nodePid = (datadir: string): number | null => {
  const f = join(datadir, 'tnv-node.json')
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as { pid: number }).pid : null
}

describe('one key, one node (local fence and doppelganger check) on the devnet', () => {
  const tmp = tempDir('tnv-onekey-')
  let v: SeatedValidator
  const start = async (datadir: string, ...extra: string[]) =>
    runCli(
      [
        'node',
        'start',
        '--detach',
        '--datadir',
        datadir,
        '--doppelganger-window',
        '3',
        ...extra,
        '--',
        '--chain',
        'devnet',
        '--http',
        '--http.port',
        String(await freePort()),
        '--ipcdisable',
      ],
      { env: v.env },
    )
  const stop = (datadir: string) => runCli(['node', 'stop', '--datadir', datadir], { env: v.env })

  before(async () => {
    v = await seatedValidator(tmp.dir)
  })
  after(async () => {
    for (const d of ['validator', 'copy', 'copy2', 'observer']) await stop(join(tmp.dir, d))
    await v.stop()
    tmp.cleanup()
  })

  it('a second data directory with the same key is refused while the first runs, and starts no node', async () => {
    const copy = v.copy(join(tmp.dir, 'copy'))
    const first = await start(v.datadir)
    assert.equal(first.code, 0, first.stderr)
    const pid = nodePid(v.datadir) as number
    assert.ok(alive(pid))
    const second = await start(copy)
    assert.equal(second.code, 29, second.stderr)
    assert.match(second.stderr, /already live on this host: a node started by tnv \(pid \d+\) runs it from /)
    assert.equal(nodePid(copy), null, 'no node recorded for the copy')
    // the first node was not touched; stopping it frees the key for the copy
    assert.ok(alive(pid))
    assert.equal((await stop(v.datadir)).code, 0)
    assert.ok(!alive(pid))
    const third = await start(copy)
    assert.equal(third.code, 0, third.stderr)
    assert.ok(alive(nodePid(copy) as number))
    assert.equal((await stop(copy)).code, 0)
  })

  it('two starts of one key at once: exactly one node runs', async () => {
    const copy = join(tmp.dir, 'copy')
    const [a, b] = await Promise.all([start(v.datadir), start(copy)])
    assert.deepEqual([a.code, b.code].sort(), [0, 29], `${a.stderr}\n${b.stderr}`)
    const pids = [nodePid(v.datadir), nodePid(copy)].filter((p): p is number => p !== null && alive(p))
    assert.equal(pids.length, 1)
    await stop(v.datadir)
    await stop(copy)
  })

  it('a holder killed with SIGKILL leaves a stale entry: the next start of the key proceeds', async () => {
    const r = await start(v.datadir)
    assert.equal(r.code, 0, r.stderr)
    const pid = nodePid(v.datadir) as number
    process.kill(pid, 'SIGKILL')
    while (alive(pid)) await new Promise((res) => setTimeout(res, 50))
    const copy = join(tmp.dir, 'copy')
    const again = await start(copy)
    assert.equal(again.code, 0, again.stderr)
    await stop(copy)
    await stop(v.datadir)
  })

  it('a copy live elsewhere is seen in the headers and refused; after it stops the start succeeds', async () => {
    const other = await standIn(v.copy(join(tmp.dir, 'copy2')), v.env)
    try {
      // the chain's view: the authority leads and scores while the stand-in runs
      const seen = await watchAuthority(v.rpcUrl, v.authorityId, 6)
      assert.ok(seen.led > 0 && seen.rose > 0, JSON.stringify(seen))
      const refused = await start(v.datadir)
      assert.equal(refused.code, 29, refused.stderr)
      assert.match(refused.stderr, /is active on the network while no node started by tnv on this host holds the key/)
      assert.equal(nodePid(v.datadir), null, 'nothing started')

      const skipped = await start(v.datadir, '--skip-doppelganger-check')
      assert.equal(skipped.code, 0, skipped.stderr)
      assert.match(skipped.stderr, /not run \(--skip-doppelganger-check: the operator accepts that another copy/)
      assert.equal((await stop(v.datadir)).code, 0)
    } finally {
      await other.stop()
    }
    // silent now: the chain shows no lead or score for it
    const quiet = await watchAuthority(v.rpcUrl, v.authorityId, 5)
    assert.deepEqual(quiet, { led: 0, rose: 0 })
    const ok = await start(v.datadir)
    assert.equal(ok.code, 0, ok.stderr)
    assert.match(ok.stderr, /doppelganger check: authority \S+ silent over \d+ consensus headers/)
    assert.ok(alive(nodePid(v.datadir) as number))
    await stop(v.datadir)
  })

  it('an observer is not checked, and says so (in words, and in the JSON result)', async () => {
    const other = await standIn(join(tmp.dir, 'copy2'), v.env)
    const observer = async (...json: string[]) =>
      runCli(
        [
          'node',
          'start',
          '--detach',
          '--datadir',
          v.datadir,
          ...json,
          '--',
          '--chain',
          'devnet',
          '--observer',
          '--http',
          '--http.port',
          String(await freePort()),
          '--ipcdisable',
        ],
        { env: v.env },
      )
    try {
      const r = await observer()
      assert.equal(r.code, 0, r.stderr)
      assert.match(
        r.stderr,
        /doppelganger check: not run \(an observer \(--observer\) takes no part in consensus: no check\)/,
      )
      assert.equal((await stop(v.datadir)).code, 0)
      const j = await observer('--json')
      assert.equal(j.code, 0, j.stderr)
      const result = JSON.parse(j.stdout) as {
        pid: number
        keyGuard: { fence: string[]; doppelganger: { status: string; reason: string } }
      }
      assert.deepEqual(result.keyGuard.fence, [`authority:${v.authorityId}`])
      assert.equal(result.keyGuard.doppelganger.status, 'skipped')
      assert.match(result.keyGuard.doppelganger.reason, /observer/)
      assert.ok(alive(result.pid))
    } finally {
      await other.stop()
      await stop(v.datadir)
    }
  })
})
