/** Refusals and outcomes of `tnv node migrate` (exit codes: docs/ci.md). */
import { ExitCode, TnvError } from '../errors.js'
import type { CheckDoppelgangerReturnType } from './guard-types.js'

export class MigrationNotConfirmedError extends TnvError {
  override readonly code: string = 'MigrationNotConfirmed'
  constructor(datadir: string, r: CheckDoppelgangerReturnType) {
    super(
      `The node for ${datadir} runs, but authority ${r.authorityId} did not show active in ${r.headersSeen} consensus headers from ${r.endpoint} within ${Math.round(r.waitedMs / 1000)} s.`,
      {
        fix: `Check the node (\`tnv node check --datadir ${datadir}\`: peers, sync, tn_nodeMode), then run the same \`tnv node migrate in\` again to confirm; the old host stays stopped.`,
        exitCode: ExitCode.NodeNotSynced,
      },
    )
  }
}

export class KeyMovedOutError extends TnvError {
  override readonly code: string = 'KeyMovedOut'
  constructor(datadir: string, at: string) {
    super(
      `The validator key in ${datadir} was moved to another host (\`tnv node migrate out\`, ${at}); starting it here would make two live copies.`,
      {
        fix: `To run it here again, stop it on the other host, then run \`tnv node migrate in --datadir ${datadir} -- <node flags>\` here: it proves the key silent before starting.`,
        exitCode: ExitCode.KeyLive,
      },
    )
  }
}
