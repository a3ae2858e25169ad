/**
 * The command line of `telcoin-network node` as the released node parses it (clap), read from
 * its source (real-network/node.md §4): Telcoin-Association/telcoin-network `node.rs`,
 * `cli.rs`, `crates/tn-reth/src/{cli.rs,rpc_server_args.rs}` at b9a74a00 (= v0.14.0-adiri for
 * these), and the reth v1.11.3 argument groups it flattens in (`LogArgs`, `TxPoolArgs`,
 * `DatabaseArgs`, `RpcStateCacheArgs`). Used to check every node command line tnv builds or
 * forwards (`tnv node start`, the wizard, `tnv rpc plan`): a flag the node does not know stops
 * it at argument parsing ("unexpected argument"), and `--chain` takes only its three values.
 *
 * Pure: no I/O.
 */

/** How clap takes a flag: `switch` no value, `value` exactly one, `count` repeatable without value. */
export type FlagKind = 'switch' | 'value' | 'count'

/** Every long flag of `telcoin-network node` (global flags of the binary included), with its aliases. */
export const RELEASED_NODE_FLAGS: Readonly<Record<string, FlagKind>> = {
  // binary-wide (cli.rs, reth LogArgs)
  '--bls-passphrase-source': 'value',
  '--datadir': 'value',
  '--log.stdout.format': 'value',
  '--log.stdout.filter': 'value',
  '--log.file.format': 'value',
  '--log.file.filter': 'value',
  '--log.file.directory': 'value',
  '--log.file.name': 'value',
  '--log.file.max-size': 'value',
  '--log.file.max-files': 'value',
  '--log.journald': 'switch',
  '--log.journald.filter': 'value',
  '--log.samply': 'switch',
  '--log.samply.filter': 'value',
  '--log.tracy': 'switch',
  '--log.tracy.filter': 'value',
  '--color': 'value',
  '--verbosity': 'count',
  '--quiet': 'switch',
  '--silent': 'switch',
  // node.rs
  '--chain': 'value',
  '--metrics': 'value',
  '--instance': 'value',
  '--observer': 'switch',
  '--enable-state-export': 'switch',
  '--with-unused-ports': 'switch',
  '--healthcheck': 'value',
  '--node-name': 'value',
  '--tracing-url': 'value',
  // tn-reth rpc_server_args.rs
  '--http': 'switch',
  '--http.addr': 'value',
  '--http.port': 'value',
  '--http.disable-compression': 'switch',
  '--http.api': 'value',
  '--http.corsdomain': 'value',
  '--ws': 'switch',
  '--ws.addr': 'value',
  '--ws.port': 'value',
  '--ws.origins': 'value',
  '--ws.corsdomain': 'value',
  '--ws.api': 'value',
  '--ipcdisable': 'switch',
  '--ipcpath': 'value',
  '--rpc.jwtsecret': 'value',
  '--rpc.max-request-size': 'value',
  '--rpc-max-request-size': 'value',
  '--rpc.max-response-size': 'value',
  '--rpc-max-response-size': 'value',
  '--rpc.returndata.limit': 'value',
  '--rpc.max-subscriptions-per-connection': 'value',
  '--rpc-max-subscriptions-per-connection': 'value',
  '--rpc.max-connections': 'value',
  '--rpc-max-connections': 'value',
  '--rpc.max-tracing-requests': 'value',
  '--rpc-max-tracing-requests': 'value',
  '--rpc.max-trace-filter-blocks': 'value',
  '--rpc-max-trace-filter-blocks': 'value',
  '--rpc.max-blocks-per-filter': 'value',
  '--rpc-max-blocks-per-filter': 'value',
  '--rpc.max-logs-per-response': 'value',
  '--rpc-max-logs-per-response': 'value',
  '--rpc.gascap': 'value',
  '--rpc-gascap': 'value',
  '--rpc.txfeecap': 'value',
  '--rpc-txfeecap': 'value',
  '--rpc.max-simulate-blocks': 'value',
  '--rpc.eth-proof-window': 'value',
  '--rpc.proof-permits': 'value',
  '--rpc-proof-permits': 'value',
  '--rpc-cache.max-blocks': 'value',
  '--rpc-cache.max-receipts': 'value',
  '--rpc-cache.max-headers': 'value',
  '--rpc-cache.max-envs': 'value',
  '--rpc-cache.max-concurrent-db-requests': 'value',
  '--rpc-cache.max-cached-tx-hashes': 'value',
  // reth TxPoolArgs
  '--txpool.pending-max-count': 'value',
  '--txpool.pending_max_count': 'value',
  '--txpool.pending-max-size': 'value',
  '--txpool.pending_max_size': 'value',
  '--txpool.basefee-max-count': 'value',
  '--txpool.basefee_max_count': 'value',
  '--txpool.basefee-max-size': 'value',
  '--txpool.basefee_max_size': 'value',
  '--txpool.queued-max-count': 'value',
  '--txpool.queued_max_count': 'value',
  '--txpool.queued-max-size': 'value',
  '--txpool.queued_max_size': 'value',
  '--txpool.blobpool-max-count': 'value',
  '--txpool.blobpool_max_count': 'value',
  '--txpool.blobpool-max-size': 'value',
  '--txpool.blobpool_max_size': 'value',
  '--txpool.blob-cache-size': 'value',
  '--txpool.blob_cache_size': 'value',
  '--txpool.disable-blobs-support': 'switch',
  '--txpool.disable_blobs_support': 'switch',
  '--txpool.max-account-slots': 'value',
  '--txpool.max_account_slots': 'value',
  '--txpool.pricebump': 'value',
  '--txpool.minimal-protocol-fee': 'value',
  '--txpool.minimum-priority-fee': 'value',
  '--txpool.gas-limit': 'value',
  '--txpool.max-tx-gas': 'value',
  '--blobpool.pricebump': 'value',
  '--txpool.max-tx-input-bytes': 'value',
  '--txpool.max_tx_input_bytes': 'value',
  '--txpool.max-cached-entries': 'value',
  '--txpool.max_cached_entries': 'value',
  '--txpool.nolocals': 'switch',
  '--txpool.locals': 'value',
  '--txpool.no-local-transactions-propagation': 'switch',
  '--txpool.additional-validation-tasks': 'value',
  '--txpool.additional_validation_tasks': 'value',
  '--txpool.max-pending-txns': 'value',
  '--txpool.max_pending_txns': 'value',
  '--txpool.max-new-txns': 'value',
  '--txpool.max_new_txns': 'value',
  '--txpool.max-new-pending-txs-notifications': 'value',
  '--txpool.lifetime': 'value',
  '--txpool.transactions-backup': 'value',
  '--txpool.journal': 'value',
  '--txpool.disable-transactions-backup': 'switch',
  '--txpool.disable-journal': 'switch',
  '--txpool.max-batch-size': 'value',
  // reth DatabaseArgs
  '--db.log-level': 'value',
  '--db.exclusive': 'value',
  '--db.max-size': 'value',
  '--db.page-size': 'value',
  '--db.growth-step': 'value',
  '--db.read-transaction-timeout': 'value',
  '--db.max-readers': 'value',
  '--db.sync-mode': 'value',
}

