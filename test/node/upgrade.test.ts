/**
 * `tnv node upgrade` and `tnv node restart` on the devnet, judged by the processes, the binary on
 * disk and the node's own RPC (never by tnv's words): the validator sits in the committee; its
 * node runs from a stand-in binary (a script around tnv's reference node that prints its own
 * release with --version). A "new binary" that fails to start and one that starts but never
 * catches up (CvvInactive) are each rolled back, and the old binary serves again; a good one is
 * installed after the safe window (the test moves the epoch on while tnv waits), the old one
 * kept; a kill at every step leaves a state that running the same command again finishes.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { BIN, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { type Header, rpc, type SeatedValidator, seatedValidator } from './one-key-fixture.js'

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

function stand(path: string, release: string, behaviour: 'good' | 'fails' | 'stalls'): string {
  const main = join(ROOT, 'dist', 'entries', 'node-main.js')
  writeFileSync(
    path,
    `#!/usr/bin/env node
// a stand-in node binary: tnv's reference node as release ${release} (${behaviour})
const args = process.argv.slice(2)
if (args[0] === '--version') { console.log('tnv-reference-node/${release}'); process.exit(0) }
const running = args[0] === 'node' && !args.includes('--help')
if (${behaviour === 'fails'} && running) { console.error('error: this build cannot open the database'); process.exit(1) }
const extra = ${behaviour === 'stalls'} && running ? ['--devnet.never-catch-up'] : []
const { main } = await import(${JSON.stringify(main)})
await main([...args, ...extra])
`,
    { mode: 0o755 },
  )
  return path
}

type NodeRecord = { pid: number; rpc: { http: string } }
const nodeRecord = (datadir: string): NodeRecord => JSON.parse(readFileSync(join(datadir, 'tnv-node.json'), 'utf8'))

/** The node recorded for the data directory runs, is the expected release, reports CvvActive and advances. */
async function serves(v: SeatedValidator, binary: string, release: string): Promise<void> {
  const n = nodeRecord(v.datadir)
  assert.ok(isProcessAlive(n.pid), `pid ${n.pid} runs`)
  assert.ok(readFileSync(`/proc/${n.pid}/cmdline`, 'utf8').split('\0').includes(binary))
  const version = await new Promise<string>((resolve) => {
    const c = spawn(process.execPath, [binary, '--version'])
    let out = ''
    c.stdout.on('data', (d) => (out += d))
    c.on('close', () => resolve(out.trim()))
  })
  assert.equal(version, `tnv-reference-node/${release}`)
  assert.equal(await rpc(n.rpc.http, 'tn_nodeMode'), 'CvvActive')
  const a = (await rpc<Header>(n.rpc.http, 'tn_latestConsensusHeader')).number
  for (let i = 0; i < 100; i++) {
    if ((await rpc<Header>(n.rpc.http, 'tn_latestConsensusHeader')).number > a) return
    await new Promise((r) => setTimeout(r, 200))
  }
  assert.fail('its consensus headers do not advance')
}

