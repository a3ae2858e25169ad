/**
 * The reference node's command line, the same as the real binary's: `tnv-node node <flags>`
 * (bin/tnv-node.js), so the node driver starts either with one argument list. Logs go to
 * stdout in the node's format; SIGINT/SIGTERM stop it cleanly with the chain saved; if the
 * engine dies the node exits non-zero.
 *
 * `main` is run by bin/tnv-node.js and by the single executable's reference-node mode
 * (src/entries/sea.ts).
 */

import { NodeStartRefusedError } from '../devnet/node/errors.js'
import { createNodeLogger } from '../devnet/node/log.js'
import { CLIENT_VERSION, type RunningReferenceNode, startReferenceNode } from '../devnet/node/start-node.js'
import { TnvError } from '../lib/errors.js'

const USAGE = `${CLIENT_VERSION}: the tnv reference node (the devnet chain behind the node's JSON-RPC server)

Usage: tnv-node node [--datadir <dir>] [--chain dev] [RPC flags] [--workers N]

  --datadir <dir>            the node's data directory; with --chain dev the devnet lives here
  --chain dev                run a devnet chain of this node's own in --datadir (default)
  --chain devnet             join the devnet \`tnv devnet start\` runs ($TNV_DEVNET_DIR or the default dir)
                             (adiri/testnet need the real telcoin-network binary)
  --http --http.addr --http.port --http.api --http.corsdomain
  --ws --ws.addr --ws.port --ws.api --ws.origins
  --ipcpath <path> | --ipcdisable
  --rpc.jwtsecret --rpc.gascap --rpc.max-blocks-per-filter --rpc.max-logs-per-response
  --rpc.max-trace-filter-blocks --rpc.max-tracing-requests --rpc.max-response-size
  --rpc.max-connections --rpc.max-request-size --rpc.max-subscriptions-per-connection
  --workers N                one RPC server set per worker
  --devnet.genesis G         adiri, next or a genesis.yaml path (default: the embedded devnet)
  --devnet.fork-url URL      fork a live chain ($TNV_DEVNET_FORK_URL keeps it off the process list)
  --devnet.fork-block N      the block to fork at (default: the latest)
  --devnet.chain-id ID       the rehearsal chain id (default 911329), or \`genesis\`
  --devnet.epoch-seconds S   REHEARSAL setting: epoch length instead of the registry's epochDuration
  --devnet.block-time S      seconds without a block before an idle block, 0 = none
  --devnet.history-blocks N  blocks the engine keeps (default 5000, at least 256); at twice as
                             many it is compacted (restarted with older blocks dropped)
                             (--devnet.* flags: reference node only)

See docs/devnet.md.
`

/** A second SIGINT/SIGTERM this long after the first forces the exit. */
const FORCE_AFTER_MS = 3000

function describe(err: unknown): string {
  if (err instanceof TnvError) return err.render().replace(/\n\s*/g, ' | ')
  return err instanceof Error ? err.message : String(err)
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...flags] = argv
  if (command === '--version' || command === '-V') {
    process.stdout.write(`${CLIENT_VERSION}\n`)
    return
  }
  if (
    command === undefined ||
    command === '--help' ||
    command === '-h' ||
    command === 'help' ||
    flags.includes('--help')
  ) {
    process.stdout.write(USAGE)
    if (command === undefined) process.exitCode = 2
    return
  }
  const log = createNodeLogger()
  if (command !== 'node') {
    log.error(`unknown command ${JSON.stringify(command)}: the reference node runs only \`node\``, {
      usage: 'tnv-node node --help',
    })
    process.exitCode = 2
    return
  }
  let node: RunningReferenceNode
  try {
    node = await startReferenceNode(flags, log)
  } catch (err) {
    // the plan's errors are already logged one per line
    if (err instanceof NodeStartRefusedError)
      log.error('the RPC server refuses to start with these flags (errors above)')
    else log.error(`the node did not start: ${describe(err)}`)
    process.exitCode = err instanceof TnvError ? err.exitCode : 1
    return
  }
  let firstSignalAt = 0
  const shutdown = (signal: NodeJS.Signals) => {
    if (firstSignalAt > 0) {
      // Ctrl-C in a terminal reaches both `tnv devnet start` and the node, which passes it on:
      // the same stop arriving twice at once is not a request to force.
      if (Date.now() - firstSignalAt < FORCE_AFTER_MS) return
      log.error('second signal: exiting now (the engine saves its state on its own)', { signal })
      process.exit(1)
    }
    firstSignalAt = Date.now()
    log.info('shutting down', { signal })
    node.stop().then(
      () => {
        log.info('node stopped; the chain is saved', { datadir: node.datadir })
        process.exit(0)
      },
      (err) => {
        log.error(`shutdown failed: ${describe(err)}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
  process.on('uncaughtException', (err) => {
    log.error(`unexpected failure: ${describe(err)}`)
    void node.stop().finally(() => process.exit(1))
  })
  void node.failed.then((code) => process.exit(code))
}
