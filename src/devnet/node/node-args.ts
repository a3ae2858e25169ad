/**
 * The reference node's own flags: the node flags that are not RPC flags (those are the
 * resolver's, src/lib/rpc), read from the plan's passthrough list. `--datadir` and `--chain`
 * as the real node takes them (its values adiri, test-net and main-net are refused like a
 * build without that network; `dev` and `devnet` are the reference node's own), plus the
 * devnet-only ones (`--devnet.*`: what the devnet is made from and its rehearsal settings).
 * Flags of the real node that mean nothing here (--instance, --metrics, -v, ...) are accepted
 * and reported.
 */

import { MIN_ENGINE_HISTORY_BLOCKS } from '../chain/engine-compaction.js'
import { NodeFlagError, TestNetworkUnavailableError, UnknownChainError } from './errors.js'

export type NodeArgs = {
  datadir: string
  /** `dev`: run a devnet chain in --datadir. `devnet`: join the local devnet `tnv devnet start` runs. */
  chain: 'dev' | 'devnet'
  /** --devnet.genesis: adiri, next or a genesis file (embedded devnet when absent). */
  genesis: string | undefined
  /** --devnet.fork-url (or $TNV_DEVNET_FORK_URL, kept off the process list): fork this chain. */
  forkUrl: string | undefined
  /** --devnet.fork-block: the block to fork at (latest when absent). */
  forkBlock: bigint | undefined
  /** --devnet.chain-id: the rehearsal chain id, or `genesis` for the genesis file's / the forked chain's. */
  chainId: number | 'source' | undefined
  /** --devnet.epoch-seconds: rehearsal epoch length (chain default when absent). */
  epochSeconds: number | undefined
  /** --devnet.block-time: seconds between idle blocks (chain default when absent). */
  blockTime: number | undefined
  /** --devnet.history-blocks: blocks the engine keeps when it is compacted (chain default when absent). */
  historyBlocks: number | undefined
  /** --rpc.max-subscriptions-per-connection (reference default 1024). */
  maxSubscriptions: number
  /** --devnet.never-catch-up: REHEARSAL stand-in for a release that starts but never catches up (CvvInactive, leads nothing). */
  neverCatchUp: boolean
  /** Flags taken but without effect here, as written (for a startup warning). */
  ignored: string[]
}

/** The real node's `--chain` values (clap, case-sensitive): the reference node runs neither network. */
const TEST_NETWORK = new Set(['adiri', 'test-net'])
/** Real-node flags without a value that the reference node accepts and ignores. */
const IGNORED_SWITCHES = new Set(['--with-unused-ports', '--observer', '-q', '--quiet'])

function integer(flag: string, raw: string | undefined, min: number, max: number): number {
  const n = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new NodeFlagError(
      `${flag} ${raw ?? ''} is not valid: give a whole number from ${min} to ${max}.`.replace('  ', ' '),
    )
  }
  return n
}

/**
 * @param tokens the plan's passthrough (everything the RPC resolver did not interpret)
 * @example parseNodeArgs(['--datadir', '/d', '--chain', 'dev'], '/default').datadir // '/d'
 */
