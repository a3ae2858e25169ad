/**
 * The reference node: takes the node's own argument list (after `node`), and serves the
 * node's JSON-RPC in front of a devnet chain, as the real node serves its RPC.
 *
 * - `--chain dev` (default): the node runs a devnet chain of its own in --datadir (started,
 *   or resumed), writes the runtime file there and answers `tnv devnet` controls.
 * - `--chain devnet`: the node joins the devnet `tnv devnet start` runs ($TNV_DEVNET_DIR or
 *   the default devnet directory), like a node following the network: its own RPC servers in
 *   front of that devnet's engine. It stops (exit 1) when that devnet stops.
 *
 * Order, as the spec wants it: the plan's warnings are logged and its refusals end the start
 * before anything listens; then the chain, then every worker's servers, then
 * `worker rpc endpoints resolved` with every endpoint.
 */
import { join, resolve as resolvePath } from 'node:path'
import packageJson from '../../../package.json' with { type: 'json' }
import { defaultDatadir } from '../../lib/options.js'
import { parseJwtSecretHex, readJwtSecret } from '../../lib/rpc/jwt.js'
import { resolveRpcPlan } from '../../lib/rpc/resolve.js'
import type { RpcPlan } from '../../lib/rpc/types.js'
import type { DevnetChain, DevnetSource } from '../chain/types.js'
import { type DevnetRuntimeInfo, defaultDevnetDir } from '../paths.js'
import { startControlServer } from './control.js'
import { advanceEpochJson, readDevnetStatus } from './devnet-status.js'
import { NoDevnetToJoinError, NodeFlagError, NodeStartRefusedError } from './errors.js'
import { type Gateway, type GatewayParameters, startGateway, type WorkerEndpoints } from './gateway.js'
import { parseGovernanceRequest } from './governance-control.js'
import { readNodeIdentity } from './identity.js'
import type { NodeLogger } from './log.js'
import { type NodeArgs, parseNodeArgs } from './node-args.js'
import { announcePresence, type PresenceAnnouncement, readPresence } from './presence.js'
import {
  acquireNodeLock,
  controlSocketPath,
  findRunningDevnet,
  isProcessAlive,
  removeRuntimeInfo,
  writeRuntimeInfo,
} from './runtime-file.js'

export const CLIENT_VERSION = `tnv-reference-node/v${packageJson.version}`

