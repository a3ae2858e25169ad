/**
 * Shared shapes of the registry operations: the context they run in, the progress events they
 * report (library code never prints), the confirmation hook, and the outcome of a step.
 */
import type { Address, Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import type { ChainClient } from '../chain/client.js'
import type { ChainTarget } from '../chain/resolve-target.js'
import type { UnsignedTransaction } from '../chain/transaction.js'
import type { CheckedTransaction } from '../tx/checked-transaction.js'
import type { StepJournal } from '../tx/journal.js'
import type { BoundRegistry, RegistryCodePolicy } from './registry-guard.js'

export type RegistryContext = {
  client: ChainClient
  target: ChainTarget
  /** What the operator said about the registry code (--registry-generation, --accept-registry-code). */
  policy?: RegistryCodePolicy | undefined
  /** The code detected by the command's first read batch (./first-batch.ts); read once per command. */
  bound?: BoundRegistry | undefined
}

/** Progress of an operation, for a spinner, stderr lines or JSON lines. */
export type RegistryEvent =
  /** A check passed or a fact was read ("whitelisted: yes"). */
  | { type: 'step'; message: string }
  /** Something the operator should know before agreeing (a forfeited shortfall). */
  | { type: 'warning'; message: string }
  /** The transaction is in the pool. */
  | { type: 'sent'; hash: Hex }
  /** The receipt arrived and the transaction succeeded. */
  | { type: 'confirmed'; hash: Hex; blockNumber: bigint }
  /** An earlier run's transaction has no known outcome: it is settled before anything is sent. */
  | { type: 'resume'; step: string; hash: Hex; submittedAt: string }
  /** …and how it ended (dropped: with the proof). */
  | {
      type: 'resumed'
      step: string
      hash: Hex
      outcome: 'success' | 'reverted' | 'dropped'
      blockNumber: string | null
      reason: string | null
    }

export type Reporter = (event: RegistryEvent) => void

/** What is about to be sent, shown before the confirmation (amounts in TEL and wei). */
export type TransactionPlan = {
  /** "stake", "activate", "beginExit", ... */
  action: string
  /** One line: what the transaction does. */
  title: string
  /** Label/value rows: chain, from, amounts, gas. */
  rows: [label: string, value: string][]
  /** Cannot be undone (exit, unstake): confirm with default No, and require --yes without a TTY. */
  irreversible: boolean
  chain: ChainInfo
  from: Address
  value: bigint
  maxCost: bigint
}

/** Answers whether to send; false aborts with nothing sent. Not called for --unsigned. */
export type ConfirmFn = (plan: TransactionPlan) => Promise<boolean>

/** How a state-changing step ended. Wei and block numbers as decimal strings (JSON-safe). */
export type TxOutcome =
  | {
      outcome: 'sent'
      txHash: Hex
      blockNumber: string
      gasUsed: string
      from: Address
    }
  /** Printed for another wallet; nothing was sent. */
  | { outcome: 'unsigned'; unsigned: UnsignedTransaction }
  /** --check: every check and the simulation passed; this is what would be sent. Nothing was. */
  | { outcome: 'would-change'; transaction: CheckedTransaction }
  /** The chain already shows the step done; nothing was sent. */
  | { outcome: 'already-done'; message: string }
  /** There was nothing to do (no refund credited, no rewards accrued): nothing was ever pending, nothing was sent. */
  | { outcome: 'nothing-to-do'; message: string }

export type OperationOptions = {
  report?: Reporter | undefined
  confirm?: ConfirmFn | undefined
  /** Journal the transaction (src/lib/tx/run-step.ts); without it nothing is written (library use, tests). */
  journal?: StepJournal | undefined
}
