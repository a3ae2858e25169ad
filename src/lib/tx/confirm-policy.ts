/**
 * The one confirmation policy (docs/decisions.md): one default per action. A step that moves
 * the operator's money out (stake, delegateStake) or cannot be undone (beginExit, unstake) asks
 * with default No on a terminal and needs --yes without one; a harmless step (activate, a claim
 * that pays the operator, mint, revoking delegation signatures) asks with default Yes on a
 * terminal and proceeds without one. --yes always sends; --unsigned never asks (it sends nothing).
 */
import { ConfirmationRequiredError } from '../registry/errors.js'
import type { ConfirmFn, TransactionPlan } from '../registry/types.js'

export type ConfirmKind = 'money' | 'irreversible' | 'harmless'

const KINDS: Record<string, ConfirmKind> = {
  stake: 'money',
  delegateStake: 'money',
  beginExit: 'irreversible',
  unstake: 'irreversible',
  activate: 'harmless',
  claimStakeRewards: 'harmless',
  claimRefund: 'harmless',
  mint: 'harmless',
  increaseNonce: 'harmless',
}

/** The kind of an action; an action tnv does not list is treated as moving money (ask, default No). */
export function confirmKind(plan: Pick<TransactionPlan, 'action' | 'irreversible'>): ConfirmKind {
  if (plan.irreversible) return 'irreversible'
  return KINDS[plan.action] ?? 'money'
}

/** What a terminal question looks like for a plan: its text and default. */
export function confirmQuestion(kind: ConfirmKind): { message: string; defaultYes: boolean } {
  switch (kind) {
    case 'irreversible':
      return { message: 'This cannot be undone. Send it?', defaultYes: false }
    case 'money':
      return { message: 'Send it?', defaultYes: false }
    case 'harmless':
      return { message: 'Send it?', defaultYes: true }
  }
}

export type CreateConfirmParameters = {
  /** --yes */
  yes: boolean
  /** Prompts allowed (the session's one predicate). */
  interactive: boolean
  /** Shows the plan (stderr lines, or a `plan` event). */
  show: (plan: TransactionPlan, kind: ConfirmKind) => void
  /** Asks yes/no on the terminal. */
  ask: (message: string, defaultYes: boolean) => Promise<boolean>
}

/** @example const confirm = createConfirm({ yes: flags.yes, interactive: session.interactive, show, ask }) */
export function createConfirm({ yes, interactive, show, ask }: CreateConfirmParameters): ConfirmFn {
  return async (plan) => {
    const kind = confirmKind(plan)
    show(plan, kind)
    if (yes) return true
    if (interactive) {
      const q = confirmQuestion(kind)
      return ask(q.message, q.defaultYes)
    }
    if (kind !== 'harmless') throw new ConfirmationRequiredError(plan.action, kind)
    return true
  }
}
