/**
 * trimEngineState on states shaped as anvil 1.7.1 writes them (src/devnet/chain/engine-compaction.ts
 * names the fields; test/devnet-chain/compaction.test.ts runs it on anvil's own files): the latest
 * blocks, block 0 and the named blocks are kept with their transactions, historical states are
 * dropped, everything else is carried as it was, and a state of another shape is refused unchanged.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { EngineStateFormatError, trimEngineState } from '../../src/devnet/chain/engine-compaction.js'
import { parseNodeArgs } from '../../src/devnet/node/node-args.js'

const hex = (n: number) => `0x${n.toString(16)}`

/** A state with blocks 0..latest (listed out of order, as anvil does) and a transaction in every third block. */
function state(latest: number) {
  const numbers = Array.from({ length: latest + 1 }, (_, i) => i).reverse()
  return {
    block: { number: hex(latest + 1), timestamp: '0x6b0b6426' },
    accounts: { '0x0000000000000000000000000000000000000001': { nonce: 3, balance: '0x1', code: '0x', storage: {} } },
    best_block_number: latest,
    blocks: numbers.map((n) => ({ header: { number: hex(n) }, transactions: [], ommers: [] })),
    transactions: numbers
      .filter((n) => n % 3 === 0)
      .map((n) => ({ info: { transaction_hash: `0x${n}` }, block_hash: `0x${n}`, block_number: n })),
    historical_states: { anything: true },
  }
}

const blockNumbers = (s: { blocks: { header: { number: string } }[] }) =>
  s.blocks.map((b) => Number(b.header.number)).sort((a, b) => a - b)

describe('trimEngineState', () => {
  it('keeps the latest blocks, block 0 and the named ones, with their transactions', () => {
    const s = state(30)
    const { accounts, block } = s
    const r = trimEngineState(s, { keepRecent: 5, keep: [12n, 13n] })
    assert.deepEqual(blockNumbers(s), [0, 12, 13, 26, 27, 28, 29, 30])
    assert.deepEqual(
      s.transactions.map((t) => t.block_number).sort((a, b) => a - b),
      [0, 12, 27, 30],
    )
    assert.equal(s.historical_states, null)
    assert.equal(s.accounts, accounts)
    assert.equal(s.block, block)
    assert.equal(s.best_block_number, 30)
    assert.deepEqual(
      { ...r, state: undefined },
      {
        state: undefined,
        latest: 30n,
        blocksBefore: 31,
        blocksAfter: 8,
        transactionsBefore: 11,
        transactionsAfter: 4,
      },
    )
  })

  it('reads the latest block number in hex or decimal', () => {
    const s = { ...state(10), best_block_number: '0xa' }
    trimEngineState(s, { keepRecent: 2 })
    assert.deepEqual(blockNumbers(s), [0, 9, 10])
  })

  it('keeps every block of a chain shorter than the history', () => {
    const s = state(3)
    trimEngineState(s, { keepRecent: 256 })
    assert.deepEqual(blockNumbers(s), [0, 1, 2, 3])
  })

  it('refuses a state of another shape and leaves it as it was', () => {
    for (const bad of [
      null,
      [],
      { ...state(3), blocks: null },
      { ...state(3), transactions: {} },
      { ...state(3), best_block_number: 'latest' },
      { ...state(3), blocks: [{ header: { number: 'x' } }] },
      { ...state(3), transactions: [{ block_number: -1 }] },
    ]) {
      const copy = structuredClone(bad)
      assert.throws(() => trimEngineState(bad, { keepRecent: 1 }), EngineStateFormatError)
      assert.deepEqual(bad, copy)
    }
  })
})

describe('--devnet.history-blocks', () => {
  it('takes at least 256 blocks', () => {
    assert.equal(parseNodeArgs(['--devnet.history-blocks', '256'], '/tmp/x').historyBlocks, 256)
    assert.equal(parseNodeArgs([], '/tmp/x').historyBlocks, undefined)
    assert.throws(() => parseNodeArgs(['--devnet.history-blocks', '255'], '/tmp/x'), /--devnet\.history-blocks/)
  })
})
