/**
 * `tnv node check`: is this validator healthy, and what next. Reads, in parallel:
 * the local node (one batch: chain id, latest block, tn_nodeMode, the latest consensus header,
 * tn_info), the network's endpoint (one batch), the registry (readValidatorStatus's two batches
 * and the next committee), the host (disk, UDP ports, the process), and `tnv rpc check`'s
 * exposure probes of the endpoints tnv started the node with. Only when the node is behind, a
 * second, smaller batch on both ends a moment later tells "catching up" from "stalled". Nothing
 * unreachable throws: it becomes a finding. Judged by ./evaluate.ts.
 */
import type { Address } from 'viem'
import { presetForChainId } from '../chain/presets.js'
import { createRpcCounter } from '../chain/rpc-counter.js'
import { ExitCode, TnvError } from '../errors.js'
import { observeNodeExits } from '../node/run-log.js'
import { isNodeProcess, readNodeState } from '../node/state.js'
import type { NodeInfo } from '../nodeinfo/types.js'
import type { ChainFlagValues } from '../options.js'
import { openRegistryContext } from '../registry/command-support.js'
import type { RegistryContext } from '../registry/types.js'
import type { RpcCheckReport } from '../rpc/types.js'
import { DEFAULT_THRESHOLDS, evaluate, lagFigures, type Thresholds } from './evaluate.js'
import { readEndpoint } from './read-endpoint.js'
import { readHost } from './read-host.js'
import { readValidatorHealth } from './read-validator-health.js'
import { rpcBatch } from './rpc-batch.js'
import type { EndpointSnapshot, NodeCheckReport, ValidatorFacts } from './types.js'

export type CheckNodeParameters = {
  datadir: string
  /** The local node's HTTP URL or IPC path; default: the endpoints of the node tnv started for datadir. */
  nodeUrl?: string | undefined
  /** The network side (the registry and its public endpoint): the chain flags. */
  chain: ChainFlagValues
  /** The validator; default: execution_address of node-info.yaml. */
  address?: Address | undefined
  /** The node's JWT secret (hex), for its HTTP/WS endpoints. */
  jwtSecretHex?: string | null
  /** Probe RPC exposure like `tnv rpc check` (default true). */
  exposure?: boolean
  thresholds?: Thresholds
  /** How long to wait before the second read when the node is behind (default 2000 ms). */
  sampleDelayMs?: number
  timeoutMs?: number
}

/**
 * @example const report = await checkNode({ datadir: '~/tn', chain: { chain: 'testnet' } })
 * process.exitCode = report.exitCode
 */
