/** Progress of a registry operation in a flow: human lines, or JSON-line events (docs/ci.md). */
import type { RegistryEvent } from '../registry/types.js'
import type { WizardIo } from './io.js'

/**
 * @param resumed collects, per step, the hash of an earlier run's transaction that was settled
 *   before the step ran (the flows' `resumedHash`)
 */
export function wizardReporter(
  io: WizardIo,
  step: string,
  resumed?: Map<string, `0x${string}`>,
): (event: RegistryEvent) => void {
  return (event) => {
    switch (event.type) {
      case 'step':
        io.emit({ event: 'check', step, message: event.message }, `  - ${event.message}`)
        break
      case 'warning':
        io.emit({ event: 'warning', step, message: event.message }, `  Warning: ${event.message}`)
        break
      case 'sent':
        io.emit({ event: 'sent', step, hash: event.hash }, `  - sent ${event.hash}; waiting for the receipt…`)
        break
      case 'confirmed':
        io.emit(
          { event: 'confirmed', step, hash: event.hash, blockNumber: event.blockNumber.toString() },
          `  - confirmed in block ${event.blockNumber}`,
        )
        break
      case 'resume':
        io.emit(
          { event: 'resume', step: event.step, hash: event.hash, submittedAt: event.submittedAt },
          `The ${event.step} transaction ${event.hash} journaled at ${event.submittedAt} has no known outcome: settling it (its receipt, or the same signed bytes sent again) instead of sending another.`,
        )
        break
      case 'resumed':
        resumed?.set(event.step, event.hash)
        io.emit(
          {
            event: 'resumed',
            step: event.step,
            hash: event.hash,
            outcome: event.outcome,
            blockNumber: event.blockNumber,
            ...(event.reason ? { reason: event.reason } : {}),
          },
          `  ${event.step} transaction ${event.hash}: ${event.outcome}${event.blockNumber !== null ? ` in block ${event.blockNumber}` : ''}${event.reason ? ` (${event.reason})` : ''}`,
        )
        break
    }
  }
}
