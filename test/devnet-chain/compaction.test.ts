/**
 * Compaction (src/devnet/chain/engine-compaction.ts): a devnet with the smallest block history
 * restarts its engine on a trimmed state when it holds twice as many blocks, and the chain goes
 * on where it was: the same block numbers, balances, nonces and registry, a new anvil process,
 * old blocks gone (null), recent ones and their receipts kept, the engine never reported dead,
 * and the trimmed chain resumes after a stop. A fork (of a local chain) compacts the same way.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createWalletClient, type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { MIN_ENGINE_HISTORY_BLOCKS } from '../../src/devnet/chain/engine-compaction.js'
import { type EngineCompactionResult, startGenesisEngine } from '../../src/devnet/chain/genesis-engine.js'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import { tempDir } from '../helpers/cli.js'
import { engineClient, engineTransportOf, startTestDevnet, type TestDevnet } from './helpers.js'

const HISTORY = MIN_ENGINE_HISTORY_BLOCKS
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('engine compaction', { timeout: 180_000 }, () => {
  let t: TestDevnet
  const compactions: EngineCompactionResult[] = []
  const errors: Error[] = []
  let died = false

  before(async () => {
    t = await startTestDevnet({
      engineHistoryBlocks: HISTORY,
      onEngineCompacted: (r) => compactions.push(r),
      onProtocolError: (e) => errors.push(e),
    })
    t.chain.onEngineExit(() => {
      died = true
    })
  })
  after(async () => {
    await t?.close()
  })

  async function until(signal: AbortSignal, what: string, done: () => boolean): Promise<void> {
    while (!done()) {
      if (died) throw new Error(`the engine died while waiting for ${what}`)
      signal.throwIfAborted()
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  async function transfer(to: Hex): Promise<{ hash: Hex; block: bigint; from: Hex }> {
    const account = await t.newAccount(10n)
    const wallet = createWalletClient({
      account: privateKeyToAccount(account.privateKey),
      transport: engineTransportOf(t.chain),
    })
    const hash = await wallet.sendTransaction({ chain: null, to, value: parseEther('1') })
    const receipt = await engineReceipt(engineClient(t.chain), hash)
    assert.equal(receipt.status, 'success')
    return { hash, block: receipt.blockNumber, from: account.address }
  }

  it('compacts twice as the chain grows, and the chain carries on', async (ctx) => {
    const client = engineClient(t.chain)
    const firstPid = t.chain.enginePid
    const early = await transfer('0x000000000000000000000000000000000000bEEF')
    const epochBefore = await t.chain.position()

    // the engine holds blocks 0 to 2 × HISTORY + 1: more than twice its history after block 0
    const start = await client.getBlockNumber()
    await t.chain.mine(2 * HISTORY + 1 - Number(start))
    await until(ctx.signal, 'the first compaction', () => compactions.length >= 1)
    const first = compactions[0] as EngineCompactionResult
    const latest = await client.getBlockNumber()
    assert.equal(latest, first.latest, 'the chain goes on at the block it had')
    assert.ok(
      first.blocksBefore > 2 * HISTORY && first.blocksAfter <= HISTORY + 3,
      `${first.blocksBefore} → ${first.blocksAfter}`,
    )
    assert.equal(t.chain.enginePid, first.pid)
    assert.notEqual(first.pid, firstPid)
    assert.ok(!alive(firstPid), 'the first anvil is gone')

    // old blocks and receipts are gone, recent ones and the genesis block stay
    assert.equal(await client.request({ method: 'eth_getBlockByNumber', params: ['0x5', false] }), null)
    assert.equal(await client.request({ method: 'eth_getTransactionReceipt', params: [early.hash] }), null)
    assert.ok((await client.getBlock({ blockNumber: 0n })).hash)
    assert.ok((await client.getBlock({ blockNumber: latest - BigInt(HISTORY) + 1n })).hash)
    // the state is the chain's: balances, nonces and the registry as they were
    assert.equal(await client.getBalance({ address: '0x000000000000000000000000000000000000bEEF' }), parseEther('1'))
    assert.equal(await client.getTransactionCount({ address: early.from }), 1)
    const epochAfter = await t.chain.position()
    assert.equal(epochAfter.epoch, epochBefore.epoch)
    assert.equal(epochAfter.startTimestamp, epochBefore.startTimestamp)

    // the chain mines on with the right parent, and an epoch closes
    const recent = await transfer('0x000000000000000000000000000000000000cafe')
    assert.equal(recent.block, latest + 1n)
    const parent = await client.getBlock({ blockNumber: latest })
    assert.equal((await client.getBlock({ blockNumber: recent.block })).parentHash, parent.hash)
    const closed = await t.chain.advanceEpoch()
    assert.equal(closed.epoch, epochBefore.epoch + 1)

    // a second compaction once the chain has grown by HISTORY blocks again; a receipt just mined is kept
    await t.chain.mine(HISTORY)
    const late = await transfer('0x000000000000000000000000000000000000f00d')
    await until(ctx.signal, 'the second compaction', () => compactions.length >= 2)
    const second = compactions[1] as EngineCompactionResult
    assert.notEqual(second.pid, first.pid)
    assert.equal((await client.getTransactionReceipt({ hash: late.hash })).blockNumber, late.block)
    assert.equal(await client.request({ method: 'eth_getTransactionReceipt', params: [recent.hash] }), null)
    assert.equal((await t.chain.position()).epoch, closed.epoch)
    assert.deepEqual(errors, [])
    assert.equal(died, false)
  })

  it('the trimmed chain resumes after a stop at the block it had', async () => {
    const client = engineClient(t.chain)
    const latest = await client.getBlockNumber()
    await t.chain.stop()
    const resumed = await startDevnetChain({ datadir: t.datadir, blockTime: 0, protocolLoop: false })
    try {
      const again = engineClient(resumed)
      assert.equal(await again.getBlockNumber(), latest)
      assert.equal(await again.request({ method: 'eth_getBlockByNumber', params: ['0x5', false] }), null)
      await resumed.mine(1)
      assert.equal(await again.getBlockNumber({ cacheTime: 0 }), latest + 1n)
    } finally {
      await resumed.stop()
    }
  })
})

describe('engine compaction of a fork', { timeout: 180_000 }, () => {
  const tmp = tempDir('tnv-compact-fork-')
  after(() => tmp.cleanup())

  it('a fork of a local chain compacts and carries on, the registry still read through the fork', async (ctx) => {
    const upstream = await startGenesisEngine({ genesis: 'next', dir: `${tmp.dir}/upstream` })
    const compactions: EngineCompactionResult[] = []
    const errors: Error[] = []
    const fork = await startDevnetChain({
      datadir: `${tmp.dir}/fork`,
      source: { kind: 'fork', url: upstream.httpUrl },
      blockTime: 0,
      protocolLoop: false,
      engineHistoryBlocks: HISTORY,
      onEngineCompacted: (r) => compactions.push(r),
      onProtocolError: (e) => errors.push(e),
    })
    try {
      const client = engineClient(fork)
      const owner = await fork.owner()
      const start = await client.getBlockNumber()
      await fork.mine(2 * HISTORY + 1)
      while (compactions.length === 0) {
        ctx.signal.throwIfAborted()
        assert.deepEqual(errors, [])
        await new Promise((r) => setTimeout(r, 50))
      }
      assert.equal(await client.getBlockNumber({ cacheTime: 0 }), start + BigInt(2 * HISTORY + 1))
      assert.equal(await fork.owner(), owner)
      await fork.advanceEpoch()
      await fork.mine(1)
      assert.equal(await client.getBlockNumber({ cacheTime: 0 }), start + BigInt(2 * HISTORY + 3))
      assert.deepEqual(errors, [])
    } finally {
      await fork.stop()
      await upstream.stop()
    }
  })
})
