/**
 * The backup gate at the command layer (src/lib/keys/backup-gate.ts): run once, right before a
 * step binds the key on chain, with the chain id the step verified; its notes go to stderr.
 */
import type { Hex } from 'viem'
import type { ConfirmFn } from '../lib/registry/types.js'

export type BackupGate = (chainId: number) => Promise<void>

export function backupGate({
  datadir,
  publicKey,
  skip,
  relaxed = false,
  action,
  note,
}: {
  datadir: string
  publicKey: Hex
  skip: boolean
  /** --devnet-relaxed */
  relaxed?: boolean | undefined
  action: string
  note: (line: string) => void
}): BackupGate {
  let passed = false
  return async (chainId) => {
    if (passed) return
    const { assertBackupGate } = await import('../lib/keys/backup-gate.js')
    const r = await assertBackupGate({ datadir, publicKey, chainId, action, skip, relaxed })
    passed = true
    if (r.outcome === 'verified')
      note(
        `- ${r.how === 'backup-verified' ? 'a verified backup' : 'its recovery phrase'} (${r.how} ${r.at}) proves this key can be restored`,
      )
    else note(`Warning: ${r.message}`)
  }
}

/** The step's confirmation, with the gate first (a step asks for confirmation only right before it sends). */
export function gatedConfirm(confirm: ConfirmFn, gate: BackupGate): ConfirmFn {
  return async (plan) => {
    await gate(plan.chain.chainId)
    return confirm(plan)
  }
}
