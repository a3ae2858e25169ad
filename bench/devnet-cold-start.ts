/**
 * Helper of devnet.bench.ts: a fresh process that starts the devnet chain in argv[2] from
 * nothing and prints one JSON line: { importedAtMs, readyAtMs } in milliseconds since this
 * process began (so Node's own start-up and module loading count), then stops it.
 */
const datadir = process.argv[2]
if (!datadir) throw new Error('usage: devnet-cold-start.ts <datadir>')
const { startDevnetChain } = await import('../src/devnet/chain/start.js')
const importedAtMs = performance.now()
const chain = await startDevnetChain({ datadir, blockTime: 0 })
const readyAtMs = performance.now()
await chain.stop()
process.stdout.write(`${JSON.stringify({ importedAtMs, readyAtMs })}\n`)
