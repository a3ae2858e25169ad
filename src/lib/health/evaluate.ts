/**
 * Judges what a node check read: one finding per question, each with a level and a fix, and the
 * single next step. Pure: everything it needs is passed in, so every health state has a unit test
 * besides the end-to-end ones. Thresholds follow the real tools where they have one (a commit older
 * than 60 s is stale: the deployment scripts' check-node.sh) and are flags where they do not.
 */

import { formatTel } from '../chain/units.js'
import { STALE_COMMIT_SECONDS } from '../node/health.js'
import type { NodeInfo } from '../nodeinfo/types.js'
import type { RpcCheckReport } from '../rpc/types.js'
import { authorityIdOf } from './read-validator-health.js'
import type {
  CheckExitCode,
  EndpointSnapshot,
  Finding,
  FindingArea,
  FindingLevel,
  HostFacts,
  ValidatorFacts,
} from './types.js'

export type Thresholds = {
  /** Blocks of difference still "in step" (the two reads are not simultaneous). */
  toleranceBlocks: number
  /** A commit older than this is stale. */
  staleSeconds: number
  /** Free disk below this warns; below a quarter of it fails. */
  minFreeBytes: number
  /** This many unclean exits within an hour is a crash loop (fail); fewer, within a day, warn. */
  crashLoopExits: number
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  toleranceBlocks: 2,
  staleSeconds: STALE_COMMIT_SECONDS,
  minFreeBytes: 50 * 2 ** 30,
  crashLoopExits: 3,
}

export type EvaluateParameters = {
  datadir: string
  nodeInfo: NodeInfo | null
  /** Why node-info.yaml could not be read (null: read, or absent without being needed). */
  nodeInfoProblem: string | null
  /** The local endpoint dialled, or null when there was none to dial. */
  localEndpoint: string | null
  local: EndpointSnapshot | null
  /** The local head a moment later, read only when it was behind (null otherwise). */
  localAgain: string | null
  /** The network's head at that second read. */
  networkAgain: string | null
  network: EndpointSnapshot | null
  /** Why there is no network endpoint (resolution failed), when there is none. */
  networkProblem: string | null
  expectedChainId: number | null
  /** The network produces blocks only on demand (an idle devnet): old commits are not stale there. */
  idleNetwork: boolean
  validator: ValidatorFacts | null
  /** Why the registry could not be read; `unreachable` (the endpoint did not answer) warns, anything else (wrong chain, unknown code) fails. */
  validatorProblem: { message: string; fix: string | null; unreachable?: boolean } | null
  host: HostFacts
  exposure: RpcCheckReport | null
  exposureProblem: string | null
  thresholds?: Thresholds
}

export type EvaluateReturnType = {
  findings: Finding[]
  next: string
  level: 'ok' | 'warn' | 'fail'
  exitCode: CheckExitCode
  /** The id of the first finding at the worst level (the summary line names it); null when all are ok. */
  worst: string | null
}

const EXIT: Record<'ok' | 'warn' | 'fail', CheckExitCode> = { ok: 0, warn: 1, fail: 2 }

/**
 * Judges one check: each step below answers one question with one finding (or none), in the
 * order the report lists them; then the summary (worst level, exit code, next step).
 * @example const { findings, level, exitCode } = evaluate({ datadir, local, network, … })
 */
export function evaluate(p: EvaluateParameters): EvaluateReturnType {
  const findings: Finding[] = []
  const c: Judging = {
    p,
    t: p.thresholds ?? DEFAULT_THRESHOLDS,
    local: p.local?.reachable ? p.local : null,
    network: p.network?.reachable ? p.network : null,
    nodeStart: `tnv node start --detach --datadir ${p.datadir} -- <node flags>`,
    add: (id, area, level, message, fix = null) => {
      findings.push({ id, area, level, message, fix })
    },
  }
  for (const step of STEPS) step(c)
  const v = p.validator
  if (v?.status === 'Retired') retiredIsInformational(findings)
  return { findings, ...summarize(findings, v) }
}

