/**
 * Key-management rule 1 across layers: `keytool generate --force` refuses to replace keys whose
 * BLS key the registry has registered, when a network is configured; files stay as they were.
 * On the real registry code of both generations (the adiri stake signs its proof with the key).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { runCli, tempDir } from '../helpers/cli.js'
import { GENERATIONS, startTestChain, type TestChain } from '../registry/devnet-fixture.js'

for (const generation of GENERATIONS) {
  describe(`keytool generate --force and the ${generation} registry`, { timeout: 120_000 }, () => {
    let t: TestChain
    const { dir, cleanup } = tempDir()
    before(async () => {
      t = await startTestChain(generation, { accounts: 1 })
    })
    after(async () => {
      await t?.stop()
      cleanup()
    })

    it('refuses to replace a registered key, and replaces an unregistered one', async () => {
      const account = t.accounts[0]
      assert.ok(account)
      const datadir = join(dir, 'v')
      const env = { TN_BLS_PASSPHRASE: 'correct horse battery staple' }
      const gen = ['keytool', 'generate', 'validator', '--datadir', datadir, '--address', account.address, '-q']
      assert.equal((await runCli(gen, { env })).code, 0)
      const chainArgs = ['--rpc-url', t.url, '--chain-id', String(t.engine.chainId)]

      // not registered yet: --force with the network configured replaces the keys
      const replaced = await runCli([...gen, '--force', ...chainArgs], { env })
      assert.equal(replaced.code, 0, replaced.stderr)

      // stake with these keys, then --force must refuse and change nothing
      await t.mint(account.address)
      const stake = await runCli(['stake', '--datadir', datadir, '--yes', ...chainArgs], {
        env: { ...env, TN_PRIVATE_KEY: account.privateKey, TN_DEVNET_RELAXED: '1' },
      })
      assert.equal(stake.code, 0, stake.stderr)
      const before = readFileSync(join(datadir, 'node-info.yaml'), 'utf8')
      const refused = await runCli([...gen, '--force', ...chainArgs], { env })
      assert.equal(refused.code, 4)
      assert.match(refused.stderr, /belong to a validator that has staked/)
      assert.match(refused.stderr, /exit and unstake from the validator address/)
      assert.equal(readFileSync(join(datadir, 'node-info.yaml'), 'utf8'), before)
      // the configured network (environment, nothing typed) is checked just the same
      const viaEnv = await runCli([...gen, '--force'], {
        env: { ...env, TN_RPC_URL: t.url, TN_CHAIN_ID: String(t.engine.chainId) },
      })
      assert.equal(viaEnv.code, 4, viaEnv.stderr)
      assert.equal(readFileSync(join(datadir, 'node-info.yaml'), 'utf8'), before)
    })
  })
}