/**
 * The node's `--chain` values: clap `ValueEnum` of `Adiri`, `TestNet`, `MainNet` without a
 * rename, so kebab-case (real-network/node.md §4, inferred from clap's rule). `adiri` and
 * `test-net` load the embedded test network (chain id 2017), `main-net` mainnet (487).
 */
export const NODE_CHAIN_VALUES = ['adiri', 'test-net', 'main-net'] as const
export type NodeChainValue = (typeof NODE_CHAIN_VALUES)[number]

/** Values people write that the node refuses, and the value to write instead. */
const CHAIN_SPELLINGS: Readonly<Record<string, NodeChainValue>> = {
  testnet: 'adiri',
  test_net: 'adiri',
  adiri_testnet: 'adiri',
  mainnet: 'main-net',
  main_net: 'main-net',
}

/** Which command line: the released node, the specification's release (adds `--workers`), or tnv's reference node (adds its devnet flags). */
export type NodeCommandLine = 'released' | 'spec' | 'reference'

/** The reference node's own additions (src/devnet/node/node-args.ts). */
const REFERENCE_EXTRA_FLAGS: Readonly<Record<string, FlagKind>> = {
  '--workers': 'value',
  '--devnet.genesis': 'value',
  '--devnet.fork-url': 'value',
  '--devnet.fork-block': 'value',
  '--devnet.chain-id': 'value',
  '--devnet.epoch-seconds': 'value',
  '--devnet.block-time': 'value',
  '--devnet.history-blocks': 'value',
}
const REFERENCE_CHAINS = ['dev', 'devnet']

function kindOf(name: string, line: NodeCommandLine): FlagKind | undefined {
  if (Object.hasOwn(RELEASED_NODE_FLAGS, name)) return RELEASED_NODE_FLAGS[name]
  if (line === 'spec' && name === '--workers') return 'value'
  if (line === 'reference' && Object.hasOwn(REFERENCE_EXTRA_FLAGS, name)) return REFERENCE_EXTRA_FLAGS[name]
  return undefined
}

