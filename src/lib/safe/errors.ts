import { ExitCode, TnvError } from '../errors.js'

/** A call of the batch reverts when simulated in order from the Safe: no file is written. */
export class SafeBatchRevertsError extends TnvError {
  override readonly code: string = 'SafeBatchReverts'
  constructor(step: number, method: string, reason: string) {
    super(`Call ${step} of the Safe batch (${method}) reverts when simulated in order from the Safe: ${reason}.`, {
      fix: 'No batch file was written. Fix what the error names (tnv validator status shows the validator’s state), then run the command again.',
      exitCode: ExitCode.Reverted,
    })
  }
}

/** --format safe needs --unsigned: a Safe signs through its owners, never with a key tnv holds. */
export class SafeFormatNeedsUnsignedError extends TnvError {
  override readonly code: string = 'SafeFormatNeedsUnsigned'
  constructor() {
    super('--format safe writes a batch for a Safe to execute, so it goes with --unsigned.', {
      fix: 'Add --unsigned (and --out <file>), e.g. tnv stake --unsigned --format safe --through active --out onboarding.json.',
      exitCode: ExitCode.Usage,
    })
  }
}
