/**
 * Fork mode: a local rehearsal of a live chain (anvil `--fork-url`). Before anything starts,
 * `probeForkSource` asks the upstream endpoint three questions, one request each (public
 * endpoints are rate limited): its chain id, the block to fork at (the given one, else the
 * latest, which is then pinned so a resume and anvil's fork cache see the same state), and the
 * registry's code at that block, recognised or refused. Every failure is one clear error.
 *
 * While the rehearsal runs, anvil reaches upstream only through `startForkProxy`, a relay on
 * a Unix socket in the engine's private directory that lets read methods through and refuses everything that would send or sign (anvil
 * never forwards transactions; the relay makes sure of it), counts requests and rate limits,
 * and keeps the upstream URL (which may carry an API key) off every command line.
 */
import { chmod, rm } from 'node:fs/promises'
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import type { Hex } from 'viem'
import { REGISTRY_ADDRESS } from '../../lib/chain/addresses.js'
import { BadInputError, ExitCode, TnvError } from '../../lib/errors.js'
import { detectRegistryGeneration, type RegistryCodeReport } from '../../lib/registry/generations/detect.js'
import { JsonStreamSplitter } from '../node/json-stream.js'

/** The URL without what may be secret (user info, path, query): `https://host:port/…`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    const rest = u.pathname !== '/' || u.search || u.hash ? '/…' : ''
    return `${u.protocol}//${u.host}${rest}`
  } catch {
    return '<not a URL>'
  }
}

export class ForkUrlInvalidError extends BadInputError {
  override readonly code: string = 'ForkUrlInvalid'
  constructor(url: string, problem: string) {
    super(`--fork-url ${redactUrl(url)} cannot be used: ${problem}.`, {
      fix: 'Pass the HTTP(S) JSON-RPC endpoint of the chain to fork, e.g. --fork-url https://rpc.adiri.tel (or a local node: http://127.0.0.1:8545).',
    })
  }
}

export class ForkUnreachableError extends TnvError {
  override readonly code: string = 'ForkUnreachable'
  constructor(url: string, reason: string) {
    super(`The chain to fork cannot be reached at ${redactUrl(url)}: ${reason}.`, {
      fix: 'Check the URL and your connection (try `curl` with an eth_chainId request), then start again; nothing was started or written.',
      exitCode: ExitCode.RpcUnreachable,
    })
  }
}

export class ForkRateLimitedError extends TnvError {
  override readonly code: string = 'ForkRateLimited'
  constructor(url: string, retryAfter: string | null) {
    super(
      `The endpoint ${redactUrl(url)} refused the request with HTTP 429 (rate limited)${retryAfter ? `; it asks to retry after ${retryAfter} s` : ''}.`,
      {
        fix: 'Wait and start again, or fork through an endpoint of your own (a node you run, or a provider key with a higher limit); nothing was started or written. A fork needs only a handful of upstream requests, cached in the devnet directory.',
        exitCode: ExitCode.RpcUnreachable,
      },
    )
  }
}

export class ForkEndpointError extends TnvError {
  override readonly code: string = 'ForkEndpoint'
  constructor(url: string, reason: string) {
    super(`${redactUrl(url)} does not answer like an Ethereum JSON-RPC endpoint: ${reason}.`, {
      fix: "Pass the chain's JSON-RPC HTTP endpoint (the one wallets and `cast` use); nothing was started or written.",
      exitCode: ExitCode.RpcUnreachable,
    })
  }
}

export class ForkBlockNotFoundError extends BadInputError {
  override readonly code: string = 'ForkBlockNotFound'
  constructor(url: string, block: bigint, latest: bigint) {
    super(`Block ${block} does not exist on ${redactUrl(url)} (its latest block is ${latest}).`, {
      fix: `Pass --fork-block ${latest} or lower, or leave --fork-block out to fork at the latest block.`,
    })
  }
}

/** The forked chain has no registry, or registry code tnv does not recognise. */
export class ForkRegistryError extends TnvError {
  override readonly code: string = 'ForkRegistry'
  constructor(message: string, fix: string) {
    super(message, { fix, exitCode: ExitCode.WrongChain })
  }
}

export type ForkProbe = {
  /** The upstream's own chain id. */
  upstreamChainId: number
  /** The block the fork is pinned at. */
  blockNumber: bigint
  blockHash: Hex
  blockTimestamp: bigint
  registry: RegistryCodeReport
}

export type ProbeForkSourceParameters = {
  url: string
  /** --fork-block; default the latest block. */
  blockNumber?: bigint | undefined
  fetchFn?: typeof fetch
  timeoutMs?: number
}

/** Checks that a fork URL is usable: an http(s) URL, no credentials in clear on the wire to plain http. */
export function checkForkUrl(url: string): URL {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new ForkUrlInvalidError(url, 'it is not a URL')
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ForkUrlInvalidError(url, `${u.protocol} is not supported (use http:// or https://)`)
  return u
}

type RpcResult = { result?: unknown; error?: { code?: number; message?: string } }

