/**
 * Failures of the offline path (prepare → sign → broadcast). Each says what is wrong and the
 * command that fixes it; a stale bundle names every precondition that changed.
 */
import { ExitCode, TnvError } from '../errors.js'

/** The bundle (or its signed file) is not a file tnv wrote: not JSON, a field missing or malformed, truncated. */
export class InvalidBundleError extends TnvError {
  override readonly code: string = 'InvalidBundle'
  constructor(path: string, problem: string) {
    super(`${path} is not a usable tnv offline file: ${problem}.`, {
      fix: 'Copy the file again from the host that wrote it (it may be truncated), or prepare a new bundle with `tnv offline prepare`.',
      exitCode: ExitCode.BadInput,
    })
  }
}

/** The digest recorded in the file is not the digest of its contents: it was changed after it was written. */
export class BundleDigestMismatchError extends TnvError {
  override readonly code: string = 'BundleDigestMismatch'
  constructor(path: string, { recorded, computed }: { recorded: string; computed: string }) {
    super(
      `${path} was changed after tnv wrote it: its contents hash to ${computed}, but it records ${recorded}. Nothing was signed or sent.`,
      {
        fix: 'Do not use it. Prepare a new bundle on the networked host with `tnv offline prepare` and carry that file.',
        exitCode: ExitCode.BadInput,
      },
    )
  }
}

/** The signed file does not belong to the bundle, or its transaction is not the bundle's. */
export class SignedTransactionMismatchError extends TnvError {
  override readonly code: string = 'SignedTransactionMismatch'
  constructor(path: string, problem: string) {
    super(`${path} does not hold the transaction of this bundle: ${problem}. Nothing was sent.`, {
      fix: 'Sign the bundle again with `tnv offline sign BUNDLE` on the offline host and carry both files.',
      exitCode: ExitCode.BadInput,
    })
  }
}

/** The signer offered is not the account the bundle was prepared for. */
export class BundleSignerMismatchError extends TnvError {
  override readonly code: string = 'BundleSignerMismatch'
  constructor({ expected, got }: { expected: string; got: string }) {
    super(
      `The bundle was prepared for ${expected} (its nonce and checks are that account's), but the key given is ${got}.`,
      {
        fix: `Sign with the key of ${expected}, or prepare a new bundle with \`tnv offline prepare … --from ${got}\`.`,
        exitCode: ExitCode.BadKeys,
      },
    )
  }
}

/** A network operation was attempted while the command runs without network (`tnv offline sign`). */
export class NetworkForbiddenError extends TnvError {
  override readonly code: string = 'NetworkForbidden'
  constructor(what: string) {
    super(`tnv offline sign opens no connection, but something tried to (${what}); nothing was signed or written.`, {
      fix: 'This is a bug in tnv: report it with the command you ran.',
      exitCode: ExitCode.Internal,
    })
  }
}

export type ChangedPrecondition = {
  /** "nonce", "registry code", "validator status", "stake version", "epoch", "fees", "balance", "expiry", "chain id", "simulation" */
  name: string
  /** What the bundle assumed. */
  prepared: string
  /** What the chain (or the clock) says now. */
  now: string
}

/** The world moved since the bundle was prepared: nothing was sent. */
export class StaleBundleError extends TnvError {
  override readonly code: string = 'StaleBundle'
  readonly changed: ChangedPrecondition[]
  constructor(changed: ChangedPrecondition[], prepareCommand: string) {
    super(
      `The bundle no longer matches the chain, so nothing was sent: ${changed.map((c) => c.name).join(', ')} changed since it was prepared.`,
      {
        fix: prepareCommand.includes(' --offline-bundle ')
          ? // the stake wizard's path (src/lib/onboard/offline-step.ts): the same command broadcasts once signed
            `Prepare a new bundle on the networked host with \`${prepareCommand}\` (a new file), sign it offline, then run that command again to broadcast it.`
          : `Prepare a new bundle on the networked host with \`${prepareCommand}\` (remove the stale bundle first, or pass another --out), sign it offline, then broadcast it.`,
        details: changed.map((c) => `${c.name}: prepared with ${c.prepared}; now ${c.now}`),
        exitCode: ExitCode.WrongState,
      },
    )
    this.changed = changed
  }
}
