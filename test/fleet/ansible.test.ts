/**
 * The Ansible collection telcoin.tnv, run by Debian's ansible-core against one devnet with
 * several validator "hosts" on this machine (separate data directories, `connection: local`):
 * ansible-doc shows every module; onboard.yml takes N validators to Active (judged by the
 * registry); a second run changes nothing (the play recap); check mode changes nothing (no data
 * directory, no node, nothing staked for a new host); rolling_restart.yml never has two nodes
 * down at once (judged by the nodes' own run logs: exit and start times); collect_facts.yml
 * writes one report. The role installs tnv from a file:// URL with its sha256, and refuses a
 * wrong checksum. The role's iptables rule for the p2p UDP ports, run in a network namespace the
 * test creates and read back with `iptables -S` there: each port once, a rerun changed=0, check
 * mode adds nothing; the units it installs pass `systemd-analyze verify`.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { parse, stringify } from 'yaml'
import { BIN, definedEnv, ROOT } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { runBare } from '../ship/sea.js'
import { startTestDevnet, type TestDevnet } from '../wizard/devnet.js'

const playbookBin = spawnSync('ansible-playbook', ['--version'], { encoding: 'utf8' })
const noAnsible =
  playbookBin.status === 0
    ? false
    : 'ansible-playbook is not installed (apt-get install ansible-core): the collection cannot be run'
const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' })
const noAnalyze =
  analyze.status === 0
    ? false
    : 'systemd-analyze is not installed (apt-get install systemd): the units cannot be verified'
const COLLECTION = join(ROOT, 'ansible', 'telcoin', 'tnv')
const MODULES = ['tnv_keys', 'tnv_node', 'tnv_validator', 'tnv_facts', 'tnv_migrate']

type Recap = Record<string, { ok: number; changed: number; failed: number }>

/** PLAY RECAP lines: host → counts. */
function recap(stdout: string): Recap {
  const out: Recap = {}
  for (const m of stdout.matchAll(/^(\S+)\s+:\s+ok=(\d+)\s+changed=(\d+)\s+unreachable=\d+\s+failed=(\d+)/gm))
    out[m[1] as string] = { ok: Number(m[2]), changed: Number(m[3]), failed: Number(m[4]) }
  return out
}

