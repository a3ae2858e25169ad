/**
 * `--check` on the keytool writers (docs/automation.md), the built CLI without a TTY: each says
 * would-change with the files it would write (path, mode, whether it exists) or already-done once
 * they hold what it would write, asks no passphrase, and leaves every file, mode and
 * modification time under the test directory as it was. A check whose run would be refused is
 * refused with the run's code.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import { type CliResult, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { treeOf } from '../helpers/tree.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const OTHER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const PASS = 'correct horse battery staple'

type Check = {
  outcome: 'would-change' | 'already-done'
  check: true
  message: string
  files: { path: string; mode: string; exists: boolean; action: 'create' | 'update' }[]
}

describe('keytool --check: the files each writer would write, nothing written', { timeout: 300_000 }, () => {
  const tmp = tempDir('tnv-keytool-check-')
  const dd = join(tmp.dir, 'validator')
  const backupFile = join(tmp.dir, 'backup.json')
  after(() => tmp.cleanup())
  /** No passphrase in the environment: a check asks for none (the run would need one). */
  const check = async (args: string[]): Promise<{ r: CliResult; body: Check }> => {
    const before = treeOf(tmp.dir)
    const r = await runCli([...args, '--check', '--json'], { env: { TN_BLS_PASSPHRASE: undefined } })
    assert.equal(treeOf(tmp.dir), before, `${args.join(' ')} --check changed a file`)
    return { r, body: r.code === 0 ? parseJson<Check>(r) : (undefined as never) }
  }
  const expect = async (args: string[], outcome: Check['outcome'], paths: string[]) => {
    const { r, body } = await check(args)
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}\n${r.stdout}`)
    assert.equal(body.outcome, outcome, body.message)
    assert.deepEqual(
      body.files.map((f) => f.path.slice(tmp.dir.length)),
      paths,
    )
    return body
  }

  before(async () => {
    const r = await runCli(['keytool', 'generate', 'validator', '--address', ADDRESS, '--datadir', dd, '-q'], {
      env: { TN_BLS_PASSPHRASE: PASS },
    })
    assert.equal(r.code, 0, r.stderr)
  })

  it('generate pop: already-done for the address it holds, would-change for another (no passphrase asked)', async () => {
    await expect(['keytool', 'generate', 'pop', '--address', ADDRESS, '--datadir', dd], 'already-done', [])
    const b = await expect(['keytool', 'generate', 'pop', '--address', OTHER, '--datadir', dd], 'would-change', [
      '/validator/node-info.yaml',
    ])
    assert.deepEqual(
      b.files.map((f) => [f.mode, f.exists, f.action]),
      [['0644', true, 'update']],
    )
  })

  it('set-rpc and convert: would-change, or already-done when node-info.yaml holds it', async () => {
    await expect(['keytool', 'set-rpc', '--http', 'https://rpc.example.org', '--datadir', dd], 'would-change', [
      '/validator/node-info.yaml',
    ])
    await expect(['keytool', 'set-rpc', '--clear', '--datadir', dd], 'already-done', [])
    await expect(['keytool', 'convert', '--to', 'workers', '--datadir', dd], 'would-change', [
      '/validator/node-info.yaml',
    ])
    await expect(['keytool', 'convert', '--to', 'worker', '--datadir', dd], 'already-done', [])
  })

  it('change-passphrase: always would-change (a fresh salt), the key file and its record', async () => {
    await expect(['keytool', 'change-passphrase', '--datadir', dd], 'would-change', [
      '/validator/node-keys/bls.kw',
      '/validator/tnv-keys.json',
    ])
  })

  it('backup, backup restore and recover: the new files; already-done once they hold it; refused where the run refuses', async () => {
    const b = await expect(['keytool', 'backup', '--datadir', dd, '--out', backupFile], 'would-change', [
      '/backup.json',
    ])
    assert.equal(b.files[0]?.mode, '0600')
    const made = await runCli(['keytool', 'backup', '--datadir', dd, '--out', backupFile, '-q'])
    assert.equal(made.code, 0, made.stderr)
    await expect(['keytool', 'backup', '--datadir', dd, '--out', backupFile], 'already-done', [])

    await expect(['keytool', 'backup', 'restore', backupFile, '--datadir', join(tmp.dir, 'restored')], 'would-change', [
      '/restored/node-keys',
      '/restored/node-info.yaml',
      '/restored/node-keys/bls.kw',
      '/restored/node-keys/primary.seed',
      '/restored/node-keys/worker.seed',
    ])
    await expect(['keytool', 'backup', 'restore', backupFile, '--datadir', dd], 'already-done', [])

    await expect(
      ['keytool', 'recover', '--address', ADDRESS, '--datadir', join(tmp.dir, 'recovered')],
      'would-change',
      [
        '/recovered',
        '/recovered/node-keys',
        '/recovered/node-keys/bls.kw',
        '/recovered/node-keys/primary.seed',
        '/recovered/node-keys/worker.seed',
        '/recovered/node-info.yaml',
        '/recovered/tnv-keys.json',
      ],
    )
    const { r } = await check(['keytool', 'recover', '--address', ADDRESS, '--datadir', dd])
    assert.equal(r.code, ExitCode.Usage, r.stdout)
    assert.equal(parseJson<{ error: { code: string } }>(r).error.code, 'RecoverTargetExists')
  })
})
