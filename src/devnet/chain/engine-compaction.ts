/**
 * What bounds the devnet engine's memory however long the devnet runs: compaction.
 *
 * anvil keeps every block it has made (header, hash, transactions, receipts, call traces) and
 * never drops one, so a devnet grows about 10 KB a block, idle blocks included
 * (./engine-memory.ts, docs/devnet-chain.md "The engine's memory"). When the engine holds more
 * than twice its block history (`historyBlocks`), the devnet compacts it, inside the epoch
 * clock's lock (no epoch close, idle block or governance call in between, ./start.ts):
 * transactions accepted and not mined yet are mined, anvil is stopped (it writes its state file
 * on SIGTERM; its transaction pool is not saved, so a transaction waiting for an earlier nonce
 * is dropped), the file's block and transaction
 * history is trimmed to the last `historyBlocks` blocks (`trimEngineState`), and anvil is
 * started again on it, on the same IPC socket. Accounts, code, storage, nonces, the latest
 * block's number, hash and timestamp are the state's own, so the chain carries on where it was;
 * a trimmed block, its transactions and receipts are gone (null, as on a pruned node).
 *
 * anvil 1.7.1's state (`--state` file, `anvil_dumpState`), checked by experiment: `block` (the
 * pending block's environment), `accounts`, `best_block_number`, `blocks` (every block, with
 * `header.number` in hex, in no particular order), `transactions` (each with `block_number`,
 * its receipt and traces) and `historical_states` (null with `--prune-history`). A state with
 * blocks missing loads (a block number that is not there reads as null) and mines on from
 * `best_block_number` with the right parent hash.
 *
 * Blocks kept besides the recent ones: the genesis block, and the blocks the caller names (the
 * epoch clock reads the block before the current epoch's first block for the epoch's start
 * time, ./epoch-clock.ts; `tnv node upgrade` reads the first block).
 */

/** Blocks the engine keeps after a compaction, by default (it compacts at twice as many). */
export const DEFAULT_ENGINE_HISTORY_BLOCKS = 5_000
/**
 * The fewest blocks a compaction keeps: the EVM's BLOCKHASH reaches 256 blocks back, and the
 * step runner reads a transaction's receipt right after it is mined.
 */
export const MIN_ENGINE_HISTORY_BLOCKS = 256

/** The parts of anvil's state file compaction reads and changes; the rest is carried as is. */
type AnvilState = {
  best_block_number?: unknown
  blocks?: unknown
  transactions?: unknown
  historical_states?: unknown
  [field: string]: unknown
}
type StateBlock = { header?: { number?: unknown } }
type StateTransaction = { block_number?: unknown }

export type TrimEngineStateParameters = {
  /** How many of the latest blocks to keep (the latest included). */
  keepRecent: number
  /** Older blocks to keep as well. */
  keep?: readonly bigint[]
}

export type TrimEngineStateReturnType = {
  /** The trimmed state (the same object, changed). */
  state: Record<string, unknown>
  latest: bigint
  blocksBefore: number
  blocksAfter: number
  transactionsBefore: number
  transactionsAfter: number
}

/** The state is not what anvil 1.7.1 writes: nothing is trimmed. */
export class EngineStateFormatError extends Error {}

/**
 * Trims anvil's state to its latest `keepRecent` blocks (plus `keep`), with the transactions of
 * the blocks kept, and drops its historical states.
 * @example const { state } = trimEngineState(JSON.parse(text), { keepRecent: 5000, keep: [0n] })
 */
export function trimEngineState(state: unknown, params: TrimEngineStateParameters): TrimEngineStateReturnType {
  if (typeof state !== 'object' || state === null || Array.isArray(state))
    throw new EngineStateFormatError('the state is not a JSON object')
  const s = state as AnvilState
  if (!Array.isArray(s.blocks)) throw new EngineStateFormatError('the state has no blocks list')
  const transactions = s.transactions ?? []
  if (!Array.isArray(transactions)) throw new EngineStateFormatError('the state has no transactions list')
  const latest = bigintOf(s.best_block_number, 'best_block_number')
  const floor = latest - BigInt(params.keepRecent) + 1n
  const keep = new Set((params.keep ?? []).map((n) => n.toString()))
  const kept = (n: bigint) => n >= floor || n === 0n || keep.has(n.toString())
  const blocks = (s.blocks as StateBlock[]).filter((b) => kept(bigintOf(b?.header?.number, 'a block number')))
  const keptNumbers = new Set(blocks.map((b) => bigintOf(b.header?.number, 'a block number').toString()))
  const txs = (transactions as StateTransaction[]).filter((t) =>
    keptNumbers.has(bigintOf(t?.block_number, 'a transaction block number').toString()),
  )
  const out = {
    state: s,
    latest,
    blocksBefore: s.blocks.length,
    blocksAfter: blocks.length,
    transactionsBefore: transactions.length,
    transactionsAfter: txs.length,
  }
  s.blocks = blocks
  s.transactions = txs
  s.historical_states = null
  return out
}

function bigintOf(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value)
  throw new EngineStateFormatError(`${what} is ${JSON.stringify(value)}, not a block number`)
}
