/**
 * playbooks/migrate.yml (telcoin.tnv.tnv_migrate over `tnv node migrate`) on the devnet, with two
 * validator "hosts" on this machine (`connection: local`, two data directories, each its own tnv
 * state directory so the local fence cannot see across them). The new host starts with no key
 * files: the playbook copies them through the controller. Judged by the processes (sampled the
 * whole run: never both nodes alive), by the nodes' own run logs (the old node exited before the
 * new one started), by the network's headers (the authority active again) and by the play recap
 * (check mode changes nothing; a second run changes nothing).
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { stringify } from 'yaml'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { BIN, definedEnv, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { type SeatedValidator, seatedValidator, watchAuthority } from '../node/one-key-fixture.js'
import { runBare } from '../ship/sea.js'

const noAnsible =
  spawnSync('ansible-playbook', ['--version'], { encoding: 'utf8' }).status === 0
    ? false
    : 'ansible-playbook is not installed (apt-get install ansible-core): the collection cannot be run'
const PLAYBOOK = join(ROOT, 'ansible', 'telcoin', 'tnv', 'playbooks', 'migrate.yml')

/** Pids of live node processes whose command line names this data directory after --datadir. */
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

type Recap = Record<string, { ok: number; changed: number; failed: number }>
function recap(stdout: string): Recap {
  const out: Recap = {}
  for (const m of stdout.matchAll(/^(\S+)\s+:\s+ok=(\d+)\s+changed=(\d+)\s+unreachable=\d+\s+failed=(\d+)/gm))
    out[m[1] as string] = { ok: Number(m[2]), changed: Number(m[3]), failed: Number(m[4]) }
  return out
}

type Runs = { runs: { startedAt: string; exit: { at: string; how: string } | null }[] }
const runsOf = (datadir: string) => (JSON.parse(readFileSync(join(datadir, 'tnv-node-runs.json'), 'utf8')) as Runs).runs

