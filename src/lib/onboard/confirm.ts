/**
 * The flows' confirmation, through the one policy (../tx/confirm-policy.ts): the plan (amounts
 * in TEL and wei, gas, chain) is always shown (a `plan` event with --json); --yes sends; on a
 * terminal it asks (default No for stake and anything irreversible, Yes for activate); without
 * one a step that moves money or cannot be undone needs --yes, any other proceeds.
 */

import type { ConfirmFn } from '../registry/types.js'
import { createConfirm } from '../tx/confirm-policy.js'
import type { WizardIo } from '../wizard/io.js'

export function wizardConfirm(io: WizardIo, { yes }: { yes: boolean }): ConfirmFn {
  return createConfirm({
    yes,
    interactive: io.interactive,
    show: (plan, kind) => {
      const width = Math.max(...plan.rows.map(([label]) => label.length))
      io.emit(
        {
          event: 'plan',
          step: plan.action,
          title: plan.title,
          irreversible: plan.irreversible,
          kind,
          rows: Object.fromEntries(plan.rows),
        },
        [plan.title, ...plan.rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)],
      )
    },
    ask: (message, defaultYes) => io.confirm(message, defaultYes),
  })
}
