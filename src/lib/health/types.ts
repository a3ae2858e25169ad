/**
 * The shapes of `tnv node check`: findings (one per question an operator asks after Active),
 * the figures behind them (for --json and the Prometheus textfile) and the report.
 */

import type { RestartSummary } from '../node/run-log.js'

/** ok: nothing to do; warn: look at it soon; fail: act now; skip: not checked here (says why). */
export type FindingLevel = 'ok' | 'warn' | 'fail' | 'skip'

export type FindingArea = 'node' | 'network' | 'validator' | 'host'

export type Finding = {
  /** Stable identifier (`node.sync`, `validator.committee`, …): monitors and tests key on it. */
  id: string
  area: FindingArea
  level: FindingLevel
  /** One line: what was found. */
  message: string
  /** What to do about it; null when nothing is to be done. */
  fix: string | null
  /**
   * Under --watch (or a single check with --hold): the level this check observed when it differs
   * from `level` and has not held over the hold window yet (`level` is the one reported before);
   * absent otherwise.
   */
  pending?: { level: FindingLevel; sinceSeconds: number }
}

/** Nagios-style exit code of the whole check: 0 ok (skips included), 1 a warning, 2 a failure. */
export type CheckExitCode = 0 | 1 | 2

/** What one endpoint said, from one batched round trip (null: not served, not reachable or unusable). */
export type EndpointSnapshot = {
  endpoint: string
  reachable: boolean
  /** Why it could not be read, when not reachable. */
  error: string | null
  chainId: number | null
  blockNumber: string | null
  /** The latest block's timestamp, Unix seconds. */
  blockTime: number | null
  nodeMode: string | null
  consensus: {
    method: 'tn_latestConsensusHeader' | 'tn_latestHeader'
    number: string
    commitTimestamp: number | null
    ageSeconds: number | null
    /** `sub_dag.reputation_score.scores_per_authority`, when present. */
    scores: Record<string, number> | null
    /** `sub_dag.leader.author`, when present. */
    leader: string | null
  } | null
  /** `tn_info` (local node only). */
  info: TnInfo | null
  /** Methods that answered an error other than -32601, or a shape tnv does not read. */
  unusable: string[]
}

export type TnInfo = {
  chainId: number | null
  version: string | null
  name: string | null
  blsPublicKey: string | null
  authorityId: string | null
  executionAddress: string | null
  /** The libp2p protobuf public key, 0x hex (tnv's one JSON shape for keys). */
  primaryNetworkKey: `0x${string}` | null
  /** The same bytes in base58 (node-info.yaml's `network_key`). */
  primaryNetworkKeyBase58: string | null
  workerNetworkKey: `0x${string}` | null
  workerNetworkKeyBase58: string | null
}

export type HostFacts = {
  /** Free bytes on the file system of the data directory (null: not measurable). */
  diskFreeBytes: number | null
  diskTotalBytes: number | null
  /** The p2p UDP ports of node-info.yaml and who binds them (null where /proc is not available). */
  udpPorts: { address: string; port: number; bound: boolean | null; byNode: boolean | null }[]
  /** The node tnv started (tnv-node.json), or null when tnv did not start it. */
  process: {
    pid: number
    running: boolean
    startedAt: string
    uptimeSeconds: number | null
    binary: string
    /** tnv's own reference node (no p2p stack). */
    referenceNode: boolean
  } | null
  /**
   * Starts and exits of the nodes tnv started here (the run log, <datadir>/tnv-node-runs.json),
   * or null when tnv never started one for this data directory.
   */
  restarts: ({ logFile: string } & RestartSummary) | null
}

export type ValidatorFacts = {
  address: string
  whitelisted: boolean
  status: string
  activationEpoch: number | null
  exitEpoch: number | null
  currentEpoch: number
  inCommittee: boolean
  /** In the committee of the next epoch (getEpochInfo(current + 1)); null when the registry does not say. */
  inNextCommittee: boolean | null
  rewards: string
  blsPubkey: string | null
  /** This validator's authority id (base58 BLAKE3 of its BLS key), the key of the header's reputation scores. */
  authorityId: string | null
  /** Its reputation score in the local node's latest consensus header, null when not listed or not served. */
  reputationScore: number | null
  secondsToNextEpoch: number | null
  registry: { generation: string | null; codeHash: string | null }
}

export type NodeCheckFigures = {
  local: EndpointSnapshot | null
  network: EndpointSnapshot | null
  /** network − local, in blocks (null when either is unknown). */
  lagBlocks: number | null
  /** network's latest block time − local's, seconds. */
  lagSeconds: number | null
  /** Whether the local head moved between the two samples taken when it was behind; null when one sample sufficed. */
  advancing: boolean | null
  validator: ValidatorFacts | null
  host: HostFacts
}

export type NodeCheckReport = {
  /** The worst level (skip counts as ok). */
  level: 'ok' | 'warn' | 'fail'
  /** The id of the first finding at that level (the summary line names it); null when every finding is ok. */
  worst: string | null
  exitCode: CheckExitCode
  checkedAt: string
  /** What was compared: the local node, the network's endpoint, the validator address. */
  targets: { node: string | null; network: string | null; validator: string | null; datadir: string }
  findings: Finding[]
  /** The single most useful next step for the operator. */
  next: string
  figures: NodeCheckFigures
  /** Round trips per party; the exposure probes are listed separately (one call per probe, not batched). */
  roundTrips: { local: number; network: number; registry: number; total: number; exposureProbes: number }
  wallMs: number
}
