/**
 * The gate before a step that binds a BLS key for good (stake, a delegation signature): a backup
 * of this exact key must have been verified, or its recovery phrase confirmed
 * (./backup-record.ts); otherwise the step stops with the commands to run. `--skip-backup-check`
 * goes on, saying what the operator accepts. The devnet asks as a real network does; only
 * `--devnet-relaxed` (TN_DEVNET_RELAXED), and only on tnv's rehearsal chain id 911329, makes the
 * gate report what it would require and go on. The same flag on any other chain id is a usage error.
 */
import { DEVNET_CHAIN_ID } from '../chain/addresses.js'
import { UsageError } from '../errors.js'
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
  /** --devnet-relaxed: report instead of stopping, on the rehearsal chain id only. */
  relaxed?: boolean | undefined
}

export type BackupGateReturnType =
  | { outcome: 'verified'; how: string; at: string }
  /** Nothing proven, but --skip-backup-check: `message` says what the operator accepted. */
  | { outcome: 'skipped'; message: string }
  /** Nothing proven, on the rehearsal chain with --devnet-relaxed: `message` says what the gate would require. */
  | { outcome: 'rehearsal'; message: string }

/**
 * @throws BackupUnverifiedError when nothing proves the key restorable (not skipped, not relaxed on the devnet)
 * @throws UsageError when `relaxed` is asked for on a chain other than the rehearsal chain
 * @example const gate = await assertBackupGate({ datadir, publicKey, chainId, action: 'the stake', skip: flags['skip-backup-check'] })
 */
export async function assertBackupGate({
  datadir,
  publicKey,
  chainId,
  action,
  skip,
  relaxed = false,
}: BackupGateParameters): Promise<BackupGateReturnType> {
  assertRelaxedOnDevnet(relaxed, chainId)
  const status = await backupStatus(datadir, publicKey)
  if (status.ok) return { outcome: 'verified', how: status.proof.how, at: status.proof.at }
  if (skip)
    return {
      outcome: 'skipped',
      message: `--skip-backup-check: going on with ${action} although ${status.reason}. You accept that losing ${datadir} or its passphrase loses this validator: the registry cannot replace a staked key.`,
    }
  if (relaxed)
    return {
      outcome: 'rehearsal',
      message: `--devnet-relaxed: ${status.reason}. Without the flag (and on every real network) tnv stops here until \`tnv keytool backup\` and \`tnv keytool backup verify\` (or a confirmed recovery phrase) prove the key can be restored.`,
    }
  throw new BackupUnverifiedError({ action, datadir, reason: status.reason })
}

/**
 * --devnet-relaxed is for the devnet's rehearsal chain id only: anywhere else it is refused
 * before anything is asked or sent.
 * @throws UsageError when `relaxed` is set and `chainId` is not the rehearsal chain id
 */
export function assertRelaxedOnDevnet(relaxed: boolean, chainId: number | undefined): void {
  if (relaxed && chainId !== DEVNET_CHAIN_ID)
    throw new UsageError(
      `--devnet-relaxed (TN_DEVNET_RELAXED) relaxes the devnet's safety steps only on its rehearsal chain id ${DEVNET_CHAIN_ID}; this network is chain id ${chainId ?? 'unknown'}.`,
      {
        fix: 'Leave out --devnet-relaxed and unset TN_DEVNET_RELAXED: a real network always asks for every safety step.',
      },
    )
}
