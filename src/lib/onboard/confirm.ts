/**
 * The wizard's confirmation policy for registry steps: the plan (amounts in TEL and wei, gas,
 * chain) is always shown (a `plan` event with --json); --yes sends; on a terminal it asks
 * (default No for stake and anything irreversible); without one an irreversible step needs
 * --yes and any other proceeds (issue 6's contract).
 */
import { ConfirmationRequiredError } from '../registry/errors.js'
import type { ConfirmFn } from '../registry/types.js'
import type { WizardIo } from '../wizard/io.js'

export function wizardConfirm(io: WizardIo, { yes, defaultYes }: { yes: boolean; defaultYes: boolean }): ConfirmFn {
  return async (plan) => {
    const width = Math.max(...plan.rows.map(([label]) => label.length))
    io.emit(
      {
        event: 'plan',
        step: plan.action,
        title: plan.title,
        irreversible: plan.irreversible,
        rows: Object.fromEntries(plan.rows),
      },
      [plan.title, ...plan.rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)],
    )
    if (yes) return true
    if (io.interactive)
      return io.confirm(
        plan.irreversible ? 'This cannot be undone. Send it?' : 'Send it?',
        plan.irreversible ? false : defaultYes,
      )
    if (plan.irreversible) throw new ConfirmationRequiredError(plan.action)
    return true
  }
}
