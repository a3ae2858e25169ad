/**
 * When a validator's node may be restarted (an upgrade, a restart): the safe window.
 *
 * - Not in the current committee: now, provided the restart (its deadline, `budgetMs`) ends before
 *   the next epoch boundary or the node is not in the next committee either.
 * - In the current committee (or joining it at the next boundary before the restart would end):
 *   just after an epoch boundary, from `marginMs` after it until `marginMs + slackMs` after it, as
 *   the network's own update script restarts a committee node after a boundary (the closing
 *   block's system calls are done; the node misses the first rounds of the new epoch, not the
 *   close of the old).
 *
 * The committee of the current and next epochs is known (the registry fixes it two epochs ahead).
 * A pure function: the caller reads the chain and the clock.
 */
export type SafeWindowInput = {
  /** The node's BLS public key (0x hex, any case). */
  key: string
  epoch: number
  /** Committee BLS keys per epoch: at least `epoch` and `epoch + 1`. */
  committees: Readonly<Record<number, readonly string[]>>
  /** When the current epoch began (its first block's timestamp), ms. */
  epochStartMs: number
  epochDurationMs: number
  nowMs: number
  /** After a boundary, wait this long (default 10 s). */
  marginMs?: number
  /** The window after the margin (default 60 s). */
  slackMs?: number
  /** How long the restart may take before it is rolled back. */
  budgetMs: number
}

export type SafeWindowDecision =
  | { go: true; reason: string }
  | { go: false; reason: string; waitUntilMs: number; afterBoundaryOfEpoch: number }

export const DEFAULT_WINDOW_MARGIN_MS = 10_000
export const DEFAULT_WINDOW_SLACK_MS = 60_000

/**
 * @example
 * safeWindow({ key, epoch: 5, committees: { 5: [], 6: [] }, epochStartMs: 0, epochDurationMs: 86_400_000, nowMs: 1000, budgetMs: 300_000 })
 * // { go: true, reason: 'not in the committee of epoch 5 or 6' }
 */
export function safeWindow({
  key,
  epoch,
  committees,
  epochStartMs,
  epochDurationMs,
  nowMs,
  marginMs = DEFAULT_WINDOW_MARGIN_MS,
  slackMs = DEFAULT_WINDOW_SLACK_MS,
  budgetMs,
}: SafeWindowInput): SafeWindowDecision {
  const k = key.toLowerCase()
  const seated = (e: number) => (committees[e] ?? []).some((c) => c.toLowerCase() === k)
  const inNow = seated(epoch)
  const inNext = seated(epoch + 1)
  const nextBoundary = epochStartMs + epochDurationMs
  const afterNext = {
    go: false as const,
    waitUntilMs: nextBoundary + marginMs,
    afterBoundaryOfEpoch: epoch + 1,
  }
  if (!inNow) {
    if (!inNext) return { go: true, reason: `not in the committee of epoch ${epoch} or ${epoch + 1}` }
    if (nowMs + budgetMs <= nextBoundary)
      return {
        go: true,
        reason: `not in the committee of epoch ${epoch}, and the restart ends (deadline ${Math.round(budgetMs / 1000)} s) before epoch ${epoch + 1}, where it sits`,
      }
    return {
      ...afterNext,
      reason: `joins the committee at epoch ${epoch + 1} before the restart could end: just after that boundary`,
    }
  }
  const since = nowMs - epochStartMs
  if (since >= marginMs && since <= marginMs + slackMs)
    return {
      go: true,
      reason: `in the committee of epoch ${epoch}, ${Math.round(since / 1000)} s after its boundary (window ${Math.round(marginMs / 1000)}–${Math.round((marginMs + slackMs) / 1000)} s)`,
    }
  if (since < marginMs)
    return {
      go: false,
      waitUntilMs: epochStartMs + marginMs,
      afterBoundaryOfEpoch: epoch,
      reason: `in the committee of epoch ${epoch}, which began ${Math.round(since / 1000)} s ago: after the ${Math.round(marginMs / 1000)} s margin`,
    }
  return { ...afterNext, reason: `in the committee of epoch ${epoch}: just after the next boundary` }
}
