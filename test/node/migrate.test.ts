/**
 * `tnv node migrate` on the devnet between two "hosts" (two data directories holding the key, each
 * with its own tnv state directory, so the local fence cannot see across them): judged by sampling
 * both nodes' processes the whole time (never two live at once) and by the network's headers (the
 * authority active again after the move). A kill at a step of either side is finished by a rerun;
 * the old host refuses to start the key once it moved out.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { type SeatedValidator, seatedValidator, watchAuthority } from './one-key-fixture.js'

/** Pids of live processes whose command line names this data directory after --datadir. */
function nodesOf(datadir: string): number[] {
  const out: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let argv: string[]
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')
    } catch {
      continue
    }
    const i = argv.indexOf('--datadir')
    if (i >= 0 && argv[i + 1] === datadir && argv.includes('node') && isProcessAlive(Number(name)))
      out.push(Number(name))
  }
  return out
}

describe('tnv node migrate between two hosts on the devnet', () => {
  const tmp = tempDir('tnv-migrate-')
  let v: SeatedValidator
  let a = ''
  let b = ''
  const host = (which: 'a' | 'b') => ({ ...v.env, TNV_STATE_DIR: join(tmp.dir, `state-${which}`) })
  const nodeFlags = async () => [
    '--',
    '--chain',
    'devnet',
    '--http',
    '--http.port',
    String(await freePort()),
    '--ipcdisable',
  ]
  const out = (dir: string, which: 'a' | 'b', env: Record<string, string> = {}) =>
    runCli(['node', 'migrate', 'out', '--datadir', dir, '--doppelganger-window', '3', '--json'], {
      env: { ...host(which), ...env },
    })
  const into = async (dir: string, which: 'a' | 'b', env: Record<string, string> = {}) =>
    runCli(
      [
        'node',
        'migrate',
        'in',
        '--datadir',
        dir,
        '--doppelganger-window',
        '3',
        '--confirm-timeout',
        '60',
        '--json',
        ...(await nodeFlags()),
      ],
      {
        env: { ...host(which), ...env },
      },
    )

  before(async () => {
    v = await seatedValidator(tmp.dir)
    a = v.datadir
    b = v.copy(join(tmp.dir, 'host-b'))
    const r = await runCli(
      ['node', 'start', '--detach', '--datadir', a, '--doppelganger-window', '3', ...(await nodeFlags())],
      { env: host('a') },
    )
    assert.equal(r.code, 0, r.stderr)
  })
  after(async () => {
    await runCli(['node', 'stop', '--datadir', a], { env: host('a') })
    await runCli(['node', 'stop', '--datadir', b], { env: host('b') })
    await v.stop()
    tmp.cleanup()
  })

  it('out on A, in on B: never two live copies (sampled), the authority active again, A refuses to start the key', async () => {
    let both = 0
    let samples = 0
    let stop = false
    const sampler = (async () => {
      while (!stop) {
        samples++
        if (nodesOf(a).length > 0 && nodesOf(b).length > 0) both++
        await new Promise((r) => setTimeout(r, 25))
      }
    })()
    try {
      assert.equal(nodesOf(a).length, 1)
      const o = await out(a, 'a')
      assert.equal(o.code, 0, o.stderr + o.stdout)
      assert.equal(nodesOf(a).length, 0)
      const i = await into(b, 'b')
      assert.equal(i.code, 0, i.stderr + i.stdout)
      assert.equal(nodesOf(b).length, 1)
    } finally {
      stop = true
      await sampler
    }
    assert.equal(both, 0, `${both} of ${samples} samples saw both nodes`)
    assert.ok(samples > 50)
    // the network's view: B's node leads and scores for the authority
    const seen = await watchAuthority(v.rpcUrl, v.authorityId, 6)
    assert.ok(seen.led > 0 || seen.rose > 0, JSON.stringify(seen))
    const again = await runCli(['node', 'start', '--detach', '--datadir', a, ...(await nodeFlags())], {
      env: host('a'),
    })
    assert.equal(again.code, 29, again.stderr)
    assert.match(again.stderr, /was moved to another host/)
    assert.equal(nodesOf(a).length, 0)
  })

  it('a kill after each step of out (on B) and in (on A) is finished by running the same command again', async () => {
    for (const point of ['migrate:stop', 'migrate:silence']) {
      const killed = await out(b, 'b', { TNV_KILL_AT: point })
      assert.equal(killed.code, -1, killed.stderr)
      assert.equal(nodesOf(b).length, 0)
      const rerun = await out(b, 'b')
      assert.equal(rerun.code, 0, rerun.stderr + rerun.stdout)
      assert.match(rerun.stdout, /"event":"resume"/)
      // back to B for the next kill point
      if (point === 'migrate:stop') {
        const back = await into(b, 'b')
        assert.equal(back.code, 0, back.stderr + back.stdout)
      }
    }
    const killed = await into(a, 'a', { TNV_KILL_AT: 'migrate:start' })
    assert.equal(killed.code, -1, killed.stderr)
    assert.equal(nodesOf(a).length, 1, 'the node started before the kill runs')
    assert.equal(nodesOf(b).length, 0)
    const rerun = await into(a, 'a')
    assert.equal(rerun.code, 0, rerun.stderr + rerun.stdout)
    assert.equal(nodesOf(a).length, 1)
    assert.ok(existsSync(join(a, 'tnv-node.json')))
  })
})
