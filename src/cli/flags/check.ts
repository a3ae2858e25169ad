/**
 * `--check`, the automation contract's dry run (docs/automation.md): every check and read of the
 * command runs, nothing is written, signed or sent, and the result says `would-change` or
 * `already-done`. Shared by the transaction commands (through `txFlags`) and the keytool writers.
 */
import { Flags } from '@oclif/core'

export const checkFlag = {
  check: Flags.boolean({
    exclusive: ['unsigned'],
    summary: 'Do nothing: run every check, then say what would change (outcome would-change) or that it is done.',
    description:
      'Nothing is written, signed or sent, no journal entry or lock is left and nothing is asked. Transactions are simulated: `outcome` is would-change (with the transaction: to, function, arguments, value, from, simulated gas), already-done or nothing-to-do; a step that would fail exits with the code it would fail with (a revert: 22). Files: each with its path, mode and whether it exists. Exit 0 for would-change and already-done (docs/automation.md).',
  }),
}
