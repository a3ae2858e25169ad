/**
 * Every file tnv writes at a path given on the command line (keytool backup --out, node check
 * --prometheus, keytool generate --mnemonic-out, delegation sign --out; the Safe batch's --out goes
 * through the same writeOutputFile, tested in test/unit/output-file.test.ts): a missing directory, a
 * read-only one, a full disk and a path of the wrong kind each end in one paragraph naming the path
 * and the fix, with the exit code docs/ci.md lists, and leave no file (temporary or not) behind.
 * `node check` prints its findings and exits by them; the textfile failure is a finding.
 *
 * The read-only and full-disk cases mount a read-only bind and a tiny tmpfs; where mount is not
 * permitted (not root, no CAP_SYS_ADMIN) they skip with that reason, and the full disk is also
 * tested through the write's fault seam (TNV_INJECT_FAULT=write=ENOSPC), which throws the OS's error.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { BIN, generateKeysArgs, ROOT, runCli, tempDir, testStateDir } from '../helpers/cli.js'

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
// anvil's well-known account #1: a test key, never a real one
const TEST_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

/** Mounts with `args`; returns the reason it could not, or null. */
function mount(args: string[]): string | null {
  const r = spawnSync('mount', args, { encoding: 'utf8' })
  return r.status === 0
    ? null
    : `mount ${args.join(' ')} is not permitted here: ${(r.stderr || r.error?.message || '').trim()}`
}
function umount(dir: string): void {
  spawnSync('umount', [dir])
}

/** A read-only directory (a bind mount of an empty one), or the reason there is none. */
function readOnlyDir(base: string): { dir: string } | { skip: string } {
  const src = join(base, 'ro-src')
  const dir = join(base, 'ro')
  mkdirSync(src)
  mkdirSync(dir)
  const no = mount(['--bind', src, dir])
  if (no) return { skip: no }
  const ro = mount(['-o', 'remount,ro,bind', dir])
  if (ro) {
    umount(dir)
    return { skip: ro }
  }
  return { dir }
}

/** A tmpfs of 64 KiB filled to the last block, or the reason there is none. */
function fullDisk(base: string): { dir: string } | { skip: string } {
  const dir = join(base, 'full')
  mkdirSync(dir)
  const no = mount(['-t', 'tmpfs', '-o', 'size=64k,mode=0755', 'tnv-test-full', dir])
  if (no) return { skip: no }
  const block = Buffer.alloc(4096, 1)
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(dir, `filler-${i}`), block)
    } catch {
      break
    }
  }
  return { dir }
}

/** The files of `dir` that are not the test's own filler. */
function leftIn(dir: string): string[] {
  return readdirSync(dir).filter((f) => !f.startsWith('filler-'))
}