/**
 * Checks a node argument list (what follows `node`) against the command line the node parses:
 * unknown flags, positional arguments and `--chain` values. The values of known flags are not
 * checked here (the RPC resolver checks the RPC ones).
 * @returns one message per problem; empty when the node accepts the list
 * @example checkNodeCommandLine(['--chain', 'testnet', '--workers', '2'], 'released')
 * // ['--chain testnet: …write --chain adiri…', '--workers: the released node has no such flag …']
 */
export function checkNodeCommandLine(argv: readonly string[], line: NodeCommandLine): string[] {
  const errors: string[] = []
  const who =
    line === 'released'
      ? 'the released node (v0.14.0-adiri and main)'
      : line === 'spec'
        ? "the specification's release"
        : "tnv's reference node"
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string
    if (token === '--') {
      if (i + 1 < argv.length)
        errors.push(`${argv.slice(i + 1).join(' ')}: ${who} takes no positional arguments (clap: unexpected argument).`)
      break
    }
    if (/^-v+$/.test(token) || token === '-q') continue
    if (!token.startsWith('--')) {
      errors.push(
        token.startsWith('-')
          ? `${token}: not a flag of ${who} (its short flags are -v… and -q).`
          : `${token}: ${who} takes no positional arguments; every node option is a flag (clap: unexpected argument '${token}').`,
      )
      continue
    }
    const eq = token.indexOf('=')
    const name = eq === -1 ? token : token.slice(0, eq)
    const inline = eq === -1 ? undefined : token.slice(eq + 1)
    const kind = kindOf(name, line)
    if (kind === undefined) {
      errors.push(unknownFlagMessage(name, who, line))
      // skip a value that obviously belongs to the unknown flag
      const next = argv[i + 1]
      if (inline === undefined && next !== undefined && !next.startsWith('-')) i++
      continue
    }
    if (kind !== 'value') continue
    let value = inline
    if (value === undefined) {
      const next = argv[i + 1]
      if (next === undefined || (next.startsWith('-') && !/^-\d/.test(next))) continue // the RPC resolver reports it
      value = next
      i++
    }
    if (name === '--chain') {
      const chainError = checkChainValue(value, line)
      if (chainError) errors.push(chainError)
    }
  }
  return errors
}

function unknownFlagMessage(name: string, who: string, line: NodeCommandLine): string {
  if (name === '--workers')
    return `--workers: ${who} has no such flag (clap: unexpected argument '--workers' found). Several workers, and an RPC server per worker, exist only in the specification's release; the released node runs one worker.`
  if (name === '--ipc.api')
    return `--ipc.api: ${who} has no such flag (clap: unexpected argument '--ipc.api' found); IPC's namespaces are not configurable.`
  const near = suggestFlag(name, line)
  // the same words for both releases: the specification's command line is the released one plus --workers
  const whose = line === 'reference' ? who : 'the node (neither release has it)'
  return `${name}: not a flag of ${whose}; it stops at argument parsing (clap: unexpected argument '${name}' found).${near ? ` Did you mean ${near}?` : ''}`
}

/** A `--chain` value the node would refuse, with the value to write; null when accepted. */
export function checkChainValue(value: string, line: NodeCommandLine): string | null {
  if ((NODE_CHAIN_VALUES as readonly string[]).includes(value)) return null
  if (line === 'reference' && REFERENCE_CHAINS.includes(value)) return null
  const instead =
    CHAIN_SPELLINGS[value.toLowerCase()] ??
    (NODE_CHAIN_VALUES as readonly string[]).find((v) => v === value.toLowerCase())
  return `--chain ${value}: the node takes ${NODE_CHAIN_VALUES.join(', ')}${line === 'reference' ? ` (tnv's reference node also ${REFERENCE_CHAINS.join(', ')})` : ''} and stops on any other value (clap: invalid value '${value}' for '--chain <NAMED_TN_NETWORK>').${instead ? ` Write --chain ${instead}.` : ''}`
}

/** The closest known flag (one edit, or the same letters in another order), for a typo. */
function suggestFlag(name: string, line: NodeCommandLine): string | null {
  const known = [
    ...Object.keys(RELEASED_NODE_FLAGS),
    ...(line === 'reference' ? Object.keys(REFERENCE_EXTRA_FLAGS) : line === 'spec' ? ['--workers'] : []),
  ]
  let best: { flag: string; d: number } | null = null
  for (const flag of known) {
    const d = distance(name, flag)
    if (d <= 2 && (best === null || d < best.d)) best = { flag, d }
  }
  return best?.flag ?? null
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[b.length] as number
}
