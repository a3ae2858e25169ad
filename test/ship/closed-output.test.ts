/**
 * A reader that goes away (`tnv … | head -1`) never turns work into a silent no-op: the command
 * finishes its work and exits by its result (src/entries/cli.ts, docs/ci.md "Closed output").
 * Judged by what is on disk and on chain, not by what tnv printed.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { BIN, ROOT, testStateDir } from '../helpers/cli.js'
import { startTestDevnet, type TestDevnet } from '../wizard/devnet.js'

/** Runs `tnv args | head -1` in bash; the exit code is tnv's own (PIPESTATUS[0]). */
function piped(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; first: string }> {
  return new Promise((resolve, reject) => {
    const merged: Record<string, string> = { TNV_STATE_DIR: testStateDir() }
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) merged[k] = v
    const child = spawn(
      'bash',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash script, not a template
      ['-c', '"$@" | head -1; exit "${PIPESTATUS[0]}"', 'piped', process.execPath, BIN, ...args],
      { cwd: ROOT, env: merged, stdio: ['ignore', 'pipe', 'ignore'] },
    )
    let first = ''
    child.stdout.on('data', (d) => {
      first += d
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, first }))
  })
}

describe('output that cannot be delivered never hides work', { timeout: 600_000 }, () => {
  let t: TestDevnet
  before(async () => {
    t = await startTestDevnet('tnv-closed-')
  })
  after(async () => {
    await t?.stop()
  })

  it('`tnv --help | head -1`: exit 0, one line', async () => {
    const r = await piped(['--help'], {})
    assert.equal(r.code, 0)
    assert.equal(r.first.trim().split('\n').length, 1)
  })

  it('keytool generate --json | head -1: the keys are written and the exit code is 0', async () => {
    const datadir = join(t.dir, 'keys')
    const r = await piped(
      ['keytool', 'generate', 'validator', '--datadir', datadir, '--address', t.address(3), '--json'],
      { TN_BLS_PASSPHRASE: 'closed output passphrase' },
    )
    assert.equal(r.code, 0)
    assert.ok(existsSync(join(datadir, 'node-keys', 'bls.kw')))
    assert.match(readFileSync(join(datadir, 'node-info.yaml'), 'utf8'), new RegExp(t.address(3).slice(2), 'i'))
  })

  it('stake --through staked --json --yes | head -1: staked on chain, exit 0', async () => {
    const datadir = join(t.dir, 'stake')
    const env = { ...t.env, TN_PRIVATE_KEY: t.key(4), TN_BLS_PASSPHRASE: 'closed output passphrase' }
    const r = await piped(
      [
        'stake',
        '--datadir',
        datadir,
        '--chain',
        'devnet',
        '--create-keys',
        '--through',
        'staked',
        '--mint',
        '--json',
        '--yes',
      ],
      env,
    )
    assert.equal(r.code, 0)
    const status = await t.tnv(['validator', 'status', '--address', t.address(4), '--chain', 'devnet', '--json'], env)
    assert.equal(status.code, 0, status.stderr)
    assert.equal((JSON.parse(status.stdout) as { status: string }).status, 'Staked')
  })
})
