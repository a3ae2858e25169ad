/**
 * `tnv node migrate` on the devnet between two "hosts" (two data directories holding the key, each
 * with its own tnv state directory, so the local fence cannot see across them): judged by sampling
 * both nodes' processes the whole time (never two live at once) and by the network's headers (the
 * authority active again after the move). A kill at a step of either side is finished by a rerun;
 * the old host refuses to start the key once it moved out. `--check` on either side lists the steps
 * (would-change), or says already-done once the side finished, and leaves both data directories,
 * both state directories and both nodes as they were; a failing precondition (the key running on
 * this host, an endpoint that does not answer) exits with the run's code.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { type CliResult, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { treeOf } from '../helpers/tree.js'
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

type MigrateCheck = {
  outcome: string
  check: true
  side: string
  running: boolean
  pid: number | null
  network: { standing: string; authorityId: string }
  steps: { step: string; action: string; detail: string }[]
  command: string[] | null
  files: { path: string; mode: string; exists: boolean; action: string }[]
}
type ErrorJson = { error: { code: string; exitCode: number } }

/**
 * What tnv keeps in a data directory (its files, node-info.yaml, node-keys/), with modes and times;
 * a running node's own database and logs change by themselves and are left out.
 */
function tnvFiles(datadir: string): string {
  return readdirSync(datadir)
    .filter((n) => n.startsWith('tnv-') || n === 'node-info.yaml' || n === 'node-keys')
    .sort()
    .map((n) => `${n}\n${treeOf(join(datadir, n))}`)
    .join('\n')
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

  const checkSide = async (side: 'out' | 'in', dir: string, which: 'a' | 'b', extra: string[] = []) =>
    runCli(
      [
        'node',
        'migrate',
        side,
        '--datadir',
        dir,
        '--doppelganger-window',
        '3',
        '--check',
        '--json',
        ...extra,
        ...(side === 'in' ? await nodeFlags() : []),
      ],
      { env: host(which) },
    )
  /** Both hosts: tnv's files in each data directory, each state directory, each node's pids. */
  const world = () =>
    [
      tnvFiles(a),
      existsSync(b) ? tnvFiles(b) : '',
      treeOf(join(tmp.dir, 'state-a')),
      treeOf(join(tmp.dir, 'state-b')),
      nodesOf(a).join(','),
      nodesOf(b).join(','),
    ].join('\n--\n')
  /** A check that succeeds: its plan, and nothing changed on either host. */
  const planOf = async (side: 'out' | 'in', dir: string, which: 'a' | 'b'): Promise<MigrateCheck> => {
    const before = world()
    const r = await checkSide(side, dir, which)
    assert.equal(r.code, 0, r.stderr + r.stdout)
    assert.equal(world(), before, `migrate ${side} --check changed a file, a state directory or a node`)
    const plan = parseJson<MigrateCheck>(r)
    assert.equal(plan.check, true)
    assert.equal(plan.side, side)
    return plan
  }
  const refusedCheck = async (r: () => Promise<CliResult>, code: string, exitCode: number) => {
    const before = world()
    const done = await r()
    assert.equal(done.code, exitCode, done.stderr + done.stdout)
    assert.equal(parseJson<ErrorJson>(done).error.code, code)
    assert.equal(world(), before)
  }

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

  it('--check before the move: out lists its steps, in refuses while the key runs here, a dead endpoint exits as the run; nothing changes', async () => {
    const [pid] = nodesOf(a)
    const out = await planOf('out', a, 'a')
    assert.equal(out.outcome, 'would-change')
    assert.equal(out.running, true)
    assert.equal(out.pid, pid)
    assert.equal(out.network.standing, 'in-committee')
    assert.equal(out.network.authorityId, v.authorityId)
    assert.deepEqual(
      out.steps.map((s) => [s.step, s.action]),
      [
        ['stop', 'would-run'],
        ['silence', 'would-run'],
        ['mark', 'would-run'],
      ],
    )
    assert.match(out.steps[0]?.detail ?? '', new RegExp(`stop node ${pid}`))
    assert.deepEqual(out.files, [{ path: join(a, 'tnv-migrate.json'), mode: '0600', exists: false, action: 'create' }])
    // B while A's node runs the key on this host: the start's fence refuses it (exit 29), as the run's start would
    await refusedCheck(() => checkSide('in', b, 'b'), 'KeyRunningUntracked', 29)
    // an endpoint that answers nothing: the check exits as the run does (10), and the run changes nothing here either
    const dead = `http://127.0.0.1:${await freePort()}`
    await refusedCheck(() => checkSide('out', a, 'a', ['--network-url', dead]), 'RpcCall', 10)
    const c = v.copy(join(tmp.dir, 'host-c'))
    const checked = await checkSide('in', c, 'b', ['--network-url', dead])
    assert.equal(checked.code, 10, checked.stderr)
    const ran = await runCli(
      ['node', 'migrate', 'in', '--datadir', c, '--network-url', dead, '--json', ...(await nodeFlags())],
      { env: host('b') },
    )
    assert.equal(ran.code, checked.code, ran.stderr)
    assert.equal(nodesOf(c).length, 0)
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
      // A stopped: B's check passes the start's checks and lists the whole side
      const plan = await planOf('in', b, 'b')
      assert.equal(plan.outcome, 'would-change')
      assert.equal(plan.running, false)
      assert.deepEqual(
        plan.steps.map((s) => [s.step, s.action]),
        [
          ['silence', 'would-run'],
          ['start', 'would-run'],
          ['confirm', 'would-run'],
        ],
      )
      assert.deepEqual(plan.command?.slice(1, 4), ['node', '--datadir', b])
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
    // each side's rerun has nothing to do, and its check says so
    const outDone = await planOf('out', a, 'a')
    assert.equal(outDone.outcome, 'already-done')
    assert.deepEqual(outDone.files, [])
    const inDone = await planOf('in', b, 'b')
    assert.equal(inDone.outcome, 'already-done')
    assert.equal(inDone.pid, nodesOf(b)[0])
    // and the runs agree: each side run again does nothing (exit 0, already-done; the old host's
    // network comes from its journal, its node being stopped)
    const before = world()
    for (const rerun of [await out(a, 'a'), await into(b, 'b')]) {
      assert.equal(rerun.code, 0, rerun.stderr + rerun.stdout)
      const last = rerun.stdout.trim().split('\n').at(-1) ?? ''
      assert.equal((JSON.parse(last) as { outcome: string }).outcome, 'already-done')
    }
    assert.equal(world(), before)
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
