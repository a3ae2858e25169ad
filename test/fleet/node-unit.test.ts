/**
 * `tnv node unit`: the units are judged by systemd's own `systemd-analyze verify` (Debian's
 * systemd package); a rerun writes nothing (already-done); --check writes nothing; and the
 * passphrase a unit hands over with LoadCredential= ($CREDENTIALS_DIRECTORY/tn-bls-passphrase)
 * opens the key the way TN_BLS_PASSPHRASE does.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { BIN, parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' })
const noAnalyze =
  analyze.status === 0
    ? false
    : 'systemd-analyze is not installed (apt-get install systemd): the units cannot be verified'

type UnitResult = {
  outcome: string
  check: boolean
  files: { path: string; action: string; written: boolean }[]
  instance: string | null
  enable: string[]
}

/** systemd-analyze verify on instances of the templates, run from their directory. */
function verify(dir: string, units: string[]) {
  // verify loads tnv-node@v1.service from the template tnv-node@.service in the same directory
  return spawnSync('systemd-analyze', ['verify', ...units.map((u) => `./${u}`)], { cwd: dir, encoding: 'utf8' })
}

describe('tnv node unit', () => {
  const t = tempDir('tnv-unit-')
  after(t.cleanup)
  const units = join(t.dir, 'units')
  const etc = join(t.dir, 'etc')
  const args = [
    'node',
    'unit',
    '--out',
    units,
    '--config-dir',
    etc,
    '--tnv',
    BIN,
    '--node-binary',
    '/bin/true',
    '--instance',
    'v1',
    '--chain',
    'testnet',
    '--json',
    '--',
    '--chain',
    'adiri',
    '--http',
    '--http.api',
    'eth,net,web3,rpc,tn',
  ]

  it('writes the three units and the instance settings, and a rerun is already-done', async () => {
    const first = await runCli(args)
    assert.equal(first.code, 0, first.stderr)
    const r = parseJson<UnitResult>(first)
    assert.equal(r.outcome, 'changed')
    assert.deepEqual(
      r.files.map((f) => [f.path, f.action, f.written]),
      [
        [join(units, 'tnv-node@.service'), 'create', true],
        [join(units, 'tnv-check@.service'), 'create', true],
        [join(units, 'tnv-check@.timer'), 'create', true],
        [join(etc, 'v1.env'), 'create', true],
      ],
    )
    assert.deepEqual(r.enable, ['tnv-node@v1.service', 'tnv-check@v1.timer'])
    const node = readFileSync(join(units, 'tnv-node@.service'), 'utf8')
    // one supervisor: systemd restarts, tnv runs the node in the foreground without its own loop
    assert.match(node, /^Restart=on-failure$/m)
    assert.match(node, /node start --restart never /)
    assert.match(node, /^LoadCredential=tn-bls-passphrase:.*\/etc\/%i\/bls-passphrase$/m)
    assert.doesNotMatch(node, /TN_BLS_PASSPHRASE/)
    assert.equal(statSync(join(units, 'tnv-node@.service')).mode & 0o777, 0o644)
    assert.equal(
      readFileSync(join(etc, 'v1.env'), 'utf8').split('\n')[1],
      'TN_NODE_FLAGS=--chain adiri --http --http.api eth,net,web3,rpc,tn',
    )
    const before = statSync(join(units, 'tnv-node@.service')).mtimeMs
    const again = parseJson<UnitResult>(await runCli(args))
    assert.equal(again.outcome, 'already-done')
    assert.ok(again.files.every((f) => f.action === 'none' && !f.written))
    assert.equal(statSync(join(units, 'tnv-node@.service')).mtimeMs, before)
  })

  it('--check reports what would change and writes nothing', async () => {
    const out = join(t.dir, 'check-only')
    const r = await runCli(['node', 'unit', '--out', out, '--check', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const result = parseJson<UnitResult>(r)
    assert.equal(result.outcome, 'would-change')
    assert.equal(result.check, true)
    assert.ok(result.files.every((f) => f.action === 'create' && !f.written))
    assert.equal(existsSync(out), false)
  })

  it('refuses a relative executable path (systemd runs units from /)', async () => {
    const r = await runCli(['node', 'unit', '--out', join(t.dir, 'x'), '--tnv', 'bin/tnv', '--json'])
    assert.equal(r.code, 2)
    assert.equal(existsSync(join(t.dir, 'x')), false)
  })

  it('systemd-analyze verify accepts the units', { skip: noAnalyze }, async () => {
    const r = verify(units, ['tnv-node@v1.service', 'tnv-check@v1.service', 'tnv-check@v1.timer'])
    assert.equal(r.status, 0, r.stderr)
    // verify reports a unit's problems on stderr (and may still exit 0): nothing about ours
    const ours = r.stderr
      .split('\n')
      .filter((l) => l.includes('tnv-'))
      .join('\n')
    assert.equal(ours, '')
  })

  it('systemd-analyze verify accepts the reference-node variant (devnet rehearsal) too', {
    skip: noAnalyze,
  }, async () => {
    const ref = join(t.dir, 'reference')
    const r = await runCli(['node', 'unit', '--out', ref, '--reference-node', '--tnv', BIN, '--json'])
    assert.equal(r.code, 0, r.stderr)
    const text = readFileSync(join(ref, 'tnv-node@.service'), 'utf8')
    assert.doesNotMatch(text, /TN_NODE_BINARY/)
    const v = verify(ref, ['tnv-node@r1.service', 'tnv-check@r1.service', 'tnv-check@r1.timer'])
    assert.equal(v.status, 0, v.stderr)
    assert.equal(
      v.stderr
        .split('\n')
        .filter((l) => l.includes('tnv-'))
        .join('\n'),
      '',
    )
  })

  it('systemd-analyze verify does reject a broken copy (the verdict comes from the tool)', { skip: noAnalyze }, () => {
    const broken = join(t.dir, 'broken')
    mkdirSync(broken)
    const text = readFileSync(join(units, 'tnv-node@.service'), 'utf8')
    writeFileSync(join(broken, 'tnv-node@.service'), text.replace('Restart=on-failure', 'Restart=sometimes'))
    const r = verify(broken, ['tnv-node@v1.service'])
    assert.match(r.stderr, /tnv-node@.service:\d+: Failed to parse service restart specifier/)
  })
})

describe('the BLS passphrase from a systemd credential', () => {
  const t = tempDir('tnv-cred-')
  after(t.cleanup)
  const datadir = join(t.dir, 'v')
  const creds = join(t.dir, 'credentials')

  it('opens the key through $CREDENTIALS_DIRECTORY/tn-bls-passphrase (trailing newline dropped)', async () => {
    const gen = await runCli(
      ['keytool', 'generate', 'validator', '--datadir', datadir, '--address', `0x${'11'.repeat(20)}`, '--json'],
      { env: { TN_BLS_PASSPHRASE: 'correct horse battery' } },
    )
    assert.equal(gen.code, 0, gen.stderr)
    mkdirSync(creds, { mode: 0o700 })
    writeFileSync(join(creds, 'tn-bls-passphrase'), 'correct horse battery\n', { mode: 0o400 })
    const ok = await runCli(['keytool', 'verify', '--datadir', datadir, '--json'], {
      env: { CREDENTIALS_DIRECTORY: creds },
    })
    assert.equal(ok.code, 0, ok.stdout + ok.stderr)
    assert.doesNotMatch(ok.stdout + ok.stderr, /correct horse/)
  })

  it('a wrong credential is the wrong-passphrase error; none at all is the missing-passphrase one', async () => {
    writeFileSync(join(creds, 'tn-bls-passphrase'), 'wrong\n')
    const wrong = await runCli(['keytool', 'verify', '--datadir', datadir, '--json'], {
      env: { CREDENTIALS_DIRECTORY: creds },
    })
    assert.equal(wrong.code, 4)
    const none = await runCli(['keytool', 'verify', '--datadir', datadir, '--json'])
    assert.equal(none.code, 2)
  })

  it('TN_BLS_PASSPHRASE set explicitly wins over the credential', async () => {
    writeFileSync(join(creds, 'tn-bls-passphrase'), 'wrong\n')
    const r = await runCli(['keytool', 'verify', '--datadir', datadir, '--json'], {
      env: { CREDENTIALS_DIRECTORY: creds, TN_BLS_PASSPHRASE: 'correct horse battery' },
    })
    assert.equal(r.code, 0, r.stdout)
  })
})

describe('one supervisor per setup', () => {
  it('tnv node start --restart on-failure refuses to run under systemd (INVOCATION_ID set)', async () => {
    const t = tempDir('tnv-one-supervisor-')
    try {
      const r = await runCli(
        ['node', 'start', '--restart', 'on-failure', '--datadir', t.dir, '--json', '--', '--chain', 'devnet'],
        { env: { INVOCATION_ID: '0123456789abcdef0123456789abcdef' } },
      )
      assert.equal(r.code, 2, r.stdout + r.stderr)
      assert.match(r.stdout, /two supervisors/)
    } finally {
      t.cleanup()
    }
  })
})

describe("the node unit's command as systemd runs it (no systemd as PID 1 here: its environment, by hand)", () => {
  const FAKE = join(ROOT, 'test/node/fixtures/fake-node.mjs')

  /** The unit's ExecStart for `instance`, with %i and $TN_NODE_FLAGS expanded as systemd does, and its Environment=. */
  function execStart(unitsDir: string, configDir: string, instance: string) {
    const unit = readFileSync(join(unitsDir, 'tnv-node@.service'), 'utf8').replaceAll('%i', instance)
    const env: Record<string, string> = {}
    for (const m of unit.matchAll(/^Environment=([^=]+)=(.*)$/gm)) env[m[1] as string] = m[2] as string
    const file = readFileSync(join(configDir, `${instance}.env`), 'utf8')
    for (const m of file.matchAll(/^([A-Z_]+)=(.*)$/gm)) env[m[1] as string] = m[2] as string
    const line = /^ExecStart=(.*)$/m.exec(unit)?.[1] as string
    const argv = line.split(' ').flatMap((w) => (w === '$TN_NODE_FLAGS' ? (env.TN_NODE_FLAGS ?? '').split(' ') : [w]))
    return { argv, env }
  }

  /** Runs the unit's command (with SIGTERM once it says the node runs, when asked) and resolves with its exit. */
  function run(argv: string[], env: Record<string, string>, signalOnReady: boolean) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const [cmd, ...args] = argv
      const merged: Record<string, string> = {}
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TN_BLS_PASSPHRASE') merged[k] = v
      const child = spawn(process.execPath, [cmd as string, ...args], { env: { ...merged, ...env } })
      let stdout = ''
      let stderr = ''
      let signalled = false
      child.stdout.on('data', (d) => {
        stdout += d
        // one SIGTERM, as systemd sends one to the main process on stop (KillMode=mixed)
        if (signalOnReady && !signalled && /node running \(pid \d+\)/.test(stdout)) {
          signalled = true
          child.kill('SIGTERM')
        }
      })
      child.stderr.on('data', (d) => {
        stderr += d
      })
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })
  }

  it('the passphrase arrives from $CREDENTIALS_DIRECTORY; SIGTERM is a clean stop (exit 0), a crash exits non-zero (Restart=on-failure restarts it)', async () => {
    const t = tempDir('tnv-unit-run-')
    try {
      const datadirRoot = join(t.dir, 'data')
      const etc = join(t.dir, 'etc')
      const units = join(t.dir, 'units')
      const gen = await runCli(
        ['keytool', 'generate', 'validator', '--datadir', join(datadirRoot, 'v1'), '--address', `0x${'22'.repeat(20)}`],
        { env: { TN_BLS_PASSPHRASE: 'unit passphrase' } },
      )
      assert.equal(gen.code, 0, gen.stderr)
      const port = await freePort()
      const made = await runCli([
        'node',
        'unit',
        '--out',
        units,
        '--config-dir',
        etc,
        '--datadir-root',
        datadirRoot,
        '--tnv',
        BIN,
        '--node-binary',
        FAKE,
        '--instance',
        'v1',
        '--',
        '--http',
        '--http.port',
        String(port),
        '--ipcdisable',
      ])
      assert.equal(made.code, 0, made.stderr)
      // what LoadCredential= gives the service, and what systemd sets for every unit it starts
      const creds = join(t.dir, 'credentials')
      mkdirSync(creds, { mode: 0o700 })
      writeFileSync(join(creds, 'tn-bls-passphrase'), 'unit passphrase\n', { mode: 0o400 })
      const { argv, env } = execStart(units, etc, 'v1')
      const systemdEnv = { ...env, CREDENTIALS_DIRECTORY: creds, INVOCATION_ID: 'f'.repeat(32) }

      const stopped = await run(argv, systemdEnv, true)
      assert.equal(stopped.code, 0, `${stopped.stdout}\n---\n${stopped.stderr}`)
      assert.match(stopped.stderr, /fake node secret env: TN_BLS_PASSPHRASE$/m)
      assert.equal((stopped.stdout + stopped.stderr).includes('unit passphrase'), false)

      const crashed = await run(argv, { ...systemdEnv, FAKE_NODE_MODE: 'die', FAKE_NODE_DIE_MS: '3000' }, false)
      assert.equal(crashed.code, 3, crashed.stderr)
    } finally {
      t.cleanup()
    }
  })
})
