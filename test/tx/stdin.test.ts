/**
 * One stdin reader per run: `--keystore-password-source stdin` takes line 1 and
 * `--bls-passphrase-source stdin` line 2 (here for the key check of keys tnv holds no record
 * of), for the plain stake and for `--through`. A missing second line is a usage error naming the flag, never Node's exit 13.
 */
import assert from 'node:assert/strict'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { DEVNET_CHAIN_ID } from '../../src/lib/chain/addresses.js'
import { runCli } from '../helpers/cli.js'
import { startTestChain, type TestAccount, type TestChain } from '../registry/devnet-fixture.js'
import { writeKeystore } from '../registry/keystore-fixture.js'

describe('keystore password and BLS passphrase both from stdin', { timeout: 180_000 }, () => {
  let t: TestChain
  before(async () => {
    t = await startTestChain('next', { accounts: 3 })
  })
  after(async () => {
    await t?.stop()
  })

  const setup = async (a: TestAccount, name: string) => {
    await t.mint(a.address)
    const dir = join(t.datadir, name)
    const made = await runCli(
      [
        'keytool',
        'generate',
        'validator',
        '--address',
        a.address,
        '--datadir',
        dir,
        '--bls-passphrase-source',
        'stdin',
        '-q',
      ],
      { input: 'bls pass\n' },
    )
    assert.equal(made.code, 0, made.stderr)
    // as if the node's own keytool had written the keys: tnv has no record of the key file
    rmSync(join(dir, 'tnv-keys.json'))
    const keystore = join(t.datadir, `${name}.json`)
    writeKeystore(keystore, a.privateKey, 'ks pass')
    return {
      dir,
      args: [
        'stake',
        '--rpc-url',
        t.url,
        '--chain-id',
        String(DEVNET_CHAIN_ID),
        '--datadir',
        dir,
        '--keystore',
        keystore,
        '--keystore-password-source',
        'stdin',
        '--bls-passphrase-source',
        'stdin',
        '--yes',
        '--json',
      ],
    }
  }

  it('line 1 opens the keystore, line 2 the BLS key (checked against node-info.yaml), and it stakes', async () => {
    const a = t.accounts[0] as TestAccount
    const { args, dir } = await setup(a, 'both')
    const r = await runCli(args, { input: 'ks pass\nbls pass\n', env: { TN_DEVNET_RELAXED: '1' } })
    assert.equal(r.code, 0, r.stderr)
    assert.equal(JSON.parse(r.stdout).outcome, 'sent')
    // the key was opened with line 2 and checked: tnv recorded which public key the file holds
    assert.ok(existsSync(join(dir, 'tnv-keys.json')))
  })

  it('stake --through staked reads the same two lines from the same reader', async () => {
    const a = t.accounts[2] as TestAccount
    const { args } = await setup(a, 'through')
    const r = await runCli([...args, '--through', 'staked'], { input: 'ks pass\nbls pass\n' })
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    const last = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as { status: string }
    assert.equal(last.status, 'Staked')
  })

  it('no second line: a usage error naming --bls-passphrase-source, nothing sent, never exit 13', async () => {
    const a = t.accounts[1] as TestAccount
    const { args } = await setup(a, 'one-line')
    const r = await runCli(args, { input: 'ks pass\n', env: { TN_DEVNET_RELAXED: '1' } })
    assert.equal(r.code, 2, r.stderr)
    const { error } = JSON.parse(r.stdout) as { error: { code: string; fix: string } }
    assert.equal(error.code, 'NoPassphraseOnStdin')
    assert.match(error.fix, /--bls-passphrase-source/)
    assert.equal(await t.engine.client.getTransactionCount({ address: a.address }), 0)
  })
})