/** What every step reads: the inputs, the thresholds, the endpoints that answered, and where findings go. */
type Judging = {
  p: EvaluateParameters
  t: Thresholds
  local: EndpointSnapshot | null
  network: EndpointSnapshot | null
  nodeStart: string
  /** Records a finding (returns nothing: a step may `return add(…)`). */
  add: (id: string, area: FindingArea, level: FindingLevel, message: string, fix?: string | null) => undefined
}

const STEPS: ((c: Judging) => undefined)[] = [
  judgeProcess,
  judgeLocalRpc,
  judgeNetworkRpc,
  judgeChains,
  judgeSync,
  judgeConsensus,
  judgeIdentity,
  judgeValidatorStatus,
  judgeCommittee,
  judgeNodeMode,
  judgeAuthoring,
  judgeRewards,
  judgeDisk,
  judgeP2p,
  judgeRestarts,
  judgeExposure,
]

/** node.process: the node tnv started runs (fail when it does not). */
function judgeProcess({ p, add, nodeStart }: Judging): undefined {
  const proc = p.host.process
  const runs = p.host.restarts
  if (proc && !proc.running) {
    const last = runs?.lastUnclean && runs.lastUnclean.pid === proc.pid ? runs.lastUnclean : null
    add(
      'node.process',
      'node',
      'fail',
      `the node tnv started (pid ${proc.pid}, ${proc.startedAt}) is not running${last ? `: ${last.reason}` : ''}`,
      `Read its log, then start it again: ${nodeStart}.`,
    )
  } else if (proc)
    add(
      'node.process',
      'node',
      'ok',
      `pid ${proc.pid} running${proc.uptimeSeconds !== null ? ` for ${duration(proc.uptimeSeconds)}` : ''} (started by tnv)`,
    )
}

/** node.rpc: there is a local node to check, and it answers. */
function judgeLocalRpc({ p, local, add, nodeStart }: Judging): undefined {
  if (p.localEndpoint === null)
    add(
      'node.rpc',
      'node',
      'fail',
      `no local node to check: tnv started none for ${p.datadir} and --node-rpc-url was not given`,
      `Start it with ${nodeStart}, or pass --node-rpc-url <http URL or IPC path of your node>.`,
    )
  else if (!local)
    add(
      'node.rpc',
      'node',
      'fail',
      `the local node at ${p.localEndpoint} does not answer: ${p.local?.error ?? 'no answer'}`,
      'Check that the node runs and serves this endpoint (tnv node status, its log), or pass the right --node-rpc-url.',
    )
  else add('node.rpc', 'node', 'ok', `the local node answers at ${p.localEndpoint} (one batched round trip)`)
}

/** network.rpc: an endpoint of the network to compare with (warn without one: the node is judged alone). */
function judgeNetworkRpc({ p, network, add }: Judging): undefined {
  if (p.networkProblem !== null)
    add(
      'network.rpc',
      'network',
      'warn',
      `no network endpoint to compare with: ${p.networkProblem}`,
      'Pass --rpc-url <a public endpoint of the network you trust> (or --chain).',
    )
  else if (!network)
    add(
      'network.rpc',
      'network',
      'warn',
      `the network endpoint ${p.network?.endpoint ?? '?'} does not answer: ${p.network?.error ?? 'no answer'}; the node cannot be compared with the network`,
      'Retry later, or pass --rpc-url with another endpoint of the same network.',
    )
  else add('network.rpc', 'network', 'ok', `the network endpoint ${network.endpoint} answers`)
}

/** network.chain and node.chain: both ends serve the chain id expected. */
function judgeChains({ p, local, network, add }: Judging): undefined {
  const expected = p.expectedChainId
  if (network && expected !== null && network.chainId !== null && network.chainId !== expected)
    add(
      'network.chain',
      'network',
      'fail',
      `the network endpoint serves chain id ${network.chainId}, not ${expected}`,
      'Point --rpc-url at an endpoint of the network you meant, or fix --chain / --chain-id.',
    )
  const wanted = expected ?? network?.chainId ?? null
  if (!local || local.chainId === null) return
  if (wanted !== null && local.chainId !== wanted)
    add(
      'node.chain',
      'node',
      'fail',
      `the local node is on chain id ${local.chainId}, the network is ${wanted}: it runs the wrong chain`,
      'Restart the node with the network’s genesis (--chain adiri for the test network), or check --chain here.',
    )
  else add('node.chain', 'node', 'ok', `chain id ${local.chainId}`)
}

