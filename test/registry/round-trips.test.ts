/**
 * JSON-RPC round trips of `tnv stake` as a process makes them, counted through a proxy on
 * loopback, on the REAL registry code of both generations: a stake takes 4 (one batch of
 * reads, the simulation, the send, the receipt) and a rerun with nothing to send at most 2.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Hex } from 'viem'
import { runCli, tempDir } from '../helpers/cli.js'
import { type CountingProxy, startCountingProxy } from '../helpers/counting-proxy.js'
import { GENERATIONS, startTestChain, type TestChain } from './devnet-fixture.js'

const PASS = 'test passphrase'

for (const generation of GENERATIONS) {
  describe(`tnv stake round trips on the real ${generation} code`, { timeout: 300_000 }, () => {
    const { dir, cleanup } = tempDir(`tnv-round-trips-${generation}-`)
    let t: TestChain
    let proxy: CountingProxy
    const datadir = join(dir, 'validator')
    const account = () => t.accounts[0] as { address: Hex; privateKey: Hex }

    before(async () => {
      t = await startTestChain(generation, { accounts: 1 })
      proxy = await startCountingProxy(t.url)
      const r = await runCli(
        ['keytool', 'generate', 'validator', '--address', account().address, '--datadir', datadir, '-q'],
        { env: { TN_BLS_PASSPHRASE: PASS } },
      )
      assert.equal(r.code, 0, r.stderr)
      await t.mint(account().address)
    })
    after(async () => {
      await proxy?.close()
      await t?.stop()
      cleanup()
    })

    const stake = async () => {
      proxy.reset()
      const r = await runCli(
        [
          'stake',
          '--datadir',
          datadir,
          '--yes',
          '--json',
          '--rpc-url',
          proxy.url,
          '--chain-id',
          String(t.engine.chainId),
        ],
        {
          env: {
            TN_PRIVATE_KEY: account().privateKey,
            TN_BLS_PASSPHRASE: PASS,
            TN_CHAIN: undefined,
            TN_RPC_URL: undefined,
          },
        },
      )
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
      return { outcome: (JSON.parse(r.stdout) as { outcome: string }).outcome, trips: [...proxy.trips] }
    }

    it('stake: one batch of reads, the simulation, the send, the receipt', async () => {
      const { outcome, trips } = await stake()
      assert.equal(outcome, 'sent')
      assert.ok(trips[0]?.includes('eth_chainId') && trips[0]?.includes('eth_getCode'), JSON.stringify(trips[0]))
      assert.ok(trips[1]?.includes('eth_estimateGas'), JSON.stringify(trips[1]))
      assert.deepEqual(trips[2], ['eth_sendRawTransaction'])
      // then the receipt: one round trip when the block is already there, one more per poll while
      // the node has not made it yet (a loaded machine); nothing else is asked
      const receipt = trips.slice(3)
      assert.ok(receipt.length >= 1, JSON.stringify(trips))
      for (const trip of receipt) assert.deepEqual(trip, ['eth_getTransactionReceipt'], JSON.stringify(trips))
    })

    it('a rerun with nothing to send: at most 2', async () => {
      const { outcome, trips } = await stake()
      assert.equal(outcome, 'already-done')
      assert.ok(trips.length <= 2, JSON.stringify(trips))
    })
  })
}
