/**
 * The reference node: takes the node's own argument list (after `node`), and runs the devnet
 * chain with the RPC gateway in front of it, as the real node would serve its RPC.
 *
 * Order, as the spec wants it: the plan's warnings are logged and its refusals end the start
 * before anything listens; then the chain starts (or resumes) in --datadir, then every
 * worker's servers listen, then `worker rpc endpoints resolved` lists every endpoint, then
 * the runtime file tells `tnv devnet` and `--chain devnet` where the node is.
 */
import packageJson from '../../../package.json' with { type: 'json' }
import { defaultDatadir } from '../../lib/flags.js'
import { parseJwtSecretHex, readJwtSecret } from '../../lib/rpc/jwt.js'
import { resolveRpcPlan } from '../../lib/rpc/resolve.js'
import type { RpcPlan } from '../../lib/rpc/types.js'
import type { DevnetChain } from '../chain/types.js'
import type { DevnetRuntimeInfo } from '../paths.js'
import { startControlServer } from './control.js'
import { readDevnetStatus } from './devnet-status.js'
import { NodeFlagError, NodeStartRefusedError } from './errors.js'
import { type Gateway, startGateway, type WorkerEndpoints } from './gateway.js'
import type { NodeLogger } from './log.js'
import { parseNodeArgs } from './node-args.js'
import { acquireNodeLock, controlSocketPath, removeRuntimeInfo, writeRuntimeInfo } from './runtime-file.js'

export const CLIENT_VERSION = `tnv-reference-node/v${packageJson.version}`

export type RunningReferenceNode = {
  datadir: string
  endpoints: WorkerEndpoints[]
  runtime: DevnetRuntimeInfo
  /** Clean shutdown: servers closed, the chain saved and stopped, runtime file removed. Idempotent. */
  stop(): Promise<void>
  /** Settles with the exit code the process should end with once the node has stopped on its own (engine died). */
  failed: Promise<number>
}

/** `worker rpc endpoints resolved` with every worker's endpoints as key=value fields. */
export function endpointsLogFields(endpoints: WorkerEndpoints[]): Record<string, string | number> {
  const fields: Record<string, string | number> = { workers: endpoints.length }
  for (const e of endpoints) {
    if (e.http) fields[`worker${e.worker}.http`] = e.http
    if (e.ws) fields[`worker${e.worker}.ws`] = e.ws
    if (e.ipc) fields[`worker${e.worker}.ipc`] = e.ipc
  }
  return fields
}

async function engineBlockNumber(url: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
  })
  const { result } = (await res.json()) as { result: string }
  return Number(BigInt(result))
}

async function jwtSecretOf(plan: RpcPlan): Promise<string | null> {
  if (plan.jwtSecret === null) return null
  try {
    return plan.jwt.source === 'file' ? await readJwtSecret(`@${plan.jwtSecret}`) : parseJwtSecretHex(plan.jwtSecret, 'in --rpc.jwtsecret')
  } catch (err) {
    throw new NodeFlagError(`--rpc.jwtsecret cannot be used: ${(err as Error).message}`, {
      fix: 'Give the 32-byte secret as 64 hex digits, or the path of a file holding them (`openssl rand -hex 32 > jwt.hex`).',
    })
  }
}

/**
 * Starts the reference node.
 * @param argv the node's flags (what follows `node` on its command line)
 * @example const node = await startReferenceNode(['--datadir', dir, '--http', '--http.port', '8545'], log)
 */
export async function startReferenceNode(argv: readonly string[], log: NodeLogger): Promise<RunningReferenceNode> {
  const plan = resolveRpcPlan(argv)
  const args = parseNodeArgs(plan.passthrough, defaultDatadir())
  for (const w of plan.warnings) log.warn(w)
  for (const flag of args.ignored) log.warn('flag has no effect on the reference node and is ignored', { flag })
  if (!plan.ok) {
    for (const e of plan.errors) log.error(e)
    throw new NodeStartRefusedError(plan.errors)
  }
  const jwtSecretHex = await jwtSecretOf(plan)
  const datadir = args.datadir

  const releaseLock = await acquireNodeLock(datadir)
  let chain: DevnetChain | null = null
  let gateway: Gateway | null = null
  let control: { close(): Promise<void> } | null = null
  let stopping: Promise<void> | null = null
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await removeRuntimeInfo(datadir).catch(() => {})
      await control?.close().catch(() => {})
      await gateway?.close().catch(() => {})
      await chain?.stop()
      await releaseLock().catch(() => {})
    })()
    return stopping
  }

  try {
    log.info('starting the devnet chain', { datadir, chain: args.chain })
    const { startDevnetChain } = await import('../chain/start.js')
    chain = await startDevnetChain({
      datadir,
      epochBlocks: args.epochBlocks,
      blockTime: args.blockTime,
      onProtocolError: (err: Error) => log.warn('protocol loop', { error: err.message }),
    })
    log.info('devnet chain ready', { chainId: chain.chainId, epochBlocks: chain.epochBlocks, registry: chain.registry })
    gateway = await startGateway({
      plan,
      engine: { httpUrl: chain.engineHttpUrl, wsUrl: chain.engineWsUrl },
      chainId: chain.chainId,
      registry: chain.registry,
      issuance: chain.issuance,
      jwtSecretHex,
      maxSubscriptions: args.maxSubscriptions,
      clientVersion: CLIENT_VERSION,
    })
  } catch (err) {
    await stop()
    throw err
  }
  const { endpoints } = gateway
  log.info('worker rpc endpoints resolved', endpointsLogFields(endpoints))

  const first = endpoints[0] as WorkerEndpoints
  const runtime: DevnetRuntimeInfo = {
    pid: process.pid,
    chainId: chain.chainId,
    rpcUrl: first.http,
    wsUrl: first.ws,
    ipcPath: first.ipc,
    registry: chain.registry,
    issuance: chain.issuance,
    governance: { address: chain.governance.address, privateKey: chain.governance.privateKey },
    accounts: chain.accounts.map((a) => ({ address: a.address, privateKey: a.privateKey })),
    epochBlocks: chain.epochBlocks,
    startedAt: new Date().toISOString(),
  }
  const running = chain
  try {
    control = await startControlServer(controlSocketPath(datadir), {
      status: () => readDevnetStatus({ chain: running, runtime, endpoints, datadir, tracing: gateway?.tracing.stats() ?? null }),
      'advance-epoch': async () => {
        const epoch = await running.advanceEpoch()
        const blockNumber = await engineBlockNumber(running.engineHttpUrl)
        log.info('epoch advanced on request', { epoch, blockNumber })
        return { epoch, blockNumber }
      },
      mine: async ({ blocks }) => {
        const n = typeof blocks === 'number' ? blocks : 1
        await running.mine(n)
        return { blocks: n }
      },
    })
    await writeRuntimeInfo(datadir, runtime)
  } catch (err) {
    await stop()
    throw err
  }

  const failed = new Promise<number>((resolve) => {
    running.onEngineExit((info) => {
      log.error('the execution engine exited unexpectedly; the node stops', {
        code: info.code,
        signal: info.signal,
        stderr: info.stderrTail.trim().split('\n').slice(-3).join(' | ') || undefined,
      })
      void stop().finally(() => resolve(1))
    })
  })
  log.info('reference node started', { datadir, clientVersion: CLIENT_VERSION })
  return { datadir, endpoints, runtime, stop, failed }
}