/** node.sync: execution height against the network (within the tolerance, lagging, stalled). */
function judgeSync({ p, t, local, network, add }: Judging): undefined {
  const lag = lagOf(local, network)
  if (local && !network) return add('node.sync', 'node', 'skip', 'not compared: the network endpoint is not available')
  if (!local || !network || lag === null || lag.blocks === null) return
  const { blocks, seconds } = lag
  const behind = `${blocks} blocks${seconds !== null ? ` (${seconds} s)` : ''}`
  if (Math.abs(blocks) <= t.toleranceBlocks)
    return add('node.sync', 'node', 'ok', `in step: block ${local.blockNumber}, network ${network.blockNumber}`)
  if (blocks < 0)
    return add(
      'node.sync',
      'node',
      'warn',
      `the network endpoint is ${-blocks} blocks behind the local node (block ${local.blockNumber}, network ${network.blockNumber})`,
      'The public endpoint may lag; compare with another one (--rpc-url).',
    )
  const moved =
    p.localAgain !== null && local.blockNumber !== null ? BigInt(p.localAgain) > BigInt(local.blockNumber) : null
  if (moved === false)
    add(
      'node.sync',
      'node',
      'fail',
      `stalled: block ${local.blockNumber}, ${behind} behind the network, and its head did not move while the network's ${p.networkAgain !== null && p.networkAgain !== network.blockNumber ? `moved to ${p.networkAgain}` : 'stood'}`,
      'Read the node log for errors (peers, disk, database), check its p2p ports are reachable, then restart it.',
    )
  else
    add(
      'node.sync',
      'node',
      'warn',
      `lagging ${behind} behind the network${moved ? `, catching up (block ${local.blockNumber} → ${p.localAgain})` : ''}`,
      'Let it catch up (tnv node sync waits until it has); if the lag keeps growing, read the node log.',
    )
}

/** node.consensus: the latest consensus header is recent (stale after 60 s unless the network is idle too). */
function judgeConsensus({ p, t, local, network, add }: Judging): undefined {
  if (!local) return
  const c = local.consensus
  if (c === null)
    return add(
      'node.consensus',
      'node',
      'skip',
      'tn_latestConsensusHeader is not served on this endpoint: judged by blocks alone',
    )
  if (c.number === '0')
    return add(
      'node.consensus',
      'node',
      'warn',
      'consensus header 0: the node has committed nothing yet',
      'Wait for it to join consensus; if it stays at 0, read the node log.',
    )
  if (c.ageSeconds === null || c.ageSeconds <= t.staleSeconds)
    return add(
      'node.consensus',
      'node',
      'ok',
      `consensus header ${c.number}${c.ageSeconds !== null ? `, committed ${c.ageSeconds} s ago` : ''} (${c.method})`,
    )
  const networkAge = network?.consensus?.ageSeconds ?? null
  if (p.idleNetwork || (networkAge !== null && networkAge > t.staleSeconds))
    add(
      'node.consensus',
      'node',
      'ok',
      `consensus header ${c.number}, committed ${c.ageSeconds} s ago; the network is idle too`,
    )
  else
    add(
      'node.consensus',
      'node',
      'fail',
      `consensus header ${c.number} committed ${c.ageSeconds} s ago (stale after ${t.staleSeconds} s)${networkAge !== null ? `; the network committed ${networkAge} s ago` : ''}`,
      'The node stopped following consensus: read its log, check peers and p2p ports, restart it.',
    )
}

