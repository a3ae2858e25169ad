/**
 * Small items of issue 35 (15): usage lines without an empty alternative, one OK/FAIL check line
 * in `keytool verify` and `keytool backup verify`, and the README's completion line leaving
 * ~/.bashrc ending with a newline.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { withoutEmptyAlternatives } from '../../src/cli/help.js'
import { BIN, runCli, tempDir } from '../helpers/cli.js'

describe('usage lines', () => {
  it('empty alternatives are removed, nothing else', () => {
    assert.equal(
      withoutEmptyAlternatives('[--ledger | [--private-key <hex> | --keystore <file>] |  | --unsigned | --trezor]'),
      '[--ledger | [--private-key <hex> | --keystore <file>] | --unsigned | --trezor]',
    )
    assert.equal(withoutEmptyAlternatives('[ | --a | ]'), '[--a]')
    assert.equal(withoutEmptyAlternatives('[--chain devnet|testnet] [-y]'), '[--chain devnet|testnet] [-y]')
  })
  it('no signer command shows `|  |`', async () => {
    for (const id of [['rewards', 'claim'], ['activate'], ['unstake'], ['stake'], ['exit']]) {
      const r = await runCli([...id, '--help'])
      assert.equal(r.code, 0, r.stderr)
      assert.doesNotMatch(r.stdout, /\|\s+\|/, id.join(' '))
      assert.match(r.stdout, /--unsigned/)
    }
  })
})

describe('check lines and the completion line', { timeout: 120_000 }, () => {
  const tmp = tempDir('tnv-small-items-')
  after(() => tmp.cleanup())
  it('keytool verify and keytool backup verify list their checks alike: OK/FAIL field: detail', async () => {
    const dd = join(tmp.dir, 'v')
    const env = { TN_BLS_PASSPHRASE: 'a long enough passphrase' }
    const gen = ['keytool', 'generate', 'validator', '--address', '0x1111111111111111111111111111111111111111']
    assert.equal((await runCli([...gen, '--datadir', dd, '-q'], { env })).code, 0)
    const verify = await runCli(['keytool', 'verify', '--datadir', dd], { env })
    assert.equal(verify.code, 0, verify.stderr)
    const backup = join(tmp.dir, 'b.json')
    assert.equal((await runCli(['keytool', 'backup', '--datadir', dd, '--out', backup])).code, 0)
    const bverify = await runCli(['keytool', 'backup', 'verify', backup, '--datadir', dd], { env })
    assert.equal(bverify.code, 0, bverify.stderr)
    for (const [label, out] of [
      ['verify', verify.stdout],
      ['backup verify', bverify.stdout],
    ] as const) {
      const lines = out.split('\n').filter((l) => /^(ok|OK|FAIL|BAD)\b/.test(l))
      assert.ok(lines.length >= 3, `${label}: ${out}`)
      for (const l of lines) assert.match(l, /^OK {2}[\w.[\]]+: \S/, `${label}: ${l}`)
    }
  })
  it("the README's completion line appends the setup with its newline", async () => {
    const rc = join(tmp.dir, 'bashrc')
    writeFileSync(rc, '# existing\n')
    const readme = readFileSync(join(BIN, '..', '..', 'README.md'), 'utf8')
    const line = readme.split('\n').find((l) => l.startsWith('printf \'%s\\n\' "$(tnv autocomplete script bash)"'))
    assert.ok(line, 'README has the completion line')
    const cmd = (line as string).replace(/\s+#.*$/, '').replace('~/.bashrc', JSON.stringify(rc))
    execFileSync(
      'bash',
      ['-c', `tnv() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }; ${cmd}; ${cmd}`],
      {
        env: { ...process.env, XDG_CACHE_HOME: join(tmp.dir, 'cache') },
      },
    )
    const text = readFileSync(rc, 'utf8')
    assert.ok(text.endsWith('\n'), JSON.stringify(text.slice(-40)))
    // appended twice, each setup on its own line
    assert.equal(text.split('\n').filter((l) => l.includes('autocomplete setup')).length, 2)
  })
})
