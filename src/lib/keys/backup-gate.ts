/**
 * The gate before a step that binds a BLS key for good (stake, a delegation signature): a backup
 * of this exact key must have been verified, or its recovery phrase confirmed
 * (./backup-record.ts); otherwise the step stops with the commands to run. `--skip-backup-check`
 * goes on, saying what the operator accepts. On tnv's rehearsal chain (the devnet's chain id,
 * 911329) the gate reports what it would require and goes on: rehearsal keys guard nothing, and
 * every rehearsal runs on that chain id (docs/decisions.md "Recovery phrase and backups").
 */
import { DEVNET_CHAIN_ID } from '../chain/addresses.js'
import { backupStatus } from './backup-record.js'
import { BackupUnverifiedError } from './recovery-errors.js'

export type BackupGateParameters = {
  /** The data directory whose record is read (where the key lives, or --datadir). */
  datadir: string
  /** 0x hex of the compressed BLS public key about to be bound. */
  publicKey: string
  /** The verified chain id of the network the step is for. */
  chainId: number
  /** What is about to happen ("the stake", "signing the delegation"). */
  action: string
  /** --skip-backup-check */
  skip: boolean
}

export type BackupGateReturnType =
  | { outcome: 'verified'; how: string; at: string }
  /** Nothing proven, but --skip-backup-check: `message` says what the operator accepted. */
  | { outcome: 'skipped'; message: string }
  /** Nothing proven, on the rehearsal chain: `message` says what a real network would require. */
  | { outcome: 'rehearsal'; message: string }

/**
 * @throws BackupUnverifiedError when nothing proves the key restorable (not on the rehearsal chain, not skipped)
 * @example const gate = await assertBackupGate({ datadir, publicKey, chainId, action: 'the stake', skip: flags['skip-backup-check'] })
 */
export async function assertBackupGate({
  datadir,
  publicKey,
  chainId,
  action,
  skip,
}: BackupGateParameters): Promise<BackupGateReturnType> {
  const status = await backupStatus(datadir, publicKey)
  if (status.ok) return { outcome: 'verified', how: status.proof.how, at: status.proof.at }
  if (skip)
    return {
      outcome: 'skipped',
      message: `--skip-backup-check: going on with ${action} although ${status.reason}. You accept that losing ${datadir} or its passphrase loses this validator: the registry cannot replace a staked key.`,
    }
  if (chainId === DEVNET_CHAIN_ID)
    return {
      outcome: 'rehearsal',
      message: `rehearsal chain: ${status.reason}. On a real network tnv stops here until \`tnv keytool backup\` and \`tnv keytool backup verify\` (or a confirmed recovery phrase) prove the key can be restored.`,
    }
  throw new BackupUnverifiedError({ action, datadir, reason: status.reason })
}