/** node.identity: tn_info against node-info.yaml (the node runs this data directory's keys). */
function judgeIdentity({ p, local, add }: Judging): undefined {
  if (!(local && p.nodeInfo)) {
    if (p.nodeInfoProblem)
      add('node.identity', 'node', 'warn', p.nodeInfoProblem, 'Pass --datadir with the node’s data directory.')
    return
  }
  const info = local.info
  if (info === null)
    return add('node.identity', 'node', 'skip', 'tn_info is not served on this endpoint: identity not compared')
  const ni = p.nodeInfo
  const keyHex = `0x${Buffer.from(ni.blsPublicKey).toString('hex')}`
  const diffs: string[] = []
  if (info.blsPublicKey !== null && info.blsPublicKey.toLowerCase() !== keyHex) diffs.push('bls_public_key')
  if (info.executionAddress !== null && info.executionAddress.toLowerCase() !== ni.executionAddress.toLowerCase())
    diffs.push('execution_address')
  if (info.primaryNetworkKeyBase58 !== null && info.primaryNetworkKeyBase58 !== ni.primary.networkKey)
    diffs.push('primary network key')
  const w = ni.workers[0]
  if (info.workerNetworkKeyBase58 !== null && w && info.workerNetworkKeyBase58 !== w.networkKey)
    diffs.push('worker network key')
  if (info.authorityId !== null && info.authorityId !== authorityIdOf(ni.blsPublicKey)) diffs.push('authority id')
  if (diffs.length)
    add(
      'node.identity',
      'node',
      'fail',
      `the node runs other keys than node-info.yaml in ${p.datadir}: ${diffs.join(', ')} differ`,
      'Start the node with this data directory (--datadir), or check this command’s --datadir.',
    )
  else
    add(
      'node.identity',
      'node',
      'ok',
      `tn_info matches node-info.yaml (authority ${info.authorityId ?? authorityIdOf(ni.blsPublicKey)})`,
    )
}

/**
 * Registry statuses that need nothing from the operator: the normal path (Staked, PendingActivation,
 * Active), an exit on its way (PendingExit: the protocol completes it) and its end (Retired: paid
 * out, informational). Exited waits for `tnv unstake` (warn: the stake is waiting to be claimed).
 */
const STATUS_OK = new Set(['Staked', 'PendingActivation', 'Active', 'PendingExit', 'Retired'])

/** validator.registry and validator.status: the registry read, and where the validator stands in it. */
function judgeValidatorStatus({ p, add }: Judging): undefined {
  const v = p.validator
  if (p.validatorProblem)
    return add(
      'validator.registry',
      'validator',
      p.validatorProblem.unreachable ? 'warn' : 'fail',
      p.validatorProblem.message,
      p.validatorProblem.fix,
    )
  if (!v) return
  if (!v.whitelisted && v.status === 'Undefined')
    add(
      'validator.status',
      'validator',
      'warn',
      `${v.address} holds no ConsensusNFT: not whitelisted`,
      'Ask the network’s governance to whitelist it; then tnv stake.',
    )
  else if (v.status === 'Undefined')
    add('validator.status', 'validator', 'warn', 'whitelisted, not staked', `Stake: tnv stake --datadir ${p.datadir}.`)
  else if (v.status === 'Retired')
    add(
      'validator.status',
      'validator',
      'ok',
      `Retired in epoch ${v.currentEpoch}: unstaked and paid out (informational)`,
    )
  else
    add(
      'validator.status',
      'validator',
      STATUS_OK.has(v.status) ? 'ok' : 'warn',
      `${v.status} in epoch ${v.currentEpoch}${v.activationEpoch !== null ? `, active since epoch ${v.activationEpoch}` : ''}${v.exitEpoch !== null ? `, exit epoch ${v.exitEpoch}` : ''}`,
      v.status === 'Exited' ? 'Unstake: tnv unstake.' : null,
    )
}

/**
 * validator.committee: the seat now and next epoch. Committees are drawn each epoch from the
 * Active (and PendingActivation) validators, shuffled and cut to the committee size
 * (real-network/node.md §6): an Active validator without a seat is the draw, not a fault (ok).
 */
