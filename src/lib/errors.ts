/**
 * One base error for everything an operator can see. Every failure kind is a subclass
 * named for what went wrong. The message says what is wrong; `fix` says what to do next.
 * Commands render `message` + `fix` as one paragraph on stderr (or as `{"error": …}` with
 * --json) and exit with `exitCode`. Library code throws these and never prints.
 *
 * Never put a secret (passphrase, private key, BLS secret) in any field of an error.
 */
import { stripControl } from './io/remote-text.js'

/** Exit codes per failure class. Stable: CI pipelines branch on them (docs/ci.md). */
export const ExitCode = {
  /** Unexpected failure (a bug): please report it. */
  Internal: 1,
  /** Bad command-line usage: unknown or conflicting flags, missing flag without a TTY. */
  Usage: 2,
  /** Bad input file or value: YAML, base58, lengths, addresses, multiaddrs, URLs. */
  BadInput: 3,
  /** Keys: missing, mismatching, wrong passphrase, tampered key file. */
  BadKeys: 4,
  /** The file system refused: disk full, read-only, permission denied, I/O error. */
  Filesystem: 5,
  /** The RPC endpoint cannot be reached or answered with a transport-level fault. */
  RpcUnreachable: 10,
  /** The endpoint's chain id is not the expected one. */
  WrongChain: 11,
  /** The code at the registry address is not a registry generation tnv knows (or not the expected one). */
  UnknownRegistry: 12,
  /** The validator address holds no ConsensusNFT. */
  NotWhitelisted: 20,
  /** The signer cannot pay the value plus gas. */
  InsufficientFunds: 21,
  /** A simulation or a receipt says the transaction reverts. */
  Reverted: 22,
  /** The node is not synced (or not running) when the step needs it. */
  NodeNotSynced: 23,
  /** The validator is in the wrong on-chain state for the step. */
  WrongState: 24,
  /** The local node would refuse to start with these flags, or a live check found a mismatch. */
  NodeConfig: 25,
  /** Waiting ran out of time. */
  Timeout: 26,
  /** The devnet a command reports on or drives is not running (not a sync problem: start it). */
  NotRunning: 28,
  /** Another tnv command holds the data directory or the transaction journal (its pid and command are named). */
  Locked: 27,
  /** The validator's key is live elsewhere: another node on this host holds it, or the network shows its authority active. */
  KeyLive: 29,
  /** The user declined a confirmation. */
  Aborted: 30,
  /** An upgrade or restart did not come up in time and was rolled back: the previous binary runs again. */
  RolledBack: 31,
  /** The stake wizard wrote an offline bundle (or found one unsigned): done once it is signed offline and this is run again. */
  AwaitingOfflineSignature: 32,
} as const
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]

export type TnvErrorOptions = {
  /** What to do about it, written as an instruction ("Run `tnv …`, then …"). */
  fix?: string
  /** Extra lines shown under the paragraph (values, endpoints). Never secrets. */
  details?: string[]
  cause?: unknown
  exitCode?: ExitCodeValue
}

export class TnvError extends Error {
  override name = 'TnvError'
  /**
   * Stable machine-readable code (e.g. `PassphraseRequired`). Every subclass declares its own
   * as a string literal (`override readonly code: string = 'PassphraseRequired'`), never derived
   * from the class name, which a bundler may rename; test/unit/error-codes.test.ts checks them.
   */
  readonly code: string = 'Tnv'
  fix: string | undefined
  details: string[]
  exitCode: ExitCodeValue

  constructor(message: string, options: TnvErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.fix = options.fix
    this.details = options.details ?? []
    this.exitCode = options.exitCode ?? ExitCode.Internal
  }

  /** The one paragraph an operator reads: what is wrong, then what to do. */
  render(): string {
    const paragraph = this.fix ? `${this.message} ${this.fix}` : this.message
    // the last guard for text quoted from a remote endpoint: no escape sequence reaches a terminal
    return stripControl([paragraph, ...this.details.map((d) => `  ${d}`)].join('\n'))
  }

  toJSON(): { code: string; message: string; fix?: string; details?: string[]; exitCode: number } {
    return {
      code: this.code,
      message: this.message,
      ...(this.fix ? { fix: this.fix } : {}),
      ...(this.details.length ? { details: this.details } : {}),
      exitCode: this.exitCode,
    }
  }
}

/** Usage problems found after flag parsing (conflicts oclif cannot express, missing input without a TTY). */
export class UsageError extends TnvError {
  override readonly code: string = 'Usage'
  constructor(message: string, options: TnvErrorOptions = {}) {
    super(message, { exitCode: ExitCode.Usage, ...options })
  }
}

/** A value or file the user gave is malformed. */
export class BadInputError extends TnvError {
  override readonly code: string = 'BadInput'
  constructor(message: string, options: TnvErrorOptions = {}) {
    super(message, { exitCode: ExitCode.BadInput, ...options })
  }
}

/** Input is needed but there is no TTY to ask on. */
export class MissingInputError extends UsageError {
  override readonly code: string = 'MissingInput'
  constructor(what: string, flag: string) {
    super(`${what} is needed and there is no terminal to ask on.`, { fix: `Pass ${flag}.` })
  }
}

/** The user answered No (or Ctrl-C) at a confirmation. Nothing was changed. */
export class AbortedError extends TnvError {
  override readonly code: string = 'Aborted'
  constructor(message = 'Aborted: nothing was changed.', options: Omit<TnvErrorOptions, 'exitCode'> = {}) {
    super(message, { ...options, exitCode: ExitCode.Aborted })
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message
  return String(err)
}
