/**
 * The reproduction of issue 14's double send, on the real next-generation registry: a node that
 * keeps the first transaction pending (anvil with automine off) and estimates gas at `latest`
 * (a proxy rewrites eth_estimateGas), and tnv killed between eth_sendRawTransaction reaching the
 * node and its answer. Before the step runner, the rerun simulated against `latest` (the pending
 * stake not in it), passed, and sent a SECOND transaction (which then reverted with
 * DuplicateBLSPubkey and cost gas). Now the signed transaction is journaled before the send, so
 * the rerun waits for those very bytes: exactly one transaction per step, judged by the chain.
 */
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Address, Hex } from 'viem'
import { DEVNET_CHAIN_ID, REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { runCli } from '../helpers/cli.js'
import { startTestChain, type TestAccount, type TestChain } from '../registry/devnet-fixture.js'
import { minedFrom, type NodeProxy, spawnCli, startNodeProxy } from './helpers.js'

describe('killed between the send and its answer, on a node that estimates at latest: one transaction', {
  timeout: 300_000,
}, () => {
  let t: TestChain
  let proxy: NodeProxy
  const abi = registryAbis.next
  const status = async (a: Address) =>
    (
      (await t.engine.client.readContract({
        address: REGISTRY_ADDRESS,
        abi,
        functionName: 'getValidator',
        args: [a],
      } as never)) as { currentStatus: number }
    ).currentStatus
  const chainArgs = () => ['--rpc-url', proxy.url, '--chain-id', String(DEVNET_CHAIN_ID)]
  const keysFor = async (a: TestAccount, name: string) => {
    const dir = join(t.datadir, name)
    const r = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      a.address,
      '--datadir',
      dir,
      '--bls-passphrase-source',
      'no-passphrase',
      '-q',
    ])
    assert.equal(r.code, 0, r.stderr)
    return dir
  }

  /**
   * Runs `args` with the node holding the send's answer, kills tnv once the node has the
   * transaction, then reruns it against a node that mines only 1.5 s later (the transaction is
   * still pending when the rerun starts).
   */
  const killAtSendThenRerun = async (args: string[], key: Hex) => {
    await t.anvil('evm_setAutomine', [false])
    proxy.holdSends = true
    const first = spawnCli(args, { TN_PRIVATE_KEY: key, TN_DEVNET_RELAXED: '1' })
    const [raw] = (await once(proxy.events, 'held')) as [Hex]
    first.kill('SIGKILL')
    const killed = await first.result
    assert.equal(killed.signal, 'SIGKILL', killed.stderr)
    proxy.holdSends = false
    const pool = (await t.anvil('txpool_content', [])) as { pending: Record<string, unknown> }
    assert.equal(Object.keys(pool.pending).length, 1, 'the killed run left its transaction pending in the node')
    const miner = setTimeout(() => {
      void t.anvil('evm_setAutomine', [true])
    }, 1500)
    try {
      const second = await spawnCli(args, { TN_PRIVATE_KEY: key, TN_DEVNET_RELAXED: '1' }).result
      assert.equal(second.code, 0, `${second.stdout}\n${second.stderr}`)
      assert.match(second.stderr, /has no known outcome: settling it/)
      return { raw, second }
    } finally {
      clearTimeout(miner)
      await t.anvil('evm_setAutomine', [true])
    }
  }

  before(async () => {
    t = await startTestChain('next', { accounts: 6 })
    proxy = await startNodeProxy(t.url)
  })
  after(async () => {
    await proxy?.close()
    await t?.stop()
  })

  it('stake', async () => {
    const v = t.accounts[0] as TestAccount
    await t.mint(v.address)
    const dir = await keysFor(v, 'stake')
    const args = ['stake', ...chainArgs(), '--datadir', dir, '--yes']
    const { second } = await killAtSendThenRerun(args, v.privateKey)
    assert.match(second.stdout, /already staked with this BLS key .*nothing was sent/)
    const txs = await minedFrom(t.anvil, v.address)
    assert.deepEqual(
      txs.map((x) => x.nonce),
      [0],
      'exactly one transaction from the validator: the stake the killed run signed',
    )
    assert.equal(await status(v.address), 1) // Staked
    // and a third run sends nothing
    const third = await spawnCli(args, { TN_PRIVATE_KEY: v.privateKey, TN_DEVNET_RELAXED: '1' }).result
    assert.equal(third.code, 0, third.stderr)
    assert.equal((await minedFrom(t.anvil, v.address)).length, 1)
  })

  it('delegation stake', async () => {
    const v = t.accounts[1] as TestAccount
    const d = t.accounts[2] as TestAccount
    await t.mint(v.address)
    const dir = await keysFor(v, 'delegated')
    const file = join(t.datadir, 'delegation.json')
    const signed = await runCli(
      ['delegation', 'sign', '--delegator', d.address, '--datadir', dir, '--out', file, '--rpc-url', t.url],
      { env: { TN_PRIVATE_KEY: v.privateKey, TN_DEVNET_RELAXED: '1' } },
    )
    assert.equal(signed.code, 0, signed.stderr)
    await killAtSendThenRerun(['delegation', 'stake', '--signature', file, ...chainArgs(), '--yes'], d.privateKey)
    assert.deepEqual(
      (await minedFrom(t.anvil, d.address)).map((x) => x.nonce),
      [0],
      'exactly one delegateStake from the delegator',
    )
    assert.equal(await status(v.address), 1)
  })

  it('unstake', async () => {
    const v = t.accounts[3] as TestAccount
    await t.mint(v.address)
    const dir = await keysFor(v, 'unstake')
    const staked = await runCli(['stake', '--rpc-url', t.url, '--datadir', dir, '--yes'], {
      env: { TN_PRIVATE_KEY: v.privateKey, TN_DEVNET_RELAXED: '1' },
    })
    assert.equal(staked.code, 0, staked.stderr)
    await killAtSendThenRerun(['unstake', ...chainArgs(), '--yes'], v.privateKey)
    assert.deepEqual(
      (await minedFrom(t.anvil, v.address)).map((x) => x.nonce),
      [0, 1],
      'the stake and exactly one unstake',
    )
  })
})