export async function checkNode({
  datadir,
  nodeUrl,
  chain,
  address,
  jwtSecretHex = null,
  exposure = true,
  thresholds = DEFAULT_THRESHOLDS,
  sampleDelayMs = 2_000,
  timeoutMs = 5_000,
}: CheckNodeParameters): Promise<NodeCheckReport> {
  const started = Date.now()
  const trips = { local: 0, network: 0 }

  // ---- what is on disk: node-info.yaml and the node tnv started
  const [{ nodeInfo, nodeInfoProblem }, state] = await Promise.all([
    readNodeInfoQuietly(datadir),
    readNodeState(datadir),
  ])
  const liveState = state && isNodeProcess(state) ? state : null
  // a node tnv started that ended unseen (detached): its exit goes into the run log first
  await observeNodeExits(datadir, state, 'tnv node check').catch(() => {})
  const localEndpoint = nodeUrl ?? (liveState ? (liveState.rpc.http ?? liveState.rpc.ipc) : null)
  const validatorAddress = address ?? nodeInfo?.executionAddress ?? null

  const headers = await authHeaders(localEndpoint, jwtSecretHex)
  const readLocal = async (): Promise<EndpointSnapshot | null> => {
    if (localEndpoint === null) return null
    trips.local++
    return readEndpoint({ endpoint: localEndpoint, withInfo: true, timeoutMs, ...(headers ? { headers } : {}) })
  }
  // no network named (no --chain, --rpc-url, TN_CHAIN): the one the local node is on, when tnv knows it
  let chainFlags = chain
  let chosenBy: string | null = null
  let localFirst: EndpointSnapshot | null | undefined
  if (chain.chain === undefined && chain['rpc-url'] === undefined) {
    localFirst = await readLocal()
    const preset = localFirst?.chainId != null ? presetForChainId(localFirst.chainId) : null
    if (preset) {
      chainFlags = { ...chain, chain: preset.name }
      chosenBy = `${preset.name}, from the local node's chain id ${preset.chainId}`
    }
  }

  // ---- the network: resolved from the chain flags (a failure is a finding)
  const registryCounter = createRpcCounter()
  let ctx: RegistryContext | null = null
  let networkProblem: string | null = null
  try {
    ctx = await openRegistryContext(chainFlags, { fetchFn: registryCounter.fetch })
  } catch (err) {
    networkProblem = problemOf(err).message
  }
  const networkEndpoint = ctx?.target.rpcUrl ?? null
  const readNetwork = async (): Promise<EndpointSnapshot | null> => {
    if (networkEndpoint === null) return null
    trips.network++
    return readEndpoint({ endpoint: networkEndpoint, timeoutMs })
  }
  const readValidator = async (): Promise<{
    facts: ValidatorFacts | null
    problem: { message: string; fix: string | null; unreachable?: boolean } | null
  }> => {
    if (!ctx) return { facts: null, problem: null }
    if (validatorAddress === null)
      return {
        facts: null,
        problem: {
          message: 'no validator to look up: no --address and no node-info.yaml in the data directory',
          fix: 'Pass --address <validator address> or --datadir with its node-info.yaml.',
        },
      }
    try {
      const { facts } = await readValidatorHealth(ctx, { address: validatorAddress })
      return { facts: { ...facts, reputationScore: null }, problem: null }
    } catch (err) {
      const unreachable = err instanceof TnvError && err.exitCode === ExitCode.RpcUnreachable
      return { facts: null, problem: { ...problemOf(err), unreachable } }
    }
  }
  const readExposure = async (): Promise<{ report: RpcCheckReport | null; problem: string | null }> => {
    if (!exposure) return { report: null, problem: 'RPC exposure not probed (--no-exposure)' }
    const targets = liveState?.rpc ?? null
    if (!targets && localEndpoint === null) return { report: null, problem: 'no endpoint to probe' }
    const [{ checkRpcEndpoints }, { resolveRpcPlans }] = await Promise.all([
      import('../rpc/check.js'),
      import('../rpc/behaviours.js'),
    ])
    let expect: ReturnType<typeof resolveRpcPlans> | null = null
    if (liveState) {
      try {
        expect = resolveRpcPlans(liveState.args.filter((a, i) => !(i === 0 && a === 'node')))
      } catch {
        expect = null
      }
    }
    const given =
      targets ??
      (localEndpoint && /^https?:/.test(localEndpoint) ? { http: localEndpoint } : { ipc: localEndpoint as string })
    try {
      const report = await checkRpcEndpoints({
        ...(given.http ? { http: given.http } : {}),
        ...('ws' in given && given.ws ? { ws: given.ws } : {}),
        ...(given.ipc ? { ipc: given.ipc } : {}),
        jwtSecretHex,
        expect,
        timeoutMs,
      })
      return { report, problem: null }
    } catch (err) {
      return { report: null, problem: `RPC exposure not probed: ${problemOf(err).message}` }
    }
  }

  const [local, network, validator, host, exposed] = await Promise.all([
    localFirst !== undefined ? localFirst : readLocal(),
    readNetwork(),
    readValidator(),
    readHost({ datadir, nodeInfo, state }),
    readExposure(),
  ])

  // ---- behind? one more look at both heads to tell catching up from stalled
  let localAgain: string | null = null
  let networkAgain: string | null = null
  const lag = lagFigures(local, network)
  let advancing: boolean | null = null
  if (
    lag?.blocks !== null &&
    lag?.blocks !== undefined &&
    lag.blocks > thresholds.toleranceBlocks &&
    localEndpoint &&
    networkEndpoint
  ) {
    await new Promise((r) => setTimeout(r, sampleDelayMs))
    const block = { method: 'eth_blockNumber' }
    trips.local++
    trips.network++
    const [l, n] = await Promise.all([
      rpcBatch({ endpoint: localEndpoint, calls: [block], timeoutMs, ...(headers ? { headers } : {}) }),
      rpcBatch({ endpoint: networkEndpoint, calls: [block], timeoutMs }),
    ])
    const head = (r: typeof l) =>
      r.reachable && r.answers[0]?.ok && typeof r.answers[0].result === 'string'
        ? BigInt(r.answers[0].result).toString()
        : null
    localAgain = head(l)
    networkAgain = head(n)
    if (localAgain !== null && local?.blockNumber) advancing = BigInt(localAgain) > BigInt(local.blockNumber)
  }

  if (validator.facts && local?.consensus?.scores && validator.facts.authorityId)
    validator.facts.reputationScore = local.consensus.scores[validator.facts.authorityId] ?? null

  const judged = evaluate({
    datadir,
    nodeInfo,
    nodeInfoProblem: validatorAddress === null || address === undefined ? nodeInfoProblem : null,
    localEndpoint,
    local,
    localAgain,
    networkAgain,
    network,
    networkProblem,
    expectedChainId: ctx?.target.expectedChainId ?? null,
    // a devnet mines only on demand (or after --block-time idle seconds): old commits are not stale there
    idleNetwork: ctx?.target.name === 'devnet',
    validator: validator.facts,
    validatorProblem: validator.problem,
    host,
    exposure: exposed.report,
    exposureProblem: exposed.problem,
    thresholds,
  })
  if (chosenBy)
    for (const f of judged.findings) if (f.id === 'network.rpc') f.message = `${f.message} (network: ${chosenBy})`
  const exposureProbes = exposed.report
    ? Object.values(exposed.report.transports).reduce((n, t) => n + (t ? t.namespaces.length + 1 : 0), 0)
    : 0
  return {
    level: judged.level,
    worst: judged.worst,
    exitCode: judged.exitCode,
    checkedAt: new Date(started).toISOString(),
    targets: { node: localEndpoint, network: networkEndpoint, validator: validatorAddress, datadir },
    findings: judged.findings,
    next: judged.next,
    figures: {
      local,
      network,
      lagBlocks: lag?.blocks ?? null,
      lagSeconds: lag?.seconds ?? null,
      advancing,
      validator: validator.facts,
      host,
    },
    roundTrips: {
      local: trips.local,
      network: trips.network,
      registry: registryCounter.roundTrips,
      total: trips.local + trips.network + registryCounter.roundTrips,
      exposureProbes,
    },
    wallMs: Date.now() - started,
  }
}

async function readNodeInfoQuietly(
  datadir: string,
): Promise<{ nodeInfo: NodeInfo | null; nodeInfoProblem: string | null }> {
  const { readNodeInfo } = await import('../nodeinfo/read.js')
  try {
    return { nodeInfo: (await readNodeInfo(datadir)).info, nodeInfoProblem: null }
  } catch (err) {
    return { nodeInfo: null, nodeInfoProblem: `node-info.yaml not read: ${problemOf(err).message}` }
  }
}

async function authHeaders(endpoint: string | null, secret: string | null): Promise<Record<string, string> | null> {
  if (!endpoint || !secret || !/^https?:/.test(endpoint)) return null
  const { createJwt } = await import('../rpc/jwt.js')
  return { authorization: `Bearer ${await createJwt(secret)}` }
}

function problemOf(err: unknown): { message: string; fix: string | null } {
  if (err instanceof TnvError) return { message: err.message, fix: err.fix ?? null }
  return { message: err instanceof Error ? err.message : String(err), fix: null }
}