function judgeCommittee({ p, add }: Judging): undefined {
  const v = p.validator
  if (p.validatorProblem || !v || v.status === 'Retired') return
  const seat = v.inCommittee ? 'in the committee now' : 'not in the committee now'
  const nextSeat =
    v.inNextCommittee === null ? 'next epoch unknown' : v.inNextCommittee ? 'and next epoch' : 'not next epoch'
  if (v.status === 'Active' && !v.inCommittee && v.inNextCommittee !== true)
    add(
      'validator.committee',
      'validator',
      'ok',
      `Active, ${seat}, ${nextSeat}: not drawn this epoch (committees are drawn each epoch from the Active validators)`,
    )
  else
    add('validator.committee', 'validator', v.inCommittee || v.inNextCommittee ? 'ok' : 'skip', `${seat}, ${nextSeat}`)
}

/** node.mode: tn_nodeMode fits the seat (CvvActive in the committee; Observer without a seat). */
function judgeNodeMode({ p, local, add }: Judging): undefined {
  const v = p.validator
  if (p.validatorProblem || !v || !local || local.nodeMode === null) return
  const mode = local.nodeMode
  if (v.inCommittee && mode === 'CvvActive') add('node.mode', 'node', 'ok', 'CvvActive: voting in the committee')
  else if (v.inCommittee && mode === 'CvvInactive')
    add(
      'node.mode',
      'node',
      'warn',
      'CvvInactive: a committee member still catching up, not voting yet',
      'Let it catch up; if it stays CvvInactive, read the node log.',
    )
  else if (v.inCommittee)
    add(
      'node.mode',
      'node',
      'fail',
      `${mode}: the validator sits in the committee but this node does not vote for it`,
      'Start the node with the validator’s keys (its data directory), not as an observer.',
    )
  else add('node.mode', 'node', mode === 'CvvInactive' ? 'warn' : 'ok', `${mode} (not in the committee this epoch)`)
}

/**
 * Leader turns every committee member has had, on average, before a score of 0 is read as "not
 * authoring". Scores count from the start of the epoch (the header's
 * `sub_dag.reputation_score.scores_per_authority`, one entry per committee member; the registry's
 * applyIncentives credits the same per-leader counts at the epoch's close, node.md §6): early in an
 * epoch most members have led nothing yet, so a 0 there is the schedule, not a fault.
 */
export const AUTHORING_TURNS = 2

/** validator.authoring: its reputation score in the latest consensus header (a seat only). */
function judgeAuthoring({ p, local, add }: Judging): undefined {
  const v = p.validator
  const scores = local?.consensus?.scores ?? null
  if (p.validatorProblem || !v || !v.inCommittee || !local?.consensus) return
  const score = scores && v.authorityId !== null ? (scores[v.authorityId] ?? null) : null
  if (score === null)
    return add(
      'validator.authoring',
      'validator',
      'skip',
      'the latest consensus header lists no reputation for this validator',
    )
  if (score > 0)
    return add('validator.authoring', 'validator', 'ok', `reputation score ${score} in the latest consensus header`)
  const members = Object.keys(scores ?? {}).length
  const total = Object.values(scores ?? {}).reduce((n, x) => n + x, 0)
  if (total < AUTHORING_TURNS * members)
    add(
      'validator.authoring',
      'validator',
      'ok',
      `reputation score 0: early in the epoch (${total} leader turns for ${members} members so far; judged after ${AUTHORING_TURNS * members})`,
    )
  else
    add(
      'validator.authoring',
      'validator',
      'warn',
      `reputation score 0 after ${total} leader turns of ${members} members this epoch: it authored no leader`,
      'Check the node is in step and its p2p ports reachable from the other validators.',
    )
}

/** validator.rewards: what can be claimed (informational). */
function judgeRewards({ p, add }: Judging): undefined {
  const v = p.validator
  if (p.validatorProblem || !v) return
  const rewards = BigInt(v.rewards)
  add(
    'validator.rewards',
    'validator',
    'ok',
    rewards > 0n ? `${formatTel(rewards)} claimable (tnv rewards claim)` : 'no rewards accrued',
  )
}

