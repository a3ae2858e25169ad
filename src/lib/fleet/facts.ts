/**
 * `tnv facts`: one document per data directory, for automation (Ansible facts, inventories,
 * audits), composed from the operations tnv already has, each answering one section:
 * - identity and key files: `keytool show` (describeNode; reads no secret);
 * - key checks: `keytool verify` (verifyNodeKeys), only when the caller can open the key; else
 *   the section says why it was not run;
 * - backup: the backup record (backupStatus: a verified backup or a confirmed recovery phrase);
 * - node process: `node status` (nodeStatus);
 * - health, registry status, epoch and committee: `node check` (checkNode: its findings and figures).
 *
 * Guarantees: a section that cannot be read is `{ error }` (code, message, fix) and the others
 * are still read; nothing is sent or printed, and no key, setting or node is changed (the reads
 * keep tnv's own records as they always do: a node found dead goes into the run log); no secret
 * is in the document (the key is opened only to compare public values).
 */
import type { Address } from 'viem'
import { TnvError } from '../errors.js'
import { checkNode } from '../health/check-node.js'
import type { Finding, NodeCheckReport } from '../health/types.js'
import { backupStatus } from '../keys/backup-record.js'
import { describeNode } from '../keys/describe-node.js'
import type { OpenBlsKeyReturnType } from '../keys/open-key.js'
import { verifyNodeKeys } from '../keys/verify-node-keys.js'
import { type NodeStatus, nodeStatus } from '../node/status.js'
import type { ChainFlagValues } from '../options.js'

export type SectionError = { error: { code: string; message: string; fix: string | null } }

/** How the key checks are run: with an opener, or not (and why). */
export type KeyAccess = { open: () => Promise<OpenBlsKeyReturnType> } | { unavailable: string }

export type CollectFactsParameters = {
  datadir: string
  chain: ChainFlagValues
  keys: KeyAccess
  /** The local node's endpoint, when it is not the one tnv started for datadir. */
  nodeUrl?: string | undefined
  address?: Address | undefined
  /** Probe RPC exposure in the health check (default false: facts are cheap). */
  exposure?: boolean
  timeoutMs?: number
}

export type Facts = {
  schema: 'tnv-facts/1'
  datadir: string
  collectedAt: string
  identity:
    | {
        name: string
        executionAddress: string
        blsPublicKey: string
        primary: unknown
        workers: unknown[]
      }
    | SectionError
  keys:
    | {
        nodeInfo: string
        keyFile: { path: string; encrypted: boolean; mode: string } | null
        proofOfPossessionValid: boolean
        warnings: string[]
        /** `keytool verify`: ok with each check, or null with the reason it was not run. */
        verified:
          | { ok: boolean; checks: { field: string; ok: boolean; detail: string }[] }
          | { ok: null; reason: string }
      }
    | SectionError
  backup: { ok: boolean; how: string | null; at: string | null; reason: string | null } | SectionError
  node: NodeStatus | SectionError
  health:
    | { level: NodeCheckReport['level']; exitCode: number; next: string; findings: Finding[]; wallMs: number }
    | SectionError
  registry: {
    validator: string
    whitelisted: boolean
    status: string
    activationEpoch: number | null
    exitEpoch: number | null
    rewards: string
  } | null
  epoch: {
    current: number
    secondsToNextEpoch: number | null
    inCommittee: boolean
    inNextCommittee: boolean | null
  } | null
  /** The worst of the health level and the sections that could not be read (fail). */
  attention: 'ok' | 'warn' | 'fail'
}

function sectionError(err: unknown): SectionError {
  if (err instanceof TnvError) return { error: { code: err.code, message: err.message, fix: err.fix ?? null } }
  return { error: { code: 'Internal', message: err instanceof Error ? err.message : String(err), fix: null } }
}

async function section<T>(read: () => Promise<T>): Promise<T | SectionError> {
  try {
    return await read()
  } catch (err) {
    return sectionError(err)
  }
}

const isError = (x: unknown): x is SectionError => typeof x === 'object' && x !== null && 'error' in x

/**
 * @example const facts = await collectFacts({ datadir: '/var/lib/tnv/v1', chain: { chain: 'testnet' }, keys: { unavailable: 'no passphrase' } })
 */
export async function collectFacts({
  datadir,
  chain,
  keys,
  nodeUrl,
  address,
  exposure = false,
  timeoutMs = 5_000,
}: CollectFactsParameters): Promise<Facts> {
  const collectedAt = new Date().toISOString()
  const [described, node, report] = await Promise.all([
    section(() => describeNode({ datadir })),
    section(() => nodeStatus(datadir)),
    section(() => checkNode({ datadir, nodeUrl, chain, address, exposure, timeoutMs })),
  ])
  const identity: Facts['identity'] = isError(described)
    ? described
    : {
        name: described.name,
        executionAddress: described.executionAddress,
        blsPublicKey: described.blsPublicKey,
        primary: described.primary,
        workers: described.workers,
      }
  let keysSection: Facts['keys']
  let backup: Facts['backup']
  if (isError(described)) {
    keysSection = described
    backup = described
  } else {
    let verified: Extract<Facts['keys'], { nodeInfo: string }>['verified']
    if ('unavailable' in keys) verified = { ok: null, reason: keys.unavailable }
    else {
      const r = await section(() => verifyNodeKeys({ datadir, openKey: keys.open }))
      verified = isError(r)
        ? { ok: null, reason: `${r.error.message}${r.error.fix ? ` ${r.error.fix}` : ''}` }
        : { ok: r.ok, checks: r.checks }
    }
    keysSection = {
      nodeInfo: described.nodeInfo,
      keyFile: described.keyFile,
      proofOfPossessionValid: described.proofOfPossessionValid,
      warnings: described.warnings,
      verified,
    }
    backup = await section(async () => {
      const b = await backupStatus(datadir, described.blsPublicKey)
      return b.ok
        ? { ok: true, how: b.proof.how, at: b.proof.at, reason: null }
        : { ok: false, how: null, at: null, reason: b.reason }
    })
  }
  const v = isError(report) ? null : report.figures.validator
  const health: Facts['health'] = isError(report)
    ? report
    : {
        level: report.level,
        exitCode: report.exitCode,
        next: report.next,
        findings: report.findings,
        wallMs: report.wallMs,
      }
  const levels = [
    isError(health) ? 'fail' : health.level,
    ...[identity, keysSection, backup, node].map((s) => (isError(s) ? 'fail' : 'ok')),
    !isError(keysSection) && keysSection.verified.ok === false ? 'fail' : 'ok',
    !isError(backup) && !backup.ok ? 'warn' : 'ok',
  ]
  const attention = levels.includes('fail') ? 'fail' : levels.includes('warn') ? 'warn' : 'ok'
  return {
    schema: 'tnv-facts/1',
    datadir,
    collectedAt,
    identity,
    keys: keysSection,
    backup,
    node,
    health,
    registry: v
      ? {
          validator: v.address,
          whitelisted: v.whitelisted,
          status: v.status,
          activationEpoch: v.activationEpoch,
          exitEpoch: v.exitEpoch,
          rewards: v.rewards,
        }
      : null,
    epoch: v
      ? {
          current: v.currentEpoch,
          secondsToNextEpoch: v.secondsToNextEpoch,
          inCommittee: v.inCommittee,
          inNextCommittee: v.inNextCommittee,
        }
      : null,
    attention,
  }
}