describe('tnv node upgrade / restart on the devnet', () => {
  const tmp = tempDir('tnv-upgrade-')
  const bin = join(tmp.dir, 'bin')
  let v: SeatedValidator
  let node = ''
  const upgrade = (to: string, ...extra: string[]) =>
    runCli(['node', 'upgrade', '--datadir', v.datadir, '--binary', to, '--json', ...extra], { env: v.env })
  const lines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)

  before(async () => {
    v = await seatedValidator(tmp.dir)
    mkdirSync(bin)
    stand(join(bin, 'old.mjs'), 'v1.0.0', 'good')
    stand(join(bin, 'good.mjs'), 'v1.1.0', 'good')
    stand(join(bin, 'fails.mjs'), 'v1.1.0-fails', 'fails')
    stand(join(bin, 'stalls.mjs'), 'v1.1.0-stalls', 'stalls')
    node = stand(join(bin, 'telcoin-network.mjs'), 'v1.0.0', 'good')
    const r = await runCli(
      [
        'node',
        'start',
        '--detach',
        '--datadir',
        v.datadir,
        '--node-binary',
        node,
        '--doppelganger-window',
        '2',
        '--',
        '--chain',
        'devnet',
        '--http',
        '--http.port',
        String(await freePort()),
        '--http.api',
        'eth,net,web3,rpc,tn',
        '--ipcdisable',
      ],
      { env: v.env },
    )
    assert.equal(r.code, 0, r.stderr)
    await serves(v, node, 'v1.0.0')
  })
  after(async () => {
    await runCli(['node', 'stop', '--datadir', v.datadir], { env: v.env })
    await v.stop()
    tmp.cleanup()
  })

  it('--check: the preflight and the plan as JSON lines; nothing changes', async () => {
    const before = { sha: sha(node), pid: nodeRecord(v.datadir).pid }
    const r = await upgrade(join(bin, 'good.mjs'), '--check')
    assert.equal(r.code, 0, r.stderr)
    const events = lines(r.stdout)
    const plan = events.find((e) => e.event === 'plan')?.plan as Record<string, unknown>
    assert.equal(plan.newVersion, 'tnv-reference-node/v1.1.0')
    assert.equal(plan.oldVersion, 'tnv-reference-node/v1.0.0')
    assert.equal(plan.oldMode, 'CvvActive')
    // the automation contract's outcome (docs/automation.md): a restart or upgrade always changes
    const result = events.find((e) => 'outcome' in e) as Record<string, unknown>
    assert.deepEqual([result.outcome, result.check], ['would-change', true])
    assert.deepEqual(before, { sha: sha(node), pid: nodeRecord(v.datadir).pid })
    assert.ok(!existsSync(join(v.datadir, 'tnv-upgrade.json')))
  })

  for (const bad of ['fails', 'stalls'] as const)
    it(`a new binary that ${bad === 'fails' ? 'fails to start' : 'never catches up'} is rolled back: exit 31, the old binary serves again`, async () => {
      const old = sha(node)
      const r = await upgrade(join(bin, `${bad}.mjs`), '--now', '--deadline', '8')
      assert.equal(r.code, 31, r.stderr + r.stdout)
      const events = lines(r.stdout)
      assert.ok(events.some((e) => e.event === 'step' && e.step === 'swap' && e.status === 'done'))
      assert.ok(events.some((e) => e.event === 'step' && e.step === 'rollback' && e.status === 'done'))
      assert.equal((events.at(-1) as { error: { code: string } }).error.code, 'UpgradeRolledBack')
      assert.equal(sha(node), old, 'the old binary is back in place')
      await serves(v, node, 'v1.0.0')
    })

  it('a good binary waits for the window (a committee seat: just after a boundary), is installed, the old one kept', async () => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'node',
        'upgrade',
        '--datadir',
        v.datadir,
        '--binary',
        join(bin, 'good.mjs'),
        '--json',
        '--margin',
        '1',
        '--window-slack',
        '3',
        '--deadline',
        '60',
      ],
      { env: { ...process.env, ...v.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    let err = ''
    let advanced = false
    const pidBefore = nodeRecord(v.datadir).pid
    child.stderr.on('data', (d) => (err += d))
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', async (d) => {
        out += d
        // tnv waits for the next boundary: the old node must still run, untouched; then the epoch moves on
        if (!advanced && out.includes('"event":"waiting"')) {
          advanced = true
          assert.equal(nodeRecord(v.datadir).pid, pidBefore)
          assert.ok(isProcessAlive(pidBefore))
          const r = await runCli(['devnet', 'advance-epoch', '--datadir', v.devnetDir], { env: v.env })
          assert.equal(r.code, 0, r.stderr)
        }
      })
      child.on('close', resolve)
    })
    assert.equal(code, 0, err + out)
    assert.ok(advanced, 'tnv waited for a boundary')
    const events = lines(out)
    assert.deepEqual(
      events.filter((e) => e.event === 'step' && e.status === 'done').map((e) => e.step),
      ['preflight', 'window', 'keep-old', 'stop', 'swap', 'start', 'verify'],
    )
    assert.equal(sha(node), sha(join(bin, 'good.mjs')))
    assert.equal(sha(`${node}.tnv-previous`), sha(join(bin, 'old.mjs')))
    await v.seat()
    await serves(v, node, 'v1.1.0')
  })

  const POINTS = ['preflight', 'window', 'keep-old', 'stop', 'swap', 'start', 'verify']
  it('a kill at every step: running the same command again finishes it', async () => {
    let to = 'old'
    for (const point of POINTS) {
      const target = join(bin, `${to}.mjs`)
      const killed = await runCli(
        ['node', 'upgrade', '--datadir', v.datadir, '--binary', target, '--json', '--now', '--deadline', '30'],
        {
          env: { ...v.env, TNV_KILL_AT: `upgrade:${point}` },
        },
      )
      assert.equal(killed.code, -1, `killed at ${point}: ${killed.stderr}`)
      const journal = JSON.parse(readFileSync(join(v.datadir, 'tnv-upgrade.json'), 'utf8')) as {
        done: string[]
        outcome: unknown
      }
      assert.equal(journal.done.at(-1), point)
      assert.equal(journal.outcome, null)
      const again = await upgrade(target, '--now', '--deadline', '30')
      assert.equal(again.code, 0, `${point}: ${again.stderr}${again.stdout}`)
      assert.ok(lines(again.stdout).some((e) => e.event === 'resume'))
      await serves(v, node, to === 'old' ? 'v1.0.0' : 'v1.1.0')
      to = to === 'old' ? 'good' : 'old'
    }
  })

  it('a kill during the rollback: the rerun finishes the rollback (exit 31) and the old binary serves', async () => {
    const current = nodeRecord(v.datadir)
    const release = readFileSync(node, 'utf8').includes('v1.0.0') ? 'v1.0.0' : 'v1.1.0'
    const old = sha(node)
    const killed = await runCli(
      [
        'node',
        'upgrade',
        '--datadir',
        v.datadir,
        '--binary',
        join(bin, 'fails.mjs'),
        '--json',
        '--now',
        '--deadline',
        '8',
      ],
      { env: { ...v.env, TNV_KILL_AT: 'upgrade:rollback-restored' } },
    )
    assert.equal(killed.code, -1, killed.stderr)
    assert.ok(isProcessAlive(current.pid) === false)
    const again = await upgrade(join(bin, 'fails.mjs'), '--now', '--deadline', '8')
    assert.equal(again.code, 31, again.stderr + again.stdout)
    assert.equal(sha(node), old)
    await serves(v, node, release)
  })

  it('restart: the same binary, stopped and started, back in CvvActive', async () => {
    const before = nodeRecord(v.datadir).pid
    const release = readFileSync(node, 'utf8').includes('v1.0.0') ? 'v1.0.0' : 'v1.1.0'
    const r = await runCli(['node', 'restart', '--datadir', v.datadir, '--json', '--now', '--deadline', '30'], {
      env: v.env,
    })
    assert.equal(r.code, 0, r.stderr + r.stdout)
    const after = nodeRecord(v.datadir).pid
    assert.notEqual(after, before)
    assert.ok(!isProcessAlive(before))
    await serves(v, node, release)
  })
})
