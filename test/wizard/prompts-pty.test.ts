/**
 * The prompts of issue 35 (item 4/7) on a pseudo-terminal, against a reference devnet:
 * - Ctrl-C at the private-key prompt and at the keystore password prompt stops at the first
 *   press (exit 30), with no "Try again";
 * - the wizard remembers the signer choice per data directory (kind and keystore path, never a
 *   secret; 0600) and offers it as the default next time;
 * - a command that needs a signer and finds none asks for one on a terminal (`rewards claim`),
 *   and off a terminal names the flag and the variable;
 * - a wrong BLS passphrase at the hidden prompt gets another try, and what to do when the
 *   passphrase is really lost comes only after the tries.
 */
import assert from 'node:assert/strict'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import { SIGNER_CHOICE_FILE } from '../../src/lib/onboard/signer-memory.js'
import { parseJson } from '../helpers/cli.js'
import { writeKeystore } from '../registry/keystore-fixture.js'
import { startTestDevnet, type TestDevnet } from './devnet.js'
import { DOWN, ENTER, PYTHON, spawnPty } from './pty.js'

const skip = PYTHON ? false : 'python3 is not installed: the pseudo-terminal helper needs its pty module'
const CTRL_C = '\u0003'

describe('prompts on a terminal: Ctrl-C, the remembered signer, a signer asked for, passphrase tries', { skip }, () => {
  let t: TestDevnet
  let keystore: string
  before(async () => {
    t = await startTestDevnet('tnv-prompts-pty-')
    keystore = join(t.dir, 'validator-5.json')
    writeKeystore(keystore, t.key(5), 'keystore password')
  })
  after(async () => {
    await t.stop()
  })

  it('Ctrl-C at the private-key prompt of `rewards claim` stops at the first press (exit 30)', async () => {
    const w = spawnPty(['rewards', 'claim', '--chain', 'devnet'], t.env)
    await w.expect('Who signs the transactions?')
    w.type(ENTER)
    await w.expect('Private key of the validator address')
    w.type(CTRL_C)
    assert.equal(await w.exited, ExitCode.Aborted, w.screen())
    assert.doesNotMatch(w.screen(), /Try again/)
    assert.match(w.screen(), /Stopped at a prompt/)
  })

  it('Ctrl-C at the keystore password prompt stops at the first press (exit 30)', async () => {
    const w = spawnPty(['rewards', 'claim', '--chain', 'devnet'], t.env)
    await w.expect('Who signs the transactions?')
    w.type(`${DOWN}${ENTER}`)
    await w.expect('Keystore file')
    w.type(`${keystore}${ENTER}`)
    await w.expect('Password for the keystore')
    w.type(CTRL_C)
    assert.equal(await w.exited, ExitCode.Aborted, w.screen())
    assert.doesNotMatch(w.screen(), /Try again/)
  })

  it('off a terminal, `rewards claim` without a signer names the flags and the variable (exit 2)', async () => {
    const r = await t.tnv(['rewards', 'claim', '--chain', 'devnet', '--json'])
    assert.equal(r.code, ExitCode.Usage, r.stderr)
    const e = parseJson<{ error: { code: string; fix: string } }>(r).error
    assert.equal(e.code, 'SignerRequired')
    assert.match(e.fix, /TN_PRIVATE_KEY/)
    assert.match(e.fix, /--keystore/)
  })

  it('the signer choice is remembered in the data directory (kind and keystore path, 0600, no secret) and is the default next run', async () => {
    const datadir = join(t.dir, 'remembered')
    const keys = await t.tnv(
      ['keytool', 'generate', 'validator', '--address', t.address(5), '--datadir', datadir, '-q'],
      {
        TN_BLS_PASSPHRASE: 'x',
      },
    )
    assert.equal(keys.code, 0, keys.stderr)
    const first = spawnPty(['stake', '--datadir', datadir, '--chain', 'devnet'], t.env)
    await first.expect('Who signs the transactions?')
    first.type(`${DOWN}${ENTER}`)
    await first.expect('Keystore file')
    first.type(`${keystore}${ENTER}`)
    await first.expect('Password for the keystore')
    first.type(`keystore password${ENTER}`)
    await first.expect('How far should tnv take this validator now?')
    first.type(CTRL_C)
    assert.equal(await first.exited, ExitCode.Aborted, first.screen())
    const file = join(datadir, SIGNER_CHOICE_FILE)
    assert.equal(statSync(file).mode & 0o777, 0o600)
    const text = readFileSync(file, 'utf8')
    assert.deepEqual(JSON.parse(text), { kind: 'keystore', keystore })
    assert.ok(!text.includes('keystore password') && !text.includes(t.key(5).slice(2)), 'no secret in the file')

    // the next run offers the remembered keystore: Enter twice reaches its password
    const second = spawnPty(['stake', '--datadir', datadir, '--chain', 'devnet'], t.env)
    await second.expect('Who signs the transactions?')
    second.type(ENTER)
    await second.expect(`Keystore file (${keystore})`)
    second.type(ENTER)
    await second.expect('Password for the keystore')
    second.type(CTRL_C)
    assert.equal(await second.exited, ExitCode.Aborted, second.screen())
  })

  it('a wrong BLS passphrase at the hidden prompt gets another try; after the tries, what to do if it is really lost', async () => {
    const datadir = join(t.dir, 'passphrase')
    const keys = await t.tnv(
      ['keytool', 'generate', 'validator', '--address', t.address(6), '--datadir', datadir, '-q'],
      {
        TN_BLS_PASSPHRASE: 'the right one',
      },
    )
    assert.equal(keys.code, 0, keys.stderr)
    const verify = ['keytool', 'verify', '--datadir', datadir, '--bls-passphrase-source', 'ask']
    const typo = spawnPty(verify, t.env)
    await typo.expect('BLS key passphrase')
    typo.type(`the rihgt one${ENTER}`)
    await typo.expect('Try again (2 left)')
    typo.type(`the right one${ENTER}`)
    assert.equal(await typo.exited, 0, typo.screen())
    assert.doesNotMatch(typo.screen(), /onboard a new validator address/)

    const lost = spawnPty(verify, t.env)
    for (const left of [2, 1]) {
      await lost.expect('BLS key passphrase')
      lost.type(`wrong ${left}${ENTER}`)
      await lost.expect(`Try again (${left} left)`)
    }
    lost.type(`wrong 0${ENTER}`)
    assert.equal(await lost.exited, ExitCode.BadKeys, lost.screen())
    assert.match(lost.screen(), /none of the 3 passphrases typed opens it/)
    assert.match(lost.screen(), /Only if the passphrase is really lost: .*onboard a new validator address/s)
    assert.ok(!lost.screen().includes('the right one'), 'no passphrase echoed')
  })
})