/** host.disk: free space in the data directory (warn below the threshold, fail below a quarter of it). */
function judgeDisk({ p, t, add }: Judging): undefined {
  const disk = p.host.diskFreeBytes
  if (disk === null) return add('host.disk', 'host', 'skip', `free space of ${p.datadir} not measurable here`)
  const gib = (n: number) => `${(n / 2 ** 30).toFixed(1)} GiB`
  const level: FindingLevel = disk < t.minFreeBytes / 4 ? 'fail' : disk < t.minFreeBytes ? 'warn' : 'ok'
  add(
    'host.disk',
    'host',
    level,
    `${gib(disk)} free in ${p.datadir}${level === 'ok' ? '' : ` (below ${gib(level === 'fail' ? t.minFreeBytes / 4 : t.minFreeBytes)})`}`,
    level === 'ok' ? null : 'Free space or move the data directory to a larger disk before the node stops writing.',
  )
}

/** host.p2p: the UDP ports of node-info.yaml are bound on this host, by the node. */
function judgeP2p({ p, add }: Judging): undefined {
  const udp = p.host.udpPorts
  if (udp.length === 0)
    return add(
      'host.p2p',
      'host',
      'skip',
      p.nodeInfo ? 'node-info.yaml names no UDP port' : 'no node-info.yaml: p2p ports unknown',
    )
  if (p.host.process?.referenceNode)
    return add(
      'host.p2p',
      'host',
      'skip',
      `tnv's reference node has no p2p stack: UDP ${ports(udp)} not expected bound`,
    )
  if (udp.some((u) => u.bound === null))
    return add('host.p2p', 'host', 'skip', 'UDP ports not checked: /proc is not available on this host')
  const unbound = udp.filter((u) => !u.bound)
  const foreign = udp.filter((u) => u.bound && u.byNode === false)
  if (unbound.length)
    add(
      'host.p2p',
      'host',
      'fail',
      `UDP ${ports(unbound)} of node-info.yaml not bound on this host: peers cannot reach the node`,
      'Start the node on this host; behind NAT, set PRIMARY/WORKER_LISTENER_MULTIADDR to the local ports and forward the public ones.',
    )
  else if (foreign.length)
    add(
      'host.p2p',
      'host',
      'warn',
      `UDP ${ports(foreign)} bound, but not by the node tnv started`,
      'Find the process that holds the port (ss -ulpn).',
    )
  else add('host.p2p', 'host', 'ok', `UDP ${ports(udp)} bound${p.host.process ? ' by the node' : ''}`)
}

/** host.restarts: unclean exits in the run log (a crash loop fails, a crash within a day warns). */
function judgeRestarts({ p, t, add }: Judging): undefined {
  const runs = p.host.restarts
  if (runs === null)
    return add('host.restarts', 'host', 'skip', `tnv started no node for ${p.datadir}: no run log to count restarts in`)
  const last = runs.lastUnclean
  const counts = `${runs.starts1h} start${runs.starts1h === 1 ? '' : 's'} in the last hour, ${runs.starts24h} in 24 h; ${runs.unclean1h} unclean exit${runs.unclean1h === 1 ? '' : 's'} in the last hour, ${runs.unclean24h} in 24 h`
  const lastText = last
    ? `last unclean exit ${last.exitedAt} (pid ${last.pid}): ${last.reason}${last.restarted ? '; tnv restarted it' : ''}`
    : ''
  if (runs.unclean1h >= t.crashLoopExits)
    add(
      'host.restarts',
      'host',
      'fail',
      `crash-looping: ${counts}; ${lastText}`,
      'Stop restarting it and find the cause in the node log (the lines before each exit); a restart policy only repeats the crash.',
    )
  else if (runs.unclean24h > 0)
    add(
      'host.restarts',
      'host',
      'warn',
      `${counts}; ${lastText}`,
      last?.restarted
        ? `Read the node log around ${last.exitedAt} for the cause of the crash.`
        : `Read the node log around ${last?.exitedAt ?? 'the exit'} for the cause; to restart it after a crash, run it under a service manager (systemd Restart=on-failure) or tnv node start --restart on-failure.`,
    )
  else add('host.restarts', 'host', 'ok', `${counts}${last ? ` (${lastText})` : ''}`)
}