export function parseNodeArgs(
  tokens: readonly string[],
  defaultDatadir: string,
  env: NodeJS.ProcessEnv = process.env,
): NodeArgs {
  const out: NodeArgs = {
    datadir: defaultDatadir,
    chain: 'dev',
    genesis: undefined,
    forkUrl: env.TNV_DEVNET_FORK_URL || undefined,
    forkBlock: undefined,
    chainId: undefined,
    epochSeconds: undefined,
    blockTime: undefined,
    historyBlocks: undefined,
    maxSubscriptions: 1024,
    neverCatchUp: false,
    ignored: [],
  }
  const seen = new Set<string>()
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string
    if (token === '--') {
      if (i + 1 < tokens.length)
        throw new NodeFlagError(`Unexpected arguments after --: ${tokens.slice(i + 1).join(' ')}.`, {
          fix: 'Remove them.',
        })
      break
    }
    if (!token.startsWith('-')) {
      throw new NodeFlagError(`Unexpected argument ${JSON.stringify(token)}.`, {
        fix: 'Every node option is a flag: `node --datadir <dir> --http ...`.',
      })
    }
    const eq = token.indexOf('=')
    const name = eq > 0 ? token.slice(0, eq) : token
    const inline = eq > 0 ? token.slice(eq + 1) : undefined
    const value = (): string => {
      if (inline !== undefined) return inline
      const next = tokens[i + 1]
      if (next === undefined || next.startsWith('--'))
        throw new NodeFlagError(`${name} needs a value.`, { fix: `Write ${name} <value>.` })
      i++
      return next
    }
    const once = () => {
      if (seen.has(name)) throw new NodeFlagError(`${name} is given more than once.`, { fix: 'Give it once.' })
      seen.add(name)
    }
    switch (name) {
      case '--datadir': {
        once()
        const v = value()
        if (v.trim() === '') throw new NodeFlagError('--datadir is empty.', { fix: 'Give the data directory path.' })
        out.datadir = v
        break
      }
      case '--chain': {
        once()
        const v = value()
        if (TEST_NETWORK.has(v)) throw new TestNetworkUnavailableError(v)
        if (v === 'main-net')
          throw new NodeFlagError(
            "--chain main-net selects mainnet (chain id 487); tnv's reference node runs only local devnets and refuses it.",
            { fix: 'Run the telcoin-network binary for mainnet, or use --chain dev or --chain devnet here.' },
          )
        if (v !== 'dev' && v !== 'devnet') throw new UnknownChainError(v)
        out.chain = v
        break
      }
      case '--devnet.genesis': {
        once()
        const v = value()
        if (v.trim() === '')
          throw new NodeFlagError('--devnet.genesis is empty.', { fix: 'Give adiri, next or a path.' })
        out.genesis = v
        break
      }
      case '--devnet.fork-url':
        once()
        out.forkUrl = value()
        break
      case '--devnet.fork-block':
        once()
        out.forkBlock = BigInt(integer(name, value(), 0, Number.MAX_SAFE_INTEGER))
        break
      case '--devnet.chain-id': {
        once()
        const v = value()
        out.chainId = v === 'genesis' ? 'source' : integer(name, v, 1, Number.MAX_SAFE_INTEGER)
        break
      }
      case '--devnet.epoch-seconds':
        once()
        out.epochSeconds = integer(name, value(), 1, 4_294_967_295)
        break
      case '--devnet.block-time':
        once()
        out.blockTime = integer(name, value(), 0, 3600)
        break
      case '--devnet.history-blocks':
        once()
        out.historyBlocks = integer(name, value(), MIN_ENGINE_HISTORY_BLOCKS, Number.MAX_SAFE_INTEGER)
        break
      case '--devnet.never-catch-up':
        once()
        if (inline !== undefined)
          throw new NodeFlagError('--devnet.never-catch-up takes no value.', { fix: 'Write --devnet.never-catch-up.' })
        out.neverCatchUp = true
        break
      case '--rpc.max-subscriptions-per-connection':
        once()
        out.maxSubscriptions = integer(name, value(), 1, 4_294_967_295)
        break
      default: {
        if (IGNORED_SWITCHES.has(name) || /^-v+$/.test(name)) {
          out.ignored.push(token)
          break
        }
        // Another flag of the real node (--instance N, --metrics ADDR, --rpc.txfeecap X, ...).
        const next = tokens[i + 1]
        if (inline === undefined && next !== undefined && !next.startsWith('-')) {
          out.ignored.push(`${token} ${next}`)
          i++
        } else out.ignored.push(token)
      }
    }
  }
  if (out.genesis !== undefined && out.forkUrl !== undefined)
    throw new NodeFlagError('--devnet.genesis and --devnet.fork-url cannot be used together.', {
      fix: 'A rehearsal starts from a genesis file or forks a live chain: give one of them.',
    })
  if (out.forkBlock !== undefined && out.forkUrl === undefined)
    throw new NodeFlagError('--devnet.fork-block needs --devnet.fork-url.', { fix: 'Give the chain to fork.' })
  return out
}