describe('output files at a path given on the command line', () => {
  let dir: string
  let cleanup: () => void
  let datadir: string
  const mounts: string[] = []
  let ro: { dir: string } | { skip: string }
  let full: { dir: string } | { skip: string }
  before(async () => {
    ;({ dir, cleanup } = tempDir())
    datadir = join(dir, 'tn')
    const g = await runCli(generateKeysArgs(datadir, ADDRESS))
    assert.equal(g.code, 0, g.stderr)
    ro = readOnlyDir(dir)
    if ('dir' in ro) mounts.push(ro.dir)
    full = fullDisk(dir)
    if ('dir' in full) mounts.push(full.dir)
    writeFileSync(join(dir, 'a-file'), 'x')
  })
  after(() => {
    for (const m of mounts) umount(m)
    cleanup()
  })

  /** The commands, each writing its file at `out`. */
  const writers: { name: string; flag: string; args: (out: string) => string[]; env?: Record<string, string> }[] = [
    { name: 'keytool backup', flag: '--out', args: (out) => ['keytool', 'backup', '--datadir', datadir, '--out', out] },
    {
      name: 'keytool generate --mnemonic-out',
      flag: '--mnemonic-out',
      args: (out) => [
        'keytool',
        'generate',
        'validator',
        '--mnemonic',
        '--mnemonic-out',
        out,
        '--datadir',
        join(dir, `fresh-${Math.random().toString(16).slice(2)}`),
        '--address',
        ADDRESS,
        '--bls-passphrase-source',
        'no-passphrase',
      ],
    },
    {
      name: 'delegation sign --out',
      flag: '--out',
      env: { TN_PRIVATE_KEY: TEST_KEY },
      args: (out) => [
        'delegation',
        'sign',
        '--delegator',
        '0x2222222222222222222222222222222222222222',
        '--chain',
        'testnet',
        '--registry-generation',
        'adiri',
        '--stake-version',
        '0',
        '--nonce',
        '0',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'no-passphrase',
        '--skip-backup-check',
        '--out',
        out,
      ],
    },
  ]

  for (const w of writers) {
    describe(w.name, () => {
      it('writes the file where the directory exists (the baseline)', async () => {
        const out = join(dir, `ok-${w.name.replaceAll(' ', '-')}.txt`)
        const r = await runCli(w.args(out), { env: w.env })
        assert.equal(r.code, 0, r.stderr)
        assert.ok(existsSync(out))
      })

      it('a missing directory: exit 5, the path and mkdir -p, nothing created', async () => {
        const missing = join(dir, 'media', 'usb')
        const out = join(missing, 'tn-out.json')
        const r = await runCli(w.args(out), { env: w.env })
        assert.equal(r.code, 5, r.stderr)
        assert.match(
          r.stderr,
          new RegExp(`${w.flag} ${reEscape(out)}: the directory ${reEscape(missing)} does not exist`),
        )
        assert.match(r.stderr, new RegExp(`mkdir -p ${reEscape(missing)}`))
        assert.doesNotMatch(r.stderr, /Unexpected failure|\.tmp-|tnv-new-/)
        assert.equal(existsSync(join(dir, 'media')), false)
      })

      it('an existing directory: exit 3 (a path of the wrong kind)', async () => {
        mkdirSync(join(dir, 'a-dir'), { recursive: true })
        const r = await runCli([...w.args(join(dir, 'a-dir')), '--json'], { env: w.env })
        assert.equal(r.code, 3, r.stderr)
        const err = JSON.parse(r.stdout).error
        assert.equal(err.code, 'OutputPathKind')
        assert.match(err.message, /is an existing directory/)
        assert.deepEqual(readdirSync(join(dir, 'a-dir')), [])
      })

      it('a file where a directory belongs on the way: exit 3', async () => {
        const r = await runCli(w.args(join(dir, 'a-file', 'out.json')), { env: w.env })
        assert.equal(r.code, 3, r.stderr)
        assert.match(r.stderr, /has a file where a directory belongs|which is not a directory/)
      })

      it('a read-only directory: exit 5 (EROFS), nothing left', async (t) => {
        if ('skip' in ro) return t.skip(ro.skip)
        const r = await runCli(w.args(join(ro.dir, 'out.json')), { env: w.env })
        assert.equal(r.code, 5, r.stderr)
        assert.match(r.stderr, /read-only file system \(EROFS\)/)
        assert.match(r.stderr, new RegExp(reEscape(join(ro.dir, 'out.json'))))
      })

      it('a full disk (a filled tmpfs): exit 5 (ENOSPC), no temporary file left', async (t) => {
        if ('skip' in full) return t.skip(full.skip)
        const out = join(full.dir, `${w.name.replaceAll(' ', '-')}.json`)
        const r = await runCli(w.args(out), { env: w.env })
        assert.equal(r.code, 5, r.stderr)
        assert.match(
          r.stderr,
          new RegExp(`${w.flag} ${reEscape(out)}: the disk holding ${reEscape(full.dir)} is full \\(ENOSPC\\)`),
        )
        assert.doesNotMatch(r.stderr, /\.tmp-|tnv-new-/)
        assert.deepEqual(leftIn(full.dir), [])
      })

      it('a full disk (the fault seam): exit 5 (ENOSPC), no temporary file left', async () => {
        const target = join(dir, `seam-${w.name.replaceAll(' ', '-')}`)
        mkdirSync(target)
        const r = await runCli(w.args(join(target, 'out.json')), {
          env: { ...w.env, TNV_INJECT_FAULT: 'write=ENOSPC' },
        })
        assert.equal(r.code, 5, r.stderr)
        assert.match(r.stderr, /is full \(ENOSPC\)/)
        assert.deepEqual(readdirSync(target), [])
      })
    })
  }

  describe('node check --prometheus', () => {
    const check = (prom: string, extra: string[] = []) =>
      runCli(['node', 'check', '--datadir', datadir, '--no-exposure', '--prometheus', prom, '--json', ...extra])

    it('a missing directory: the findings are printed, the textfile is a warn finding, exit by the findings', async () => {
      const missing = join(dir, 'var', 'lib', 'node_exporter', 'textfile_collector')
      const r = await check(join(missing, 'tnv.prom'))
      const report = JSON.parse(r.stdout)
      const textfile = report.findings.find((f: { id: string }) => f.id === 'host.textfile')
      assert.equal(textfile.level, 'warn')
      assert.match(textfile.message, /does not exist/)
      assert.match(textfile.fix, new RegExp(`mkdir -p ${reEscape(missing)}`))
      // no local node runs for this data directory: node.rpc fails, and the exit code says so
      assert.equal(report.level, 'fail')
      assert.equal(r.code, 2)
      assert.equal(existsSync(join(dir, 'var')), false)
    })

    it('an existing directory: exit 3 before any check', async () => {
      const r = await check(dir)
      assert.equal(r.code, 3, r.stderr)
      assert.equal(JSON.parse(r.stdout).error.code, 'OutputPathKind')
    })

    it('a read-only directory: a warn finding naming EROFS', async (t) => {
      if ('skip' in ro) return t.skip(ro.skip)
      const r = await check(join(ro.dir, 'tnv.prom'))
      const f = JSON.parse(r.stdout).findings.find((x: { id: string }) => x.id === 'host.textfile')
      assert.equal(f.level, 'warn')
      assert.match(f.message, /EROFS/)
    })

    it('a full disk: a warn finding naming ENOSPC, no temporary file left', async (t) => {
      if ('skip' in full) return t.skip(full.skip)
      const r = await check(join(full.dir, 'tnv.prom'))
      const f = JSON.parse(r.stdout).findings.find((x: { id: string }) => x.id === 'host.textfile')
      assert.equal(f.level, 'warn')
      assert.match(f.message, /ENOSPC/)
      assert.deepEqual(leftIn(full.dir), [])
    })

    it('a writable directory: the textfile is written and the finding is ok', async () => {
      const prom = join(dir, 'tnv.prom')
      const r = await check(prom)
      const f = JSON.parse(r.stdout).findings.find((x: { id: string }) => x.id === 'host.textfile')
      assert.equal(f.level, 'ok')
      assert.match(readFileSync(prom, 'utf8'), /^# HELP tnv_node_check_status/)
    })
  })

  describe("the README's own example lines, as written", () => {
    // /media/usb (a USB key not mounted) and /var/lib/node_exporter (node_exporter not installed)
    // are the README's mount points: on this host they must be missing for the lines to mean that
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')
    const line = (re: RegExp) => {
      const found = readme.find((l) => re.test(l))
      assert.ok(found, `README.md has a line matching ${re}`)
      return (found as string).replace(/\s+#.*$/, '').trim()
    }
    const backupLine = line(/^tnv keytool backup --datadir ~\/tn --out \/media\/usb\//)
    const checkLine = line(/^tnv node check .*--prometheus \/var\/lib\/node_exporter\//)

    /** Runs `text` in sh with HOME = a temporary directory holding ~/tn and `tnv` = this build. */
    const shell = (text: string, home: string, untilLine?: RegExp) =>
      new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
        const bin = join(home, 'bin')
        mkdirSync(bin, { recursive: true })
        writeFileSync(join(bin, 'tnv'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
        chmodSync(join(bin, 'tnv'), 0o755)
        // exec: the line's own process (tnv) gets the signal, as in an operator's terminal
        const child = spawn('sh', ['-c', `exec ${text}`], {
          detached: true,
          env: {
            PATH: `${bin}:${process.env.PATH}`,
            HOME: home,
            TNV_STATE_DIR: testStateDir(),
            TNV_TEST: '1',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let stdout = ''
        let stderr = ''
        let interrupted = false
        child.stdout.on('data', (d) => {
          stdout += d
          // --watch runs until interrupted: stop it after its first report, as an operator would
          if (!interrupted && untilLine?.test(stdout) && child.pid !== undefined) {
            interrupted = true
            process.kill(-child.pid, 'SIGINT')
          }
        })
        child.stderr.on('data', (d) => {
          stderr += d
        })
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
      })

    it(backupLine, async (t) => {
      if (existsSync('/media/usb')) return t.skip('/media/usb exists on this host: the line would write there')
      const home = join(dir, 'home-backup')
      const g = await runCli(generateKeysArgs(join(home, 'tn'), ADDRESS))
      assert.equal(g.code, 0, g.stderr)
      const r = await shell(backupLine, home)
      assert.equal(r.code, 5, r.stderr)
      assert.match(r.stderr, /--out \/media\/usb\/tn-backup\.json: the directory \/media\/usb does not exist/)
      assert.match(r.stderr, /mkdir -p \/media\/usb/)
      assert.doesNotMatch(r.stderr, /Unexpected failure/)
    })

    it(checkLine, async (t) => {
      if (existsSync('/var/lib/node_exporter')) return t.skip('/var/lib/node_exporter exists on this host')
      const home = join(dir, 'home-check')
      const g = await runCli(generateKeysArgs(join(home, 'tn'), ADDRESS))
      assert.equal(g.code, 0, g.stderr)
      const r = await shell(checkLine, home, /^(OK|WARN|FAIL)( \(|:).*$/m)
      assert.match(
        r.stdout,
        /WARN\s+host\.textfile\s+--prometheus \/var\/lib\/node_exporter\/textfile_collector\/tnv\.prom: the directory/,
      )
      assert.match(r.stdout, /mkdir -p \/var\/lib\/node_exporter\/textfile_collector/)
      assert.doesNotMatch(r.stderr, /Unexpected failure/)
      // interrupted after the first report, it exits by that report: no node runs for ~/tn, so 2
      assert.equal(r.code, 2, r.stderr)
    })
  })
})

function reEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
