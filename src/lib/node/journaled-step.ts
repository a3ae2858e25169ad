/**
 * A step of a resumable node operation (`node migrate`, `node upgrade`/`restart`): skipped when
 * the journal records it done, else run, recorded done and the journal saved before the next
 * step starts, so a kill between steps is finished by a rerun. Each step is reported as it starts
 * and ends; `<operation>:<step>` is a kill point for the tests.
 */
import { killPoint } from '../fs/atomic.js'

export type StepEvent<N extends string> = {
  event: 'step'
  step: N
  status: 'start' | 'done' | 'skipped'
  detail?: Record<string, unknown>
}

/**
 * @example const step = journaledStep('upgrade', journal, save, onEvent); await step('preflight', async () => ({ version }))
 */
export function journaledStep<N extends string>(
  operation: string,
  journal: { done: N[] },
  save: () => Promise<void>,
  onEvent: (e: StepEvent<N>) => void,
): (name: N, fn: () => Promise<Record<string, unknown> | undefined>) => Promise<void> {
  return async (name, fn) => {
    if (journal.done.includes(name)) {
      onEvent({ event: 'step', step: name, status: 'skipped', detail: { why: 'done before the interruption' } })
      return
    }
    onEvent({ event: 'step', step: name, status: 'start' })
    const detail = await fn()
    journal.done.push(name)
    await save()
    onEvent({ event: 'step', step: name, status: 'done', ...(detail ? { detail } : {}) })
    killPoint(`${operation}:${name}`)
  }
}
