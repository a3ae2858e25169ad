/**
 * The anvil options that keep a long-running engine's memory bounded (measured with
 * bench/devnet-soak.bench.ts; figures in docs/reliability.md).
 *
 * anvil keeps a full copy of the chain state for every recent block (the state a call at that
 * block runs on), and each copy also holds the hash of every block so far. By default it keeps
 * 500 of them in memory and then writes the older ones to disk (up to 3,600 files in its
 * temporary directory), so memory and disk grow with every block, idle blocks included.
 * `--prune-history N` keeps the states of the last N blocks in memory only and writes none to
 * disk. Each kept state costs memory in proportion to the chain's length (it holds every block
 * hash), so N is small: 16 (64 kept twice the memory growth per block, measured). What tnv
 * needs stays readable: `latest`, `pending`, and the state at the block of a receipt and the
 * block before (a mined revert is replayed there right after its receipt,
 * src/lib/registry/submit.ts). A call at a block more than 16 back (anvil's `safe` and
 * `finalized` are 32 and 64 back) is refused by the engine ("block out of range"); blocks,
 * headers and receipts of every block stay readable.
 *
 * Every receipt is kept (no `--transaction-block-keeper`): the step runner decides that a
 * journaled transaction was dropped when the chain has no receipt for it and its nonce is used,
 * so a pruned receipt would turn a mined transaction into a "dropped" one.
 *
 * What still grows is anvil's own record of every block, which it never drops: the block and its
 * hash in the chain's maps, the hash again in each kept state, and for a block with transactions
 * the transactions, receipts and call traces (docs/devnet-chain.md, "The engine's memory", has the
 * per-block figures). The released anvil allocates with jemalloc, which by default keeps freed
 * pages for 10 s (dirty) and longer (muzzy) before it returns them; with a block a second, every
 * block's transient copies stay resident. ENGINE_ALLOCATOR_ENV returns them at once.
 */

/** How many recent blocks' states the engine keeps. */
export const ENGINE_STATE_HISTORY = 16

/** The options, always on for the devnet's engine. */
export const ENGINE_MEMORY_ARGS: readonly string[] = ['--prune-history', String(ENGINE_STATE_HISTORY)]

/**
 * jemalloc's options for the engine (the released anvil links tikv-jemallocator, which reads
 * `_RJEM_MALLOC_CONF`): freed pages go back to the system at once instead of after 10 s.
 */
export const ENGINE_ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  _RJEM_MALLOC_CONF: 'dirty_decay_ms:0,muzzy_decay_ms:0',
}
