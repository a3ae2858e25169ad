/**
 * `tnv node migrate` on the devnet between two "hosts" (two data directories holding the key, each
 * with its own tnv state directory, so the local fence cannot see across them): judged by sampling
 * both nodes' processes the whole time (never two live at once) and by the network's headers (the
 * authority active again after the move). A kill at a step of either side is finished by a rerun;
 * the old host refuses to start the key once it moved out.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
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

  it('a kill after every step of out and of in is finished by running the same command again', async () => {
    // the key is on B; it moves B → A → B → A, one kill point of each side per move
    const moves: { from: 'a' | 'b'; outAt: string; inAt: string }[] = [
      { from: 'b', outAt: 'migrate:stop', inAt: 'migrate:silence' },
      { from: 'a', outAt: 'migrate:silence', inAt: 'migrate:start' },
      { from: 'b', outAt: 'migrate:mark', inAt: 'migrate:confirm' },
    ]
    for (const { from, outAt, inAt } of moves) {
      const to = from === 'a' ? 'b' : 'a'
      const dir = { a, b }
      const killedOut = await out(dir[from], from, { TNV_KILL_AT: outAt })
      assert.equal(killedOut.code, -1, killedOut.stderr)
      assert.equal(nodesOf(dir[from]).length, 0, `stopped before the kill at ${outAt}`)
      const rerunOut = await out(dir[from], from)
      assert.equal(rerunOut.code, 0, rerunOut.stderr + rerunOut.stdout)
      assert.match(rerunOut.stdout, /"event":"resume"/)

      const killedIn = await into(dir[to], to, { TNV_KILL_AT: inAt })
      assert.equal(killedIn.code, -1, killedIn.stderr)
      assert.equal(nodesOf(dir[to]).length, inAt === 'migrate:silence' ? 0 : 1, `after the kill at ${inAt}`)
      assert.equal(nodesOf(dir[from]).length, 0)
      const rerunIn = await into(dir[to], to)
      assert.equal(rerunIn.code, 0, rerunIn.stderr + rerunIn.stdout)
      assert.match(rerunIn.stdout, /"event":"resume"/)
      assert.equal(nodesOf(dir[to]).length, 1)
      assert.equal(nodesOf(dir[from]).length, 0)
    }
  })
})