/**
 * fetch refuses URLs with credentials: `https://user:pw@host/…` is sent to `https://host/…` with
 * HTTP Basic authorization, as curl and anvil do.
 */
export function upstreamTarget(url: string): { url: string; headers: Record<string, string> } {
  const u = new URL(url)
  if (!u.username && !u.password) return { url, headers: {} }
  const basic = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')
  u.username = ''
  u.password = ''
  return { url: u.toString(), headers: { authorization: `Basic ${basic}` } }
}

async function rpc(
  url: string,
  method: string,
  params: unknown[],
  fetchFn: typeof fetch,
  timeoutMs: number,
): Promise<unknown> {
  let res: Response
  const target = upstreamTarget(url)
  try {
    res = await fetchFn(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (err) {
    throw new ForkUnreachableError(url, networkReason(err, timeoutMs))
  }
  if (res.status === 429) throw new ForkRateLimitedError(url, res.headers.get('retry-after'))
  const text = await res.text().catch(() => '')
  if (!res.ok) throw new ForkEndpointError(url, `HTTP ${res.status} to ${method}`)
  let body: RpcResult
  try {
    body = JSON.parse(text) as RpcResult
  } catch {
    throw new ForkEndpointError(url, `the answer to ${method} is not JSON`)
  }
  if (body.error) {
    // some providers answer a rate limit inside JSON-RPC
    if (body.error.code === 429 || /rate.?limit|too many requests/i.test(body.error.message ?? ''))
      throw new ForkRateLimitedError(url, null)
    throw new ForkEndpointError(url, `${method} failed: ${body.error.message ?? 'unknown error'}`)
  }
  if (!('result' in body)) throw new ForkEndpointError(url, `the answer to ${method} has no result`)
  return body.result
}

/** A message without any URL credentials or path (`//user:pw@host/x` → `//host/…`). */
function scrub(message: string): string {
  return message.replace(
    /([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/@]*@)?([^\s/@]+)(\/\S*)?/gi,
    (_m, scheme: string, host: string, path: string | undefined) =>
      `${scheme}${host}${path && path !== '/' ? '/…' : ''}`,
  )
}

function networkReason(err: unknown, timeoutMs: number): string {
  return scrub(rawNetworkReason(err, timeoutMs))
}

function rawNetworkReason(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; cause?: { code?: string; message?: string }; message?: string }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${Math.round(timeoutMs / 1000)} s`
  const code = e.cause?.code
  if (code === 'ECONNREFUSED') return 'connection refused (nothing listens there)'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve'
  if (code === 'ECONNRESET') return 'the connection was reset'
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `TLS failed (${code})`
  return e.cause?.message ?? e.message ?? String(err)
}

const QUANTITY = /^0x[0-9a-f]+$/i

/**
 * @example const probe = await probeForkSource({ url: 'http://127.0.0.1:8545' })
 */
export async function probeForkSource(params: ProbeForkSourceParameters): Promise<ForkProbe> {
  const { url, fetchFn = fetch, timeoutMs = 15_000 } = params
  checkForkUrl(url)
  if (params.blockNumber !== undefined && params.blockNumber < 0n)
    throw new BadInputError(`--fork-block ${params.blockNumber} is not a block number.`, {
      fix: 'Pass a block number ≥ 0, or leave --fork-block out for the latest block.',
    })
  const chainIdHex = await rpc(url, 'eth_chainId', [], fetchFn, timeoutMs)
  if (typeof chainIdHex !== 'string' || !QUANTITY.test(chainIdHex))
    throw new ForkEndpointError(url, 'eth_chainId did not return a number')
  const tag = params.blockNumber === undefined ? 'latest' : `0x${params.blockNumber.toString(16)}`
  const block = (await rpc(url, 'eth_getBlockByNumber', [tag, false], fetchFn, timeoutMs)) as {
    number?: string
    hash?: Hex
    timestamp?: string
  } | null
  if (block === null && params.blockNumber !== undefined) {
    const latest = await rpc(url, 'eth_blockNumber', [], fetchFn, timeoutMs)
    throw new ForkBlockNotFoundError(url, params.blockNumber, BigInt(String(latest)))
  }
  if (!block?.number || !block.hash || !block.timestamp)
    throw new ForkEndpointError(url, `eth_getBlockByNumber(${tag}) returned no block`)
  const blockNumber = BigInt(block.number)
  const code = await rpc(url, 'eth_getCode', [REGISTRY_ADDRESS, block.number], fetchFn, timeoutMs)
  if (typeof code !== 'string' || !code.startsWith('0x'))
    throw new ForkEndpointError(url, 'eth_getCode did not return bytes')
  const registry = detectRegistryGeneration(code as Hex)
  const where = `${redactUrl(url)} (chain id ${Number(BigInt(chainIdHex))}) at block ${blockNumber}`
  if (registry.codeHash === null)
    throw new ForkRegistryError(
      `The chain at ${where} has no ConsensusRegistry at ${REGISTRY_ADDRESS}: it is not a Telcoin Network chain.`,
      'Fork a Telcoin Network endpoint (the test network adiri, or a node of yours), or rehearse from a genesis with --genesis adiri|next.',
    )
  if (!registry.generation)
    throw new ForkRegistryError(
      `The registry code at ${REGISTRY_ADDRESS} on ${where} (${registry.codeSize} bytes, code hash ${registry.codeHash}) is neither registry generation tnv knows (it lacks ${registry.missing.adiri.length} functions of adiri and ${registry.missing.next.length} of the next generation).`,
      'tnv refuses registry code it does not recognise (it would stake 1,000,000 TEL against it); update tnv, or rehearse with --genesis adiri|next.',
    )
  return {
    upstreamChainId: Number(BigInt(chainIdHex)),
    blockNumber,
    blockHash: block.hash,
    blockTimestamp: BigInt(block.timestamp),
    registry,
  }
}

/** Methods anvil uses to read a fork (and nothing that sends or signs). */
const READ_METHODS = new Set([
  'eth_chainId',
  'net_version',
  'eth_blockNumber',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockReceipts',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_getAccountInfo',
  'eth_getAccount',
  'eth_getProof',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getLogs',
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'debug_traceTransaction',
  'trace_transaction',
  'trace_block',
])

export type ForkProxyStats = {
  /** Requests relayed upstream (one HTTP request each). */
  requests: number
  /** JSON-RPC calls in them (a batch counts each). */
  calls: number
  /** Answers with HTTP 429. */
  rateLimited: number
  /** Calls refused here (not read methods). */
  refused: number
  /** Calls relayed, by method. */
  methods: Record<string, number>
}

export type ForkProxy = {
  /** The relay's IPC socket, which anvil takes as its `--fork-url` (anvil reads a fork over IPC). */
  url: string
  stats(): ForkProxyStats
  close(): Promise<void>
}

type RelayCall = { method?: unknown; id?: unknown }

/**
 * The relay to the upstream endpoint for anvil, on a Unix socket at `path` (in the engine's
 * private directory): anvil sends JSON-RPC values over it (concatenated, as IPC clients do) and
 * gets each answer on a line. It is reachable by the engine only, also from inside the engine's
 * network namespace, and never by other local users (who could otherwise spend the operator's
 * API key through it).
 * @example const proxy = await startForkProxy(upstream, join(engineDir, 'fork.ipc')); spawnAnvil({ fork: { url: proxy.url, … } })
 */
export async function startForkProxy(
  upstream: string,
  path: string,
  fetchFn: typeof fetch = fetch,
): Promise<ForkProxy> {
  const stats: ForkProxyStats = { requests: 0, calls: 0, rateLimited: 0, refused: 0, methods: {} }
  const target = upstreamTarget(upstream)
  const sockets = new Set<Socket>()

  /** The answer text for one JSON value anvil sent (a call or a batch). */
  async function relay(body: string): Promise<string> {
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    }
    const calls = (Array.isArray(parsed) ? parsed : [parsed]) as RelayCall[]
    const bad = calls.find((c) => typeof c?.method !== 'string' || !READ_METHODS.has(c.method))
    const answerAll = (error: { code: number; message: string }) => {
      const answers = calls.map((c) => ({ jsonrpc: '2.0', id: c?.id ?? null, error }))
      return JSON.stringify(Array.isArray(parsed) ? answers : answers[0])
    }
    if (bad) {
      stats.refused += calls.length
      return answerAll({
        code: -32601,
        message: `the tnv fork relay sends only reads upstream, not ${String(bad.method)}`,
      })
    }
    stats.requests += 1
    stats.calls += calls.length
    for (const c of calls) stats.methods[c.method as string] = (stats.methods[c.method as string] ?? 0) + 1
    try {
      const up = await fetchFn(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...target.headers },
        body,
        signal: AbortSignal.timeout(60_000),
      })
      if (up.status === 429) {
        stats.rateLimited += 1
        return answerAll({ code: 429, message: 'the upstream endpoint is rate limiting (HTTP 429)' })
      }
      const text = await up.text()
      if (!up.ok) return answerAll({ code: -32603, message: `the upstream endpoint answered HTTP ${up.status}` })
      // one line per answer: a pretty-printed upstream answer is made compact
      return text.includes('\n') ? JSON.stringify(JSON.parse(text)) : text
    } catch (err) {
      return answerAll({ code: -32603, message: `upstream unreachable: ${networkReason(err, 60_000)}` })
    }
  }

  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    const splitter = new JsonStreamSplitter(
      {
        onValue: (bytes) => {
          void relay(bytes.toString('utf8')).then((answer) => {
            if (!socket.destroyed) socket.write(`${answer}\n`)
          })
        },
        onTooLarge: () => socket.destroy(),
      },
      16 * 1024 * 1024,
    )
    socket.on('data', (chunk: Buffer) => splitter.push(chunk))
  })
  await rm(path, { force: true })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => resolve())
  })
  await chmod(path, 0o600)
  return {
    url: path,
    stats: () => ({ ...stats, methods: { ...stats.methods } }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
