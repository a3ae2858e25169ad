/**
 * `tnv node upgrade` and `tnv node restart` for a node a systemd unit runs, judged by the
 * processes, the binary on disk, the node's own RPC and the systemctl calls (never by tnv's words).
 * systemd is not PID 1 in the test container, so a fake `systemctl` on PATH (./fake-systemd.ts)
 * runs the unit as tnv-node@.service does: its main process is `tnv node start --restart never` in
 * the foreground, the node its child, the binary named by TN_NODE_BINARY. tnv must drive the unit
 * (stop, swap the file at TN_NODE_BINARY, start) and never start or stop the node itself: the
 * node that serves afterwards is always the unit's main process's child.
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
import { type FakeSystemd, fakeSystemd } from './fake-systemd.js'
import { type Header, rpc, type SeatedValidator, seatedValidator } from './one-key-fixture.js'

const UNIT = 'tnv-node@v1.service'
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')
const ppid = (pid: number) => {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1])
}

function stand(path: string, release: string, behaviour: 'good' | 'fails'): string {
  const main = join(ROOT, 'dist', 'entries', 'node-main.js')
  writeFileSync(
    path,
    `#!/usr/bin/env node
// a stand-in node binary: tnv's reference node as release ${release} (${behaviour})
const args = process.argv.slice(2)
if (args[0] === '--version') { console.log('tnv-reference-node/${release}'); process.exit(0) }
if (${behaviour === 'fails'} && args[0] === 'node' && !args.includes('--help')) { console.error('error: this build cannot open the database'); process.exit(1) }
const { main } = await import(${JSON.stringify(main)})
await main(args)
`,
    { mode: 0o755 },
  )
  return path
}

type NodeRecord = { pid: number; rpc: { http: string } }
const nodeRecord = (datadir: string): NodeRecord => JSON.parse(readFileSync(join(datadir, 'tnv-node.json'), 'utf8'))

describe('tnv node upgrade / restart of a node systemd runs (a fake systemctl)', () => {
  const tmp = tempDir('tnv-sd-upgrade-')
  const bin = join(tmp.dir, 'bin')
  let v: SeatedValidator
  let sd: FakeSystemd
  let node = ''
  const env = () => ({ ...v.env, ...sd.env })
  const lines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  const upgrade = (to: string, ...extra: string[]) =>
    runCli(['node', 'upgrade', '--datadir', v.datadir, '--binary', to, '--json', ...extra], { env: env() })

  /** The unit's node serves: it is the unit's main process's child, runs `release`, CvvActive, headers advance. */
  async function unitServes(release: string): Promise<number> {
    const main = sd.mainPid(UNIT)
    assert.ok(main > 0 && isProcessAlive(main), 'the unit runs')
    const n = nodeRecord(v.datadir)
    assert.ok(isProcessAlive(n.pid))
    assert.equal(ppid(n.pid), main, "the node is the unit's main process's child")
    assert.ok(readFileSync(`/proc/${n.pid}/cmdline`, 'utf8').split('\0').includes(node))
    assert.ok(readFileSync(node, 'utf8').includes(`release ${release}`))
    assert.equal(await rpc(n.rpc.http, 'tn_nodeMode'), 'CvvActive')
    const a = (await rpc<Header>(n.rpc.http, 'tn_latestConsensusHeader')).number
    for (let i = 0; i < 100; i++) {
      if ((await rpc<Header>(n.rpc.http, 'tn_latestConsensusHeader')).number > a) return n.pid
      await new Promise((r) => setTimeout(r, 200))
    }
    assert.fail('its consensus headers do not advance')
  }

  /** The systemctl verbs called since `from` (show is left out: it only reads). */
  const verbs = (from: number) =>
    sd
      .calls()
      .slice(from)
      .filter((c) => !c.startsWith('show'))

  before(async () => {
    v = await seatedValidator(tmp.dir)
    sd = fakeSystemd(tmp.dir)
    mkdirSync(bin)
    stand(join(bin, 'old.mjs'), 'v1.0.0', 'good')
    stand(join(bin, 'good.mjs'), 'v1.1.0', 'good')
    stand(join(bin, 'fails.mjs'), 'v1.1.0-fails', 'fails')
    node = stand(join(bin, 'telcoin-network.mjs'), 'v1.0.0', 'good')
    // tnv-node@.service as `tnv node unit` writes it (the doppelganger window shortened for the test)
    sd.define({
      name: UNIT,
      argv: [
        process.execPath,
        BIN,
        'node',
        'start',
        '--restart',
        'never',
        '--datadir',
        v.datadir,
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
      environment: { TN_DATADIR: v.datadir, TN_NON_INTERACTIVE: '1', TN_NODE_BINARY: node },
      extraEnv: v.env,
    })
    const started = spawn(join(sd.bin, 'systemctl'), ['start', UNIT], { env: { ...process.env, ...sd.env } })
    await new Promise((r) => started.on('close', r))
    for (let i = 0; i < 300 && !existsSync(join(v.datadir, 'tnv-node.json')); i++)
      await new Promise((r) => setTimeout(r, 200))
    await unitServes('v1.0.0')
  })
  after(async () => {
    if (sd) {
      const stop = spawn(join(sd.bin, 'systemctl'), ['stop', UNIT], { env: { ...process.env, ...sd.env } })
      await new Promise((r) => stop.on('close', r))
    }
    await v?.stop()
    tmp.cleanup()
  })

  it('--check finds the unit through --unit and plans to drive it; nothing changes', async () => {
    const pid = nodeRecord(v.datadir).pid
    const r = await upgrade(join(bin, 'good.mjs'), '--unit', 'tnv-node@v1', '--check')
    assert.equal(r.code, 0, r.stderr)
    const plan = lines(r.stdout).find((e) => e.event === 'plan')?.plan as Record<string, unknown>
    assert.deepEqual(plan.supervisor, { kind: 'systemd', unit: UNIT })
    assert.equal(plan.newVersion, 'tnv-reference-node/v1.1.0')
    assert.equal(nodeRecord(v.datadir).pid, pid)
    assert.ok(!existsSync(join(v.datadir, 'tnv-upgrade.json')))
  })

  it('--unit naming a unit that does not run this node is refused (exit 2) and changes nothing', async () => {
    const before = sd.calls().length
    const r = await upgrade(join(bin, 'good.mjs'), '--unit', 'tnv-node@other', '--now')
    assert.equal(r.code, 2, r.stderr)
    assert.match(
      r.stdout + r.stderr,
      /will not drive the node through the systemd unit tnv-node@other\.service: systemd has it not-found/,
    )
    assert.deepEqual(verbs(before), [])
  })

  it("a binary that fails to start is rolled back through the unit: exit 31, the old binary serves as the unit's child", async () => {
    const old = sha(node)
    const before = sd.calls().length
    const r = await upgrade(join(bin, 'fails.mjs'), '--unit', UNIT, '--now', '--deadline', '10', '--ready-timeout', '5')
    assert.equal(r.code, 31, r.stderr + r.stdout)
    assert.deepEqual(verbs(before), [
      `stop ${UNIT}`,
      `reset-failed ${UNIT}`,
      `start ${UNIT}`,
      `stop ${UNIT}`,
      `reset-failed ${UNIT}`,
      `start ${UNIT}`,
    ])
    assert.equal(sha(node), old)
    await unitServes('v1.0.0')
  })

  it('a good binary: the unit stopped, the file at TN_NODE_BINARY swapped, the unit started; the old kept', async () => {
    const before = sd.calls().length
    const r = await upgrade(join(bin, 'good.mjs'), '--unit', UNIT, '--now', '--deadline', '60')
    assert.equal(r.code, 0, r.stderr + r.stdout)
    assert.deepEqual(verbs(before), [`stop ${UNIT}`, `reset-failed ${UNIT}`, `start ${UNIT}`])
    assert.equal(sha(node), sha(join(bin, 'good.mjs')))
    assert.equal(sha(`${node}.tnv-previous`), sha(join(bin, 'old.mjs')))
    await unitServes('v1.1.0')
  })

  it('killed after the stop, the rerun (without --unit: the journal names the unit) finishes through the unit', async () => {
    const target = join(bin, 'old.mjs')
    const killed = await runCli(
      ['node', 'upgrade', '--datadir', v.datadir, '--binary', target, '--json', '--now', '--unit', UNIT],
      { env: { ...env(), TNV_KILL_AT: 'upgrade:stop' } },
    )
    assert.equal(killed.code, -1, killed.stderr)
    assert.equal(sd.mainPid(UNIT), 0, 'the unit is stopped')
    const before = sd.calls().length
    const again = await upgrade(target, '--now', '--deadline', '60')
    assert.equal(again.code, 0, again.stderr + again.stdout)
    assert.ok(lines(again.stdout).some((e) => e.event === 'resume'))
    assert.deepEqual(verbs(before), [`reset-failed ${UNIT}`, `start ${UNIT}`])
    await unitServes('v1.0.0')
  })

  it("restart: systemctl stop and start, a new node as the unit's child, back in CvvActive", async () => {
    const pid = nodeRecord(v.datadir).pid
    const before = sd.calls().length
    const r = await runCli(
      ['node', 'restart', '--datadir', v.datadir, '--unit', UNIT, '--json', '--now', '--deadline', '60'],
      { env: env() },
    )
    assert.equal(r.code, 0, r.stderr + r.stdout)
    assert.deepEqual(verbs(before), [`stop ${UNIT}`, `reset-failed ${UNIT}`, `start ${UNIT}`])
    assert.ok(!isProcessAlive(pid))
    assert.notEqual(await unitServes('v1.0.0'), pid)
  })
})