export type RunningReferenceNode = {
  datadir: string
  endpoints: WorkerEndpoints[]
  /** Clean shutdown: servers closed, the chain saved and stopped, runtime file removed. Idempotent. */
  stop(): Promise<void>
  /** Settles with the exit code once the node has stopped on its own (its engine or the devnet it joined is gone). */
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

/** What the node's --devnet.* flags say the devnet is made from. */
function devnetSourceOf(args: NodeArgs): DevnetSource | undefined {
  if (args.forkUrl !== undefined) return { kind: 'fork', url: args.forkUrl, blockNumber: args.forkBlock }
  if (args.genesis !== undefined) return { kind: 'genesis', genesis: args.genesis }
  return undefined
}

/** The chain's genesis (the anvil init file) for tn_genesis; null for a fork. */
function genesisFileOf(datadir: string, chain: DevnetChain): string | null {
  return chain.source.kind === 'fork' ? null : join(datadir, 'anvil-genesis.json')
}

/**
 * The reference node's own way to take the JWT secret off its command line (which every local
 * user can read in the process list): `TNV_NODE_JWT_SECRET` in its environment, 64 hex digits
 * or `@<file>` holding them. Read once at start and removed from the environment, so no child
 * of the node (anvil) ever sees it. `--rpc.jwtsecret <hex>` (the released node's only form)
 * still works, with a warning.
 */
import { NODE_JWT_SECRET_ENV } from '../../lib/node/jwt-secret-env.js'

async function jwtSecretOf(plan: RpcPlan, fromEnv: string | undefined, log: NodeLogger): Promise<string | null> {
  if (fromEnv !== undefined && fromEnv !== '') {
    if (plan.jwtSecret !== null)
      throw new NodeFlagError(`The JWT secret is given twice: in --rpc.jwtsecret and in ${NODE_JWT_SECRET_ENV}.`, {
        fix: `Give it once, in ${NODE_JWT_SECRET_ENV} (kept off the process list).`,
      })
    try {
      return await readJwtSecret(fromEnv)
    } catch (err) {
      throw new NodeFlagError(`${NODE_JWT_SECRET_ENV} cannot be used: ${(err as Error).message}`, {
        fix: 'Give the 32-byte secret as 64 hex digits, or @<file> holding them (`openssl rand -hex 32 > jwt.hex`).',
      })
    }
  }
  if (plan.jwtSecret === null) return null
  try {
    const secret =
      plan.jwt.source === 'file'
        ? await readJwtSecret(`@${plan.jwtSecret}`)
        : parseJwtSecretHex(plan.jwtSecret, 'in --rpc.jwtsecret')
    if (plan.jwt.source !== 'file')
      log.warn(
        `the JWT secret is on this node's command line, where every local user can read it (ps); give it in ${NODE_JWT_SECRET_ENV} instead`,
      )
    return secret
  } catch (err) {
    throw new NodeFlagError(`--rpc.jwtsecret cannot be used: ${(err as Error).message}`, {
      fix: 'Give the 32-byte secret as 64 hex digits, or the path of a file holding them (`openssl rand -hex 32 > jwt.hex`).',
    })
  }
}

/** Reads and removes the secrets the node takes from its environment (children never inherit them). */
function takeEnvironmentSecrets(env: NodeJS.ProcessEnv): { jwt: string | undefined } {
  const jwt = env[NODE_JWT_SECRET_ENV]
  delete env[NODE_JWT_SECRET_ENV]
  return { jwt }
}

type Started = {
  plan: RpcPlan
  args: NodeArgs
  gatewayParams: Omit<GatewayParameters, 'engine' | 'chainId' | 'registry' | 'issuance'>
}

/**
 * Starts the reference node.
 * @param argv the node's flags (what follows `node` on its command line)
 * @example const node = await startReferenceNode(['--datadir', dir, '--http', '--http.port', '8545'], log)
 */
export async function startReferenceNode(argv: readonly string[], log: NodeLogger): Promise<RunningReferenceNode> {
  const secrets = takeEnvironmentSecrets(process.env)
  const plan = resolveRpcPlan(argv)
  const args = parseNodeArgs(plan.passthrough, defaultDatadir(process.platform, process.env))
  // the fork URL (it may carry an API key) is in args now; no child inherits it
  delete process.env.TNV_DEVNET_FORK_URL
  for (const w of plan.warnings) log.warn(w)
  for (const flag of args.ignored) log.warn('flag has no effect on the reference node and is ignored', { flag })
  if (!plan.ok) {
    for (const e of plan.errors) log.error(e)
    throw new NodeStartRefusedError(plan.errors)
  }
  const started: Started = {
    plan,
    args,
    gatewayParams: {
      plan,
      jwtSecretHex: await jwtSecretOf(plan, secrets.jwt, log),
      maxSubscriptions: args.maxSubscriptions,
      clientVersion: CLIENT_VERSION,
    },
  }
  return args.chain === 'devnet' ? joinDevnet(started, log) : runDevnet(started, log)
}

/** `--chain dev`: a devnet chain of this node's own in --datadir. */
async function runDevnet({ args, gatewayParams }: Started, log: NodeLogger): Promise<RunningReferenceNode> {
  const { datadir } = args
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
    const { startDevnetChain, REAL_NETWORK_CHAIN_IDS } = await import('../chain/start.js')
    chain = await startDevnetChain({
      datadir,
      source: devnetSourceOf(args),
      chainId: args.chainId,
      epochSeconds: args.epochSeconds,
      blockTime: args.blockTime,
      engineHistoryBlocks: args.historyBlocks,
      // requests to the engine wait while it is compacted (the gateway exists once the chain has started)
      pauseEngineUsers: async () => (gateway ? gateway.pauseEngine() : () => {}),
      onEngineCompacted: (r) =>
        log.info('engine compacted', {
          latest: Number(r.latest),
          blocks: `${r.blocksBefore}→${r.blocksAfter}`,
          transactions: `${r.transactionsBefore}→${r.transactionsAfter}`,
          pid: r.pid,
          pausedMs: r.pausedMs,
        }),
      onProtocolError: (err: Error) => log.warn('epoch clock', { error: err.message }),
      onEpoch: (r) =>
        log.info('epoch concluded', {
          epoch: r.epoch,
          block: Number(r.blockNumber),
          trigger: r.trigger,
          warpedSeconds: r.warpedSeconds || undefined,
          committee: r.newCommittee.length,
        }),
    })
    const real = REAL_NETWORK_CHAIN_IDS[chain.chainId]
    if (real)
      log.warn(
        `this rehearsal runs under the chain id of ${real}: transactions and signatures made on it are valid there too`,
        { chainId: chain.chainId },
      )
    if (chain.engineIsolationNotice) log.warn(chain.engineIsolationNotice)
    log.info('devnet chain ready', {
      chainId: chain.chainId,
      source: chain.source.kind,
      generation: chain.generation,
      registryCodeHash: chain.registryCode.codeHash,
      epochSeconds: chain.epochSeconds ?? 'registry',
      resumed: chain.resumed,
      engineIsolation: chain.engineIsolation,
    })
    gateway = await startGateway({
      ...gatewayParams,
      engine: { ipcPath: chain.engineIpcPath },
      chainId: chain.chainId,
      registry: chain.registry,
      issuance: chain.issuance,
      tn: {
        generation: chain.generation,
        identity: null,
        genesisFile: genesisFileOf(datadir, chain),
        presence: () => readPresence(datadir),
      },
    })
  } catch (err) {
    await stop()
    throw err
  }
  const { endpoints } = gateway
  log.info('worker rpc endpoints resolved', endpointsLogFields(endpoints))

  const first = endpoints[0] as WorkerEndpoints
  const running = chain
  const runtime: DevnetRuntimeInfo = {
    pid: process.pid,
    chainId: chain.chainId,
    rpcUrl: first.http,
    wsUrl: first.ws,
    ipcPath: first.ipc,
    registry: chain.registry,
    issuance: chain.issuance,
    accounts: chain.accounts.map((a) => ({ address: a.address, privateKey: a.privateKey })),
    startedAt: new Date().toISOString(),
    engine: { ipcPath: chain.engineIpcPath },
    source: chain.source,
    generation: chain.generation,
    registryCodeHash: chain.registryCode.codeHash,
    registryCodeMatch: chain.registryCode.match,
    blsVerifier: chain.blsVerifier,
    owner: await chain.owner(),
    epochSeconds: chain.epochSeconds,
  }
  const tracing = gateway.tracing
  try {
    control = await startControlServer(controlSocketPath(datadir), {
      status: () => readDevnetStatus({ chain: running, runtime, endpoints, datadir, tracing: tracing.stats() }),
      'advance-epoch': async () => {
        const r = await running.advanceEpoch()
        log.info('epoch advanced on request', { epoch: r.epoch, block: Number(r.blockNumber) })
        return advanceEpochJson(r)
      },
      governance: async (request) => {
        const result = await running.governance(parseGovernanceRequest(request))
        log.info('REHEARSAL-ONLY governance', {
          action: result.action,
          owner: result.owner,
          outcome: result.outcome,
          tx: result.txHash ?? undefined,
        })
        return result
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
  return { datadir, endpoints, stop, failed }
}

/** How often a joined node checks that the devnet it follows still runs. */
const FOLLOW_CHECK_MS = 1000

/** `--chain devnet`: this node's RPC servers in front of the running local devnet's engine. */
async function joinDevnet({ args, gatewayParams }: Started, log: NodeLogger): Promise<RunningReferenceNode> {
  const devnetDir = defaultDevnetDir(process.env)
  const { datadir } = args
  if (resolvePath(devnetDir) === resolvePath(datadir)) {
    throw new NodeFlagError(`--chain devnet joins the devnet in ${devnetDir}, which is this node's own --datadir.`, {
      fix: "Give the node its own --datadir (for example the validator's), or use --chain dev to run the devnet itself.",
    })
  }
  const running = await findRunningDevnet(devnetDir)
  const devnet = running.info
  if (typeof devnet?.engine?.ipcPath !== 'string') throw new NoDevnetToJoinError(devnetDir)
  const releaseLock = await acquireNodeLock(datadir, true)
  let gateway: Gateway
  let gatewayStarted: Gateway | null = null
  let presence: PresenceAnnouncement | null = null
  try {
    log.info('joining the local devnet', { devnet: devnetDir, pid: devnet.pid, chainId: devnet.chainId })
    // a validator's node: tn_info and tn_nodeMode speak for the keys of its node-info.yaml
    const identity = await readNodeIdentity(datadir)
    if (identity) log.info('node identity', { address: identity.executionAddress, name: identity.name })
    gateway = gatewayStarted = await startGateway({
      ...gatewayParams,
      engine: devnet.engine,
      chainId: devnet.chainId,
      registry: devnet.registry,
      issuance: devnet.issuance,
      tn: {
        generation: devnet.generation,
        identity,
        genesisFile: devnet.source?.kind === 'fork' ? null : join(devnetDir, 'anvil-genesis.json'),
        presence: () => readPresence(devnetDir),
        neverCatchUp: args.neverCatchUp,
      },
    })
    // a validator's node takes part in the simulated consensus while it runs (./presence.ts)
    if (identity && !args.neverCatchUp && !args.ignored.includes('--observer')) {
      const { authorityId } = await import('../chain/consensus.js')
      const { jsonRpcCall } = await import('../../lib/node/json-rpc.js')
      const { hexToBytes } = await import('viem')
      const engineIpc = devnet.engine.ipcPath
      presence = await announcePresence({
        devnetDir,
        authorityId: authorityId(hexToBytes(identity.blsPublicKey)),
        blsPublicKey: identity.blsPublicKey,
        latestBlock: async () =>
          Number(BigInt(await jsonRpcCall<string>({ endpoint: engineIpc, method: 'eth_blockNumber' }))),
      })
    }
  } catch (err) {
    await gatewayStarted?.close().catch(() => {})
    await releaseLock().catch(() => {})
    throw err
  }
  const { endpoints } = gateway
  log.info('worker rpc endpoints resolved', endpointsLogFields(endpoints))
  let watch: NodeJS.Timeout | undefined
  let stopping: Promise<void> | null = null
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(watch)
      await presence?.stop()
      await gateway.close().catch(() => {})
      await releaseLock().catch(() => {})
    })()
    return stopping
  }
  const failed = new Promise<number>((resolve) => {
    watch = setInterval(() => {
      if (isProcessAlive(devnet.pid)) {
        void presence?.refresh().catch(() => {})
        return
      }
      log.error('the devnet this node joined has stopped; the node stops', { devnet: devnetDir, pid: devnet.pid })
      void stop().finally(() => resolve(1))
    }, FOLLOW_CHECK_MS)
  })
  log.info('reference node started', { datadir, clientVersion: CLIENT_VERSION, chain: 'devnet' })
  return { datadir, endpoints, stop, failed }
}
