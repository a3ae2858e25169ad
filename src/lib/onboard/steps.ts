/** What each step of an onboarding flow did, as the flows report it in their result. */
import type { Hex } from 'viem'
import type { TxOutcome } from '../registry/types.js'

export type StepRecord = {
  step: string
  /** sent: a transaction was sent and succeeded; already-done: the chain showed it done; done: a local step. */
  outcome: 'sent' | 'already-done' | 'nothing-to-do' | 'unsigned' | 'would-change' | 'done'
  txHash?: Hex
  blockNumber?: string
  /** An earlier run's transaction for this step that this run waited for instead of resending. */
  resumedHash?: Hex
  message?: string
}

export function stepRecord(step: string, outcome: TxOutcome, resumed: { hash: Hex } | null): StepRecord {
  const base = { step, ...(resumed ? { resumedHash: resumed.hash } : {}) }
  switch (outcome.outcome) {
    case 'sent':
      return { ...base, outcome: 'sent', txHash: outcome.txHash, blockNumber: outcome.blockNumber }
    case 'already-done':
    case 'nothing-to-do':
      return { ...base, outcome: outcome.outcome, message: outcome.message }
    case 'unsigned':
    case 'would-change':
      return { ...base, outcome: outcome.outcome }
  }
}

/** The earlier run's transaction of a step that this run settled, if any. */
export function resumedOf(resumed: Map<string, Hex>, step: string): { hash: Hex } | null {
  const hash = resumed.get(step)
  return hash ? { hash } : null
}
