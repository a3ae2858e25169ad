// @ts-nocheck -- written for the retired devnet registry contract (its governance key and ABI are gone); issue 12 rewrites it for the real registries. Left compiling only by issue 11.
/**
 * Key-management rule 1 across layers: `keytool generate --force` refuses to replace keys whose
 * BLS key the registry has registered, when a network is configured; files stay as they were.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { runCli, tempDir } from '../helpers/cli.js'
import { startTestChain, type TestChain } from '../registry/devnet-fixture.js'

describe('keytool generate --force and the registry', () => {
  let t: TestChain
  const { dir, cleanup } = tempDir()
  before(async () => {
    t = await startTestChain()
  })
  after(async () => {
    await t?.stop()
    cleanup()
  })

  it('refuses to replace a registered key, and replaces an unregistered one', async () => {
    const account = t.chain.accounts[0]
    assert.ok(account)
    const datadir = join(dir, 'v')
    const env = { TN_BLS_PASSPHRASE: 'correct horse battery staple' }
    const gen = ['keytool', 'generate', 'validator', '--datadir', datadir, '--address', account.address, '-q']
    assert.equal((await runCli(gen, { env })).code, 0)
    const chainArgs = ['--rpc-url', t.chain.engineHttpUrl, '--chain-id', String(t.chain.chainId)]

    // not registered yet: --force with the network configured replaces the keys
    const replaced = await runCli([...gen, '--force', ...chainArgs], { env })
    assert.equal(replaced.code, 0, replaced.stderr)

    // stake with these keys, then --force must refuse and change nothing
    const mint = await runCli(['governance', 'mint', account.address, '--yes', ...chainArgs], {
      env: { TN_PRIVATE_KEY: t.chain.governance.privateKey },
    })
    assert.equal(mint.code, 0, mint.stderr)
    const stake = await runCli(['stake', '--datadir', datadir, '--yes', ...chainArgs], {
      env: { TN_PRIVATE_KEY: account.privateKey },
    })
    assert.equal(stake.code, 0, stake.stderr)
    const before = readFileSync(join(datadir, 'node-info.yaml'), 'utf8')
    const refused = await runCli([...gen, '--force', ...chainArgs], { env })
    assert.equal(refused.code, 4)
    assert.match(refused.stderr, /belong to a validator that has staked/)
    assert.match(refused.stderr, /exit and unstake from the validator address/)
    assert.equal(readFileSync(join(datadir, 'node-info.yaml'), 'utf8'), before)
  })
})