describe('playbooks/migrate.yml moves a validator between two hosts', { skip: noAnsible }, () => {
  const tmp = tempDir('tnv-fleet-migrate-')
  let v: SeatedValidator
  let a = ''
  let b = ''
  let work = ''
  let inventory = ''
  let env: Record<string, string> = {}
  const stateOf = (host: 'old' | 'new') => join(tmp.dir, `state-${host}`)
  const play = (extra: string[] = []) =>
    runBare(
      'ansible-playbook',
      ['-i', inventory, PLAYBOOK, '-e', 'tnv_migrate_from=old', '-e', 'tnv_migrate_to=new', ...extra],
      { cwd: work, env, timeoutMs: 600_000 },
    )

  before(async () => {
    v = await seatedValidator(tmp.dir)
    a = v.datadir
    b = join(tmp.dir, 'host-new', 'validator')
    work = join(tmp.dir, 'ansible')
    mkdirSync(join(work, 'collections', 'ansible_collections'), { recursive: true })
    symlinkSync(join(ROOT, 'ansible', 'telcoin'), join(work, 'collections', 'ansible_collections', 'telcoin'))
    const tnvBin = join(work, 'tnv')
    writeFileSync(tnvBin, `#!/bin/sh\nexec ${process.execPath} ${BIN} "$@"\n`)
    chmodSync(tnvBin, 0o755)
    const flags = async (datadir: string) => [
      '--chain',
      'devnet',
      '--http',
      '--http.port',
      String(await freePort()),
      '--ipcpath',
      join(datadir, 'tn.ipc'),
    ]
    const host = async (name: 'old' | 'new', datadir: string) => ({
      tnv_datadir: datadir,
      tnv_node_flags: await flags(datadir),
      tnv_environment: { TNV_STATE_DIR: stateOf(name), TNV_DEVNET_DIR: v.devnetDir },
    })
    const hosts = { old: await host('old', a), new: await host('new', b) }
    inventory = join(work, 'inventory.yml')
    writeFileSync(
      inventory,
      stringify({
        all: {
          vars: {
            ansible_connection: 'local',
            ansible_python_interpreter: '/usr/bin/python3',
            tnv_install_path: tnvBin,
            tnv_manager: 'tnv',
            tnv_reference_node: true,
            tnv_chain: 'devnet',
            tnv_doppelganger_window: 3,
            tnv_confirm_timeout: 60,
          },
          children: { validators: { hosts } },
        },
      }),
    )
    env = definedEnv({
      ...process.env,
      ...v.env,
      ANSIBLE_COLLECTIONS_PATH: join(work, 'collections'),
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_LOCAL_TEMP: join(work, 'tmp'),
      ANSIBLE_REMOTE_TEMP: join(work, 'tmp'),
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      // the controller's temporary copy of the key files goes here (and must be gone after)
      TMPDIR: join(work, 'controller-tmp'),
    })
    mkdirSync(join(work, 'controller-tmp'))
    const started = await runCli(
      ['node', 'start', '--detach', '--datadir', a, '--doppelganger-window', '3', '--', ...hosts.old.tnv_node_flags],
      {
        env: { ...v.env, TNV_STATE_DIR: stateOf('old') },
      },
    )
    assert.equal(started.code, 0, started.stderr)
  })
  after(async () => {
    if (v) {
      await runCli(['node', 'stop', '--datadir', a], { env: { ...v.env, TNV_STATE_DIR: stateOf('old') } })
      await runCli(['node', 'stop', '--datadir', b], { env: { ...v.env, TNV_STATE_DIR: stateOf('new') } })
      await v.stop()
    }
    tmp.cleanup()
  })

  it('ansible-playbook --syntax-check accepts it', () => {
    const r = spawnSync(
      'ansible-playbook',
      ['--syntax-check', '-i', inventory, PLAYBOOK, '-e', 'tnv_migrate_from=old', '-e', 'tnv_migrate_to=new'],
      {
        env,
        encoding: 'utf8',
      },
    )
    assert.equal(r.status, 0, r.stdout + r.stderr)
  })

  it('a failed out ends the run before the new host is touched', async () => {
    // the old host's data directory holds no key: `tnv node migrate out` refuses (exit 2)
    const r = await play(['-e', `{"tnv_datadir": "${join(tmp.dir, 'no-such-validator')}"}`])
    assert.notEqual(r.code, 0)
    assert.match(r.stdout, /nothing to migrate/)
    assert.equal(recap(r.stdout).new, undefined, r.stdout)
    assert.equal(existsSync(b), false)
    assert.equal(nodesOf(a).length, 1)
  })

  it('check mode changes nothing: the old node runs on, the new host gets no key and no node', async () => {
    const r = await play(['--check', '--diff'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    const counts = recap(r.stdout)
    assert.ok((counts.old?.changed ?? 0) > 0, r.stdout)
    assert.ok((counts.new?.changed ?? 0) > 0, r.stdout)
    assert.equal(nodesOf(a).length, 1)
    assert.equal(existsSync(b), false)
    assert.equal(existsSync(join(a, 'tnv-migrate.json')), false)
    assert.deepEqual(
      readdirSync(join(work, 'controller-tmp')).filter((f) => f.startsWith('tnv-migrate-')),
      [],
    )
  })

  it('moves the key: the old node stopped before the new one started (sampled, and by their run logs); a rerun changes nothing', async () => {
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
    let r: Awaited<ReturnType<typeof play>>
    try {
      r = await play()
    } finally {
      stop = true
      await sampler
    }
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.equal(both, 0, `${both} of ${samples} samples saw both nodes`)
    assert.ok(samples > 50)
    assert.equal(nodesOf(a).length, 0)
    assert.equal(nodesOf(b).length, 1)
    // the nodes' own logs: the old one's last run ended (stopped) before the new one's first began
    const old = runsOf(a).at(-1)
    const fresh = runsOf(b)
    assert.equal(old?.exit?.how, 'stopped')
    assert.equal(fresh.length, 1)
    assert.ok(Date.parse(old?.exit?.at as string) < Date.parse(fresh[0]?.startedAt as string))
    // the key files arrived private; the controller kept no copy
    assert.equal(readFileSync(join(b, 'node-info.yaml'), 'utf8'), readFileSync(join(a, 'node-info.yaml'), 'utf8'))
    for (const f of readdirSync(join(b, 'node-keys')))
      assert.equal(statSync(join(b, 'node-keys', f)).mode & 0o777, 0o600, f)
    assert.deepEqual(
      readdirSync(join(work, 'controller-tmp')).filter((f) => f.startsWith('tnv-migrate-')),
      [],
    )
    // the network's view: the authority leads or scores again, from the new host's node
    const seen = await watchAuthority(v.rpcUrl, v.authorityId, 6)
    assert.ok(seen.led > 0 || seen.rose > 0, JSON.stringify(seen))

    const again = await play()
    assert.equal(again.code, 0, again.stdout + again.stderr)
    const counts = recap(again.stdout)
    assert.deepEqual(Object.keys(counts).sort(), ['new', 'old'])
    for (const [host, c] of Object.entries(counts)) assert.equal(c.changed, 0, `${host}\n${again.stdout}`)
    assert.equal(runsOf(b).length, 1, 'the rerun started nothing')
    assert.equal(nodesOf(a).length, 0)
  })
})
