/**
 * Shapes shared by the key guard (./fence.ts, ./doppelganger.ts), its errors and the upgrade
 * journal, kept apart so that the errors import no operation.
 */
import type { SupervisorRef } from './supervisor.js'

/** How long after this host's own node exited the doppelganger watch begins. */
export const RECENT_STOP_GRACE_MS = 5_000

export type DoppelgangerEvidence = {
  header: number
  commitTimestamp: number
  kind: 'led' | 'score'
  /** The authority's score in this header, and in the header polled before it (kind `score`). */
  score: number | null
  previousScore: number | null
}

export type DoppelgangerVerdict = 'silent' | 'active' | 'not-registered' | 'not-in-committee' | 'inconclusive'

export type CheckDoppelgangerReturnType = {
  verdict: DoppelgangerVerdict
  endpoint: string
  authorityId: string
  blsPublicKey: `0x${string}`
  epoch: number | null
  committeeSize: number | null
  /** Not seated now: whether it sits in the next epoch's committee (a copy would show from then). */
  seatedNext: boolean | null
  windowSeconds: number
  minHeaders: number
  /** New headers seen during the window (after the first one polled). */
  headersSeen: number
  firstHeader: number | null
  lastHeader: number | null
  waitedMs: number
  evidence: DoppelgangerEvidence[]
}

/** One identity of the key a data directory holds. */
export type KeyIdentity = {
  /** `authority:<base58 BLAKE3 of the public key>` or `file:<sha256 of bls.kw>`. */
  id: string
  /** 0x hex of the compressed public key, when known. */
  blsPublicKey: `0x${string}` | null
  authorityId: string | null
}

export type FenceEntry = {
  version: 1
  id: string
  /** The network the node joins (see takeKeyFence). */
  network: string
  blsPublicKey: `0x${string}` | null
  /** The data directory, resolved (symbolic links followed). */
  datadir: string
  host: string
  /** The tnv process that took the entry. */
  tnvPid: number
  command: string
  since: string
}

export type UpgradeStepName = 'preflight' | 'window' | 'keep-old' | 'stop' | 'swap' | 'start' | 'verify' | 'rollback'

export type UpgradeJournal = {
  version: 1
  op: 'upgrade' | 'restart'
  startedAt: string
  datadir: string
  /** The path the node runs from (the old binary before the swap, the new one after). */
  binary: string
  newBinary: string | null
  previous: string | null
  oldSha256: string
  newSha256: string | null
  oldVersion: string | null
  newVersion: string | null
  /** The node's flags after `node` (with its --datadir). */
  nodeFlags: string[]
  /** What the old node reported before the restart. */
  oldMode: string | null
  /** Who stops and starts the node (absent in journals written before systemd was supported: tnv). */
  supervisor?: SupervisorRef
  done: UpgradeStepName[]
  phase: 'forward' | 'rollback'
  outcome: 'done' | 'rolled-back' | 'failed' | null
  failure: string | null
}