describe('Ansible collection telcoin.tnv', { skip: noAnsible }, () => {
  let t: TestDevnet
  let work: string
  let env: Record<string, string>
  const hosts: Record<string, Record<string, unknown>> = {}
  let common: Record<string, unknown>
  const inventory = (names: string[]) => {
    const file = join(work, `inventory-${names.join('-')}.yml`)
    writeFileSync(
      file,
      stringify({
        all: {
          vars: common,
          children: { validators: { hosts: Object.fromEntries(names.map((n) => [n, hosts[n]])) } },
        },
      }),
    )
    return file
  }
  const play = (book: string, inv: string, extra: string[] = []): ReturnType<typeof runBare> =>
    runBare('ansible-playbook', ['-i', inv, join(COLLECTION, 'playbooks', book), ...extra], {
      cwd: work,
      env: definedEnv({ ...process.env, ...t.env, ...env }),
      timeoutMs: 900_000,
    })
  const tnv = (args: string[]) => t.tnv(args)
  const registryStatus = async (address: string) => {
    const r = await tnv(['validator', 'status', '--chain', 'devnet', '--address', address, '--json'])
    return (JSON.parse(r.stdout) as { status: string }).status
  }

  before(async () => {
    t = await startTestDevnet('tnv-ansible-')
    work = join(t.dir, 'ansible')
    mkdirSync(join(work, 'collections', 'ansible_collections'), { recursive: true })
    symlinkSync(join(ROOT, 'ansible', 'telcoin'), join(work, 'collections', 'ansible_collections', 'telcoin'))
    // the "release": an executable running this checkout's tnv, installed by the role from a file:// URL
    const release = join(work, 'release', 'tnv')
    mkdirSync(join(work, 'release'))
    writeFileSync(release, `#!/bin/sh\nexec ${process.execPath} ${BIN} "$@"\n`)
    chmodSync(release, 0o755)
    const sha256 = createHash('sha256').update(readFileSync(release)).digest('hex')
    env = {
      ANSIBLE_COLLECTIONS_PATH: join(work, 'collections'),
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_LOCAL_TEMP: join(work, 'tmp'),
      ANSIBLE_REMOTE_TEMP: join(work, 'tmp'),
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      TNV_STATE_DIR: join(work, 'state'),
    }
    common = {
      ansible_connection: 'local',
      ansible_python_interpreter: '/usr/bin/python3',
      tnv_download_url: `file://${release}`,
      tnv_sha256: sha256,
      tnv_install_path: join(work, 'bin', 'tnv'),
      tnv_create_user: false,
      tnv_manager: 'tnv',
      tnv_unit_dir: join(work, 'units'),
      tnv_config_dir: join(work, 'etc'),
      tnv_datadir_root: join(work, 'data'),
      tnv_textfile_dir: join(work, 'textfile'),
      tnv_chain: 'devnet',
      tnv_reference_node: true,
      // the firewall rule is exercised below, in a network namespace of its own
      tnv_firewall: 'none',
      tnv_mint: true,
      tnv_timeout: 120,
      tnv_controller_dir: join(work, 'controller'),
    }
    mkdirSync(join(work, 'bin'))
    for (const [i, name] of ['a1', 'a2', 'a3'].entries()) {
      const port = await freePort()
      hosts[name] = {
        tnv_address: t.address(i + 1),
        tnv_signer_private_key: t.key(i + 1),
        tnv_bls_passphrase: `passphrase of ${name}`,
        tnv_node_flags: [
          '--chain',
          'devnet',
          '--http',
          '--http.port',
          String(port),
          '--ipcpath',
          join(work, 'data', name, 'tn.ipc'),
        ],
        tnv_node_rpc_url: `http://127.0.0.1:${port}`,
      }
    }
  })
  after(async () => {
    if (!t) return
    for (const name of ['a1', 'a2', 'a3'])
      await t.tnv(['node', 'stop', '--datadir', join(work, 'data', name)]).catch(() => {})
    await t.stop()
  })

  it('ansible-doc shows every module: its options, examples and return values', () => {
    const list = spawnSync('ansible-doc', ['-l', 'telcoin.tnv'], { env: { ...process.env, ...env }, encoding: 'utf8' })
    assert.equal(list.status, 0, list.stderr)
    for (const m of MODULES) assert.match(list.stdout, new RegExp(`telcoin\\.tnv\\.${m}\\s`))
    for (const m of MODULES) {
      const doc = spawnSync('ansible-doc', [`telcoin.tnv.${m}`], { env: { ...process.env, ...env }, encoding: 'utf8' })
      assert.equal(doc.status, 0, doc.stderr)
      assert.match(doc.stdout, /OPTIONS \(= is mandatory\):/)
      assert.match(doc.stdout, /EXAMPLES:/)
      assert.match(doc.stdout, /RETURN VALUES:/)
      assert.equal(doc.stderr.includes('WARNING'), false, doc.stderr)
    }
  })

  it('ansible-playbook --syntax-check accepts every playbook', () => {
    for (const book of ['onboard.yml', 'rolling_restart.yml', 'collect_facts.yml']) {
      const r = spawnSync(
        'ansible-playbook',
        ['--syntax-check', '-i', inventory(['a1']), join(COLLECTION, 'playbooks', book)],
        {
          env: { ...process.env, ...env },
          encoding: 'utf8',
        },
      )
      assert.equal(r.status, 0, `${book}: ${r.stdout}${r.stderr}`)
    }
  })

  it('onboard.yml takes two validators to Active; a second run changes nothing', async () => {
    const inv = inventory(['a1', 'a2'])
    const first = await play('onboard.yml', inv)
    assert.equal(first.code, 0, first.stdout + first.stderr)
    for (const name of ['a1', 'a2']) assert.equal(await registryStatus(hosts[name]?.tnv_address as string), 'Active')
    // the passphrase never shows in the output (no_log)
    assert.doesNotMatch(first.stdout + first.stderr, /passphrase of a1|passphrase of a2/)
    assert.doesNotMatch(first.stdout, new RegExp(String(hosts.a1?.tnv_signer_private_key).slice(2)))
    // the credential's source file: root only
    assert.equal(readFileSync(join(work, 'etc', 'a1', 'bls-passphrase'), 'utf8'), 'passphrase of a1')
    const again = await play('onboard.yml', inv)
    assert.equal(again.code, 0, again.stdout + again.stderr)
    const r = recap(again.stdout)
    assert.deepEqual(Object.keys(r).sort(), ['a1', 'a2'])
    for (const [host, counts] of Object.entries(r)) assert.equal(counts.changed, 0, `${host}\n${again.stdout}`)
  })

  it('check mode changes nothing: a new host gets no keys, no node, no stake', async () => {
    const inv = inventory(['a1', 'a2', 'a3'])
    const r = await play('onboard.yml', inv, ['--check', '--diff'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    const counts = recap(r.stdout)
    assert.equal(counts.a1?.changed, 0)
    assert.equal(counts.a2?.changed, 0)
    assert.ok((counts.a3?.changed ?? 0) > 0, 'check mode says what would change for a3')
    assert.equal(existsSync(join(work, 'data', 'a3')), false)
    assert.equal(existsSync(join(work, 'etc', 'a3')), false)
    assert.equal(await registryStatus(hosts.a3?.tnv_address as string), 'Undefined')
    // then for real: a3 too is Active
    const real = await play('onboard.yml', inv)
    assert.equal(real.code, 0, real.stdout + real.stderr)
    assert.equal(await registryStatus(hosts.a3?.tnv_address as string), 'Active')
  })

  it('rolling_restart.yml restarts one node at a time, each gated on node check (the run logs say so)', async () => {
    const inv = inventory(['a1', 'a2', 'a3'])
    const startedAt = Date.now()
    const r = await play('rolling_restart.yml', inv)
    assert.equal(r.code, 0, r.stdout + r.stderr)
    type Runs = { runs: { startedAt: string; exit: { at: string; how: string } | null }[] }
    // each node's downtime: the exit of its previous run to the start of the new one, from its own log
    const windows = ['a1', 'a2', 'a3'].map((name) => {
      const log = JSON.parse(readFileSync(join(work, 'data', name, 'tnv-node-runs.json'), 'utf8')) as Runs
      const fresh = log.runs.filter((x) => Date.parse(x.startedAt) >= startedAt)
      assert.equal(fresh.length, 1, `${name}: one new start`)
      const previous = log.runs[log.runs.indexOf(fresh[0] as Runs['runs'][number]) - 1]
      assert.equal(previous?.exit?.how, 'stopped', name)
      return { name, down: Date.parse(previous?.exit?.at as string), up: Date.parse(fresh[0]?.startedAt as string) }
    })
    windows.sort((a, b) => a.down - b.down)
    for (let i = 1; i < windows.length; i++)
      assert.ok(
        (windows[i]?.down as number) > (windows[i - 1]?.up as number),
        `${windows[i]?.name} went down before ${windows[i - 1]?.name} was back`,
      )
    for (const name of ['a1', 'a2', 'a3'])
      assert.equal((await tnv(['node', 'status', '--datadir', join(work, 'data', name), '--json'])).code, 0)
  })

  it('tnv_keys verifies a backup (backup_file): the facts then say the key is backed up', async () => {
    const backup = join(work, 'a1.backup')
    const made = await tnv(['keytool', 'backup', '--out', backup, '--datadir', join(work, 'data', 'a1'), '--json'])
    assert.equal(made.code, 0, made.stderr)
    const book = join(work, 'verify-backup.yml')
    writeFileSync(
      book,
      stringify([
        {
          hosts: 'a1',
          gather_facts: false,
          tasks: [
            {
              name: 'the backup restores these keys',
              'telcoin.tnv.tnv_keys': {
                datadir: '{{ tnv_datadir_root }}/{{ inventory_hostname }}',
                state: 'verified',
                passphrase: '{{ tnv_bls_passphrase }}',
                backup_file: backup,
                tnv_path: '{{ tnv_install_path }}',
              },
              register: 'verified',
            },
            { 'ansible.builtin.assert': { that: ['verified.verify.ok', 'not verified.changed'] } },
          ],
        },
      ]),
    )
    const r = await runBare('ansible-playbook', ['-i', inventory(['a1']), book], {
      cwd: work,
      env: definedEnv({ ...process.env, ...t.env, ...env }),
      timeoutMs: 900_000,
    })
    assert.equal(r.code, 0, r.stdout)
    assert.doesNotMatch(r.stdout, /passphrase of a1/)
  })

  it('collect_facts.yml writes one report with every validator', async () => {
    const report = join(work, 'report.json')
    const r = await play('collect_facts.yml', inventory(['a1', 'a2', 'a3']), ['-e', `tnv_report=${report}`])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    const doc = JSON.parse(readFileSync(report, 'utf8')) as Record<
      string,
      { registry: { status: string } | null; backup: { ok: boolean } }
    >
    assert.deepEqual(Object.keys(doc).sort(), ['a1', 'a2', 'a3'])
    for (const f of Object.values(doc)) assert.equal(f.registry?.status, 'Active')
    // a1's backup was verified through tnv_keys above; the others have none
    assert.deepEqual([doc.a1?.backup.ok, doc.a2?.backup.ok, doc.a3?.backup.ok], [true, false, false])
  })

  it('the role refuses an executable whose sha256 does not match', async () => {
    const inv = join(work, 'inventory-badsum.yml')
    writeFileSync(
      inv,
      stringify({
        all: {
          vars: { ...common, tnv_sha256: '0'.repeat(64), tnv_install_path: join(work, 'bin', 'tnv-bad') },
          children: { validators: { hosts: { a1: hosts.a1 } } },
        },
      }),
    )
    const r = await play('onboard.yml', inv)
    assert.notEqual(r.code, 0)
    assert.match(r.stdout, /checksum|sha256/i)
    assert.equal(existsSync(join(work, 'bin', 'tnv-bad')), false)
  })
})

/** What creates a network namespace of the test's own: root needs no user namespace. */
const NS_FLAGS = process.getuid?.() === 0 ? ['--net'] : ['--user', '--map-root-user', '--net']
/** Why the firewall rule cannot be exercised here, or false when iptables runs in a fresh namespace. */
function noNamespacedIptables(): string | false {
  if (noAnsible) return noAnsible
  const bin = spawnSync('iptables', ['--version'], { encoding: 'utf8' })
  if (bin.status !== 0)
    return 'iptables is not on PATH (apt-get install iptables; it is in /usr/sbin): the role’s firewall rule cannot be run'
  const probe = spawnSync('unshare', [...NS_FLAGS, 'iptables', '-S', 'INPUT'], { encoding: 'utf8' })
  if (probe.status !== 0)
    return `iptables cannot run in a network namespace of this test (unshare ${NS_FLAGS.join(' ')} iptables -S): ${(probe.stderr || probe.error?.message || '').trim()}`
  return false
}
const noFirewall = noNamespacedIptables()
/** The comment the role puts on its rules (roles/tnv/tasks/main.yml). */
const RULE_COMMENT = 'tnv p2p (Telcoin Network validator)'

/**
 * The role itself, the whole of it, in a network namespace the test creates (`unshare`), so the
 * iptables rule lands there and never on this machine: a holder process keeps the namespace alive
 * and every ansible-playbook and iptables run enters it with nsenter. Everything else the role
 * installs goes under a temporary directory (`tnv_manager: tnv`, no system user).
 */
describe('the role telcoin.tnv.tnv: the firewall rule and the units it installs', { skip: noFirewall }, () => {
  let dir: string
  let holder: ChildProcess
  let enter: string[]
  let book: string
  let inv: string
  let env: Record<string, string>
  const defaults = parse(readFileSync(join(COLLECTION, 'roles', 'tnv', 'defaults', 'main.yml'), 'utf8')) as Record<
    string,
    unknown
  >
  const ports = defaults.tnv_p2p_udp_ports as number[]
  const run = (extra: string[] = []) =>
    runBare('nsenter', [...enter, '--', 'ansible-playbook', '-i', inv, book, ...extra], {
      cwd: dir,
      env,
      timeoutMs: 300_000,
    })
  /** The INPUT chain as iptables prints it inside the namespace. */
  const inputRules = () => {
    const r = spawnSync('nsenter', [...enter, '--', 'iptables', '-S', 'INPUT'], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    return r.stdout
  }
  const ruleCount = (rules: string, port: number) =>
    rules
      .split('\n')
      .filter(
        (l) =>
          l.startsWith('-A INPUT -p udp ') &&
          l.includes(` --dport ${port} `) &&
          l.includes(`--comment "${RULE_COMMENT}"`) &&
          l.endsWith(' -j ACCEPT'),
      ).length

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tnv-role-firewall-'))
    const collections = join(dir, 'collections', 'ansible_collections')
    mkdirSync(collections, { recursive: true })
    symlinkSync(join(ROOT, 'ansible', 'telcoin'), join(collections, 'telcoin'))
    const release = join(dir, 'release-tnv')
    writeFileSync(release, `#!/bin/sh\nexec ${process.execPath} ${BIN} "$@"\n`)
    chmodSync(release, 0o755)
    mkdirSync(join(dir, 'bin'))
    inv = join(dir, 'inventory.yml')
    writeFileSync(
      inv,
      stringify({
        all: {
          vars: {
            ansible_connection: 'local',
            ansible_python_interpreter: '/usr/bin/python3',
            tnv_download_url: `file://${release}`,
            tnv_sha256: createHash('sha256').update(readFileSync(release)).digest('hex'),
            tnv_install_path: join(dir, 'bin', 'tnv'),
            tnv_create_user: false,
            tnv_manager: 'tnv',
            tnv_unit_dir: join(dir, 'units'),
            tnv_config_dir: join(dir, 'etc'),
            tnv_datadir_root: join(dir, 'data'),
            tnv_textfile_dir: join(dir, 'textfile'),
            tnv_node_flags: ['--chain', 'adiri', '--http'],
            tnv_bls_passphrase: 'passphrase of v1',
            // tnv_firewall and tnv_p2p_udp_ports: the role's defaults
          },
          children: { validators: { hosts: { v1: {} } } },
        },
      }),
    )
    book = join(dir, 'role.yml')
    writeFileSync(book, stringify([{ hosts: 'validators', gather_facts: false, roles: ['telcoin.tnv.tnv'] }]))
    env = definedEnv({
      ...process.env,
      ANSIBLE_COLLECTIONS_PATH: join(dir, 'collections'),
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_LOCAL_TEMP: join(dir, 'tmp'),
      ANSIBLE_REMOTE_TEMP: join(dir, 'tmp'),
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      TNV_STATE_DIR: join(dir, 'state'),
    })
    // the holder: a namespace of its own, kept while its stdin is open; "ready" once it is inside
    holder = spawn('unshare', [...NS_FLAGS, 'sh', '-c', 'echo ready; exec cat >/dev/null'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    await new Promise<void>((resolve, reject) => {
      holder.once('error', reject)
      holder.once('exit', (code) => reject(new Error(`the namespace holder exited (${code})`)))
      holder.stdout?.once('data', () => resolve())
    })
    const pid = String(holder.pid)
    // an unprivileged user enters its own user namespace keeping its ids (mapped to root there)
    enter = NS_FLAGS.includes('--user')
      ? ['-t', pid, '--user', '--net', '--preserve-credentials']
      : ['-t', pid, '--net']
    // the play's rules can only land in the holder's namespace, not in this machine's
    assert.notEqual(readlinkSync(`/proc/${pid}/ns/net`), readlinkSync('/proc/self/ns/net'))
  })
  after(async () => {
    if (holder && holder.exitCode === null) {
      const gone = new Promise((resolve) => holder.once('exit', resolve))
      holder.stdin?.end()
      await gone
    }
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('the p2p UDP ports are primary 49590 and worker 49594 by default (the spec’s convention)', () => {
    assert.deepEqual(ports, [49590, 49594])
    assert.equal(defaults.tnv_firewall, 'iptables')
  })

  it('check mode changes nothing: no rule, no unit, no executable', async () => {
    const r = await run(['--check', '--diff'])
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.ok((recap(r.stdout).v1?.changed ?? 0) > 0, `check mode says what would change\n${r.stdout}`)
    // the firewall task says it would add each port's rule
    for (const port of ports) assert.match(r.stdout, new RegExp(`^changed: \\[v1\\] => \\(item=${port}\\)$`, 'm'))
    const rules = inputRules()
    for (const port of ports) assert.equal(ruleCount(rules, port), 0, rules)
    assert.doesNotMatch(rules, /tnv p2p/)
    assert.equal(existsSync(join(dir, 'units')), false)
    assert.equal(existsSync(join(dir, 'bin', 'tnv')), false)
  })

  it('the play opens each p2p UDP port exactly once (iptables -S read back in the namespace)', async () => {
    const r = await run()
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.ok((recap(r.stdout).v1?.changed ?? 0) > 0)
    const rules = inputRules()
    for (const port of ports) assert.equal(ruleCount(rules, port), 1, rules)
    // nothing else in INPUT: the policy line and the role's rules
    assert.equal(rules.trim().split('\n').length, 1 + ports.length, rules)
  })

  it('a second run changes nothing (changed=0) and adds no rule; check mode then reports nothing to do', async () => {
    const before = inputRules()
    const again = await run()
    assert.equal(again.code, 0, again.stdout + again.stderr)
    assert.equal(recap(again.stdout).v1?.changed, 0, again.stdout)
    assert.equal(inputRules(), before)
    const check = await run(['--check'])
    assert.equal(check.code, 0, check.stdout + check.stderr)
    assert.equal(recap(check.stdout).v1?.changed, 0, check.stdout)
    assert.equal(inputRules(), before)
  })

  it('systemd-analyze verify accepts the units the role installed', { skip: noAnalyze }, () => {
    const units = join(dir, 'units')
    // verify loads the instances from the templates in the same directory
    const r = spawnSync(
      'systemd-analyze',
      ['verify', './tnv-node@v1.service', './tnv-check@v1.service', './tnv-check@v1.timer'],
      { cwd: units, encoding: 'utf8' },
    )
    assert.equal(r.status, 0, r.stderr)
    // verify reports a unit's problems on stderr (and may still exit 0): nothing about ours
    const ours = r.stderr
      .split('\n')
      .filter((l) => l.includes('tnv-'))
      .join('\n')
    assert.equal(ours, '')
    assert.match(
      readFileSync(join(units, 'tnv-node@.service'), 'utf8'),
      new RegExp(`^ExecStart=${join(dir, 'bin', 'tnv')} `, 'm'),
    )
  })
})

const ansibleTest = spawnSync('ansible-test', ['--version'], { encoding: 'utf8' })
/** The python3 ansible-core runs on, as ansible-test names it (3.11 on Debian 12). */
const python = spawnSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
  encoding: 'utf8',
}).stdout.trim()
/**
 * ansible-test's own venvs get their pip from a bootstrap script on a host CI cannot reach; this
 * stand-in (test/fleet/ansible-test-get-pip.py) gives them pip from Python's ensurepip and the
 * package registry instead, and ansible-test then installs each test's pinned requirements from it.
 */
const GET_PIP = join(ROOT, 'test', 'fleet', 'ansible-test-get-pip.py')
/** The sanity tests that need no requirements of their own (what runs when the registry cannot be reached). */
const OFFLINE_SANITY = [
  'compile',
  'empty-init',
  'future-import-boilerplate',
  'metaclass-boilerplate',
  'no-assert',
  'no-smart-quotes',
  'shebang',
  'line-endings',
]
/** pip's words when the package registry cannot be reached (then the test is skipped, saying so). */
const NO_REGISTRY =
  /Temporary failure in name resolution|NewConnectionError|Network is unreachable|No matching distribution found|Could not find a version that satisfies/

describe('ansible-galaxy', () => {
  it('builds the collection and installs it; ansible-doc lists its modules from the installed copy', {
    skip: noAnsible,
  }, () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tnv-galaxy-'))
    try {
      const build = spawnSync('ansible-galaxy', ['collection', 'build', COLLECTION], { cwd: tmp, encoding: 'utf8' })
      assert.equal(build.status, 0, build.stdout + build.stderr)
      const tarball = join(tmp, 'telcoin-tnv-0.1.0.tar.gz')
      assert.ok(existsSync(tarball))
      const install = spawnSync('ansible-galaxy', ['collection', 'install', '-p', join(tmp, 'c'), tarball], {
        cwd: tmp,
        encoding: 'utf8',
      })
      assert.equal(install.status, 0, install.stdout + install.stderr)
      const list = spawnSync('ansible-doc', ['-l', 'telcoin.tnv'], {
        env: { ...process.env, ANSIBLE_COLLECTIONS_PATH: join(tmp, 'c') },
        encoding: 'utf8',
      })
      for (const m of MODULES) assert.match(list.stdout, new RegExp(`telcoin\\.tnv\\.${m}\\s`))
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })
})

/** `ansible-test <args>` in a copy of the collection at …/ansible_collections/telcoin/tnv, its venvs and pip's cache under a home of its own. */
function ansibleTestRun(args: string[]): { status: number | null; output: string } {
  const tmp = mkdtempSync(join(tmpdir(), 'tnv-ansible-test-'))
  try {
    const tree = join(tmp, 'ansible_collections', 'telcoin', 'tnv')
    cpSync(COLLECTION, tree, { recursive: true })
    const home = join(tmp, 'home')
    mkdirSync(join(home, '.ansible', 'test', 'cache'), { recursive: true })
    cpSync(GET_PIP, join(home, '.ansible', 'test', 'cache', 'get_pip_21_3_1.py'))
    const r = spawnSync('ansible-test', [...args, '--color', 'no', '--python', python], {
      cwd: tree,
      env: { ...process.env, HOME: home },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
    return { status: r.status, output: `${r.stdout}${r.stderr}` }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

const noAnsibleTest = ansibleTest.status === 0 ? false : 'ansible-test is not installed (apt-get install ansible-core)'

describe('ansible-test', () => {
  it('sanity: every test of ansible-core 2.14 passes (validate-modules, pylint, pep8, yamllint, import, ansible-doc, …)', {
    skip: noAnsibleTest,
  }, (t) => {
    const r = ansibleTestRun(['sanity'])
    if (r.status !== 0 && NO_REGISTRY.test(r.output)) {
      // the tests that need no requirements still run
      const offline = ansibleTestRun(['sanity', ...OFFLINE_SANITY.flatMap((x) => ['--test', x])])
      assert.equal(offline.status, 0, offline.output.slice(-8000))
      t.skip(
        `the package registry cannot be reached: ansible-test cannot install its pinned requirements (${r.output.match(NO_REGISTRY)?.[0]}); only ${OFFLINE_SANITY.join(', ')} ran`,
      )
      return
    }
    assert.equal(r.status, 0, r.output.slice(-8000))
    for (const x of ['validate-modules', 'pylint', 'pep8', 'yamllint', 'import', 'ansible-doc', 'compile', 'shebang'])
      assert.match(r.output, new RegExp(`Running sanity test "${x}"`))
    assert.doesNotMatch(r.output, /^ERROR:/m)
  })

  it('units: the module utils and tnv_migrate (pytest, pinned in tests/unit/requirements.txt)', {
    skip: noAnsibleTest,
  }, (t) => {
    const r = ansibleTestRun(['units', '--venv', '--requirements'])
    if (r.status !== 0 && NO_REGISTRY.test(r.output)) {
      t.skip(
        `the package registry cannot be reached: ansible-test cannot install pytest (${r.output.match(NO_REGISTRY)?.[0]})`,
      )
      return
    }
    assert.equal(r.status, 0, r.output.slice(-8000))
    assert.match(r.output, /Unit test module_utils with Python/)
    assert.match(r.output, /Unit test modules with Python/)
    const passed = [...r.output.matchAll(/=+ (\d+) passed/g)].reduce((n, m) => n + Number(m[1]), 0)
    assert.ok(passed >= 11, `${passed} unit tests passed`)
  })
})

describe('ansible-lint', () => {
  it('passes its production profile on the collection (ansible-lint pinned, installed from PyPI into a venv)', {
    skip: noAnsible,
  }, (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'tnv-ansible-lint-'))
    try {
      const venv = join(tmp, 'venv')
      const made = spawnSync('/usr/bin/python3', ['-m', 'venv', venv], { encoding: 'utf8' })
      if (made.status !== 0) {
        t.skip(`no Python venv (apt-get install python3-venv): ${made.stderr.trim()}`)
        return
      }
      const install = spawnSync(
        join(venv, 'bin', 'pip'),
        ['install', '-q', '--no-deps', '-r', join(ROOT, 'test', 'fleet', 'ansible-lint-requirements.txt')],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      )
      if (install.status !== 0 && NO_REGISTRY.test(install.stdout + install.stderr)) {
        t.skip(
          `the package registry cannot be reached: ansible-lint cannot be installed (${(install.stdout + install.stderr).match(NO_REGISTRY)?.[0]})`,
        )
        return
      }
      assert.equal(install.status, 0, install.stdout + install.stderr)
      const collections = join(tmp, 'c')
      const tree = join(collections, 'ansible_collections', 'telcoin', 'tnv')
      cpSync(COLLECTION, tree, { recursive: true })
      const r = spawnSync(join(venv, 'bin', 'ansible-lint'), ['--nocolor'], {
        cwd: tree,
        env: {
          ...process.env,
          PATH: `${join(venv, 'bin')}:${process.env.PATH}`,
          HOME: tmp,
          ANSIBLE_COLLECTIONS_PATH: collections,
        },
        encoding: 'utf8',
      })
      assert.equal(r.status, 0, r.stdout + r.stderr)
      assert.match(r.stdout + r.stderr, /Profile 'production' was required, and it passed/)
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })
})