/** node.rpc-exposure: `tnv rpc check`'s verdict on the endpoints the node was started with. */
function judgeExposure({ p, add }: Judging): undefined {
  const e = p.exposure
  if (!e) {
    if (p.exposureProblem) add('node.rpc-exposure', 'node', 'skip', p.exposureProblem)
    return
  }
  if (e.exposures.length)
    add(
      'node.rpc-exposure',
      'node',
      'fail',
      e.exposures.join(' '),
      'Bind the RPC to 127.0.0.1 or require a JWT (--rpc.jwtsecret); see tnv rpc check.',
    )
  else if (e.mismatches.length || e.failures.length)
    add(
      'node.rpc-exposure',
      'node',
      'warn',
      [...e.mismatches, ...e.failures].join(' '),
      'Run tnv rpc check for the details.',
    )
  else
    add('node.rpc-exposure', 'node', 'ok', `namespaces as planned, nothing exposed (${e.behaviour.judgedAs} behaviour)`)
}

/**
 * A retired validator (unstaked and paid out) needs no node: what the node and host steps found
 * is informational (ok, said so), so a retired validator's check can exit 0. The registry and
 * network findings keep their levels (a wrong chain is still wrong).
 */
function retiredIsInformational(findings: Finding[]): void {
  for (const f of findings)
    if ((f.area === 'node' || f.area === 'host') && (f.level === 'warn' || f.level === 'fail')) {
      f.message = `${f.message} (informational: the validator is retired, no node is needed)`
      f.level = 'ok'
      f.fix = null
    }
}

/** The worst level of `findings` (skip counts as ok), its exit code and the next step. */
export function summarize(findings: Finding[], v: ValidatorFacts | null): Omit<EvaluateReturnType, 'findings'> {
  const level = findings.some((f) => f.level === 'fail')
    ? 'fail'
    : findings.some((f) => f.level === 'warn')
      ? 'warn'
      : 'ok'
  const worst = level === 'ok' ? null : (findings.find((f) => f.level === level)?.id ?? null)
  return { next: nextStep(findings, v), level, exitCode: EXIT[level], worst }
}

function lagOf(
  local: EndpointSnapshot | null,
  network: EndpointSnapshot | null,
): { blocks: number | null; seconds: number | null } | null {
  if (!local || !network || local.blockNumber === null || network.blockNumber === null) return null
  return {
    blocks: Number(BigInt(network.blockNumber) - BigInt(local.blockNumber)),
    seconds: local.blockTime !== null && network.blockTime !== null ? network.blockTime - local.blockTime : null,
  }
}

export function lagFigures(local: EndpointSnapshot | null, network: EndpointSnapshot | null) {
  return lagOf(local?.reachable ? local : null, network?.reachable ? network : null)
}

/** The first failure's fix, else the first warning's, else what the validator's status calls for. */
function nextStep(findings: Finding[], v: ValidatorFacts | null): string {
  for (const level of ['fail', 'warn'] as const) {
    const f = findings.find((x) => x.level === level && x.fix)
    if (f?.fix) return f.fix
  }
  if (!v) return 'Nothing to do.'
  switch (v.status) {
    case 'Staked':
      return 'The node is in step: activate the validator (tnv activate).'
    case 'PendingActivation':
      return `Wait for the next epoch${v.secondsToNextEpoch !== null ? ` (about ${v.secondsToNextEpoch} s)` : ''}: the validator becomes Active then.`
    case 'PendingExit':
      return 'Wait: the exit completes once the validator has no committee seat in this or the next two epochs.'
    case 'Exited':
      return 'Unstake: tnv unstake.'
    case 'Retired':
      return 'Nothing to do: the validator is retired.'
    default:
      return BigInt(v.rewards) > 0n
        ? 'Healthy. Rewards can be claimed with tnv rewards claim.'
        : 'Healthy: nothing to do.'
  }
}

function ports(list: HostFacts['udpPorts']): string {
  return list.map((u) => u.port).join(', ')
}

function duration(s: number): string {
  if (s < 120) return `${s} s`
  if (s < 7200) return `${Math.round(s / 60)} min`
  if (s < 172800) return `${Math.round(s / 3600)} h`
  return `${Math.round(s / 86400)} d`
}
