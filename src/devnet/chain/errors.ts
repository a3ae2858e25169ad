/**
 * Failures of the devnet chain (anvil + the real registry code + the epoch clock). Each message
 * says what is wrong with the concrete values; `fix` says what to do next.
 */
import { BadInputError, ExitCode, TnvError, type TnvErrorOptions } from '../../lib/errors.js'

/** The anvil binary of @foundry-rs/anvil for this platform is not installed. */
export class AnvilNotFoundError extends TnvError {
  override readonly code: string = 'AnvilNotFound'
  constructor(packageName: string, options: TnvErrorOptions = {}) {
    super(
      `The anvil binary for this platform (${process.platform}/${process.arch}) was not found: ${packageName} is not installed.`,
      {
        fix: "Reinstall tnv's dependencies (`npm install`) on this machine; the binary ships inside that package, nothing is downloaded.",
        ...options,
      },
    )
  }
}

/** anvil exited or did not answer before it became ready. */
export class AnvilStartError extends TnvError {
  override readonly code: string = 'AnvilStart'
  constructor(message: string, stderrTail: string, options: TnvErrorOptions = {}) {
    super(message, {
      fix: 'Check the anvil output below; if the port is taken, choose another port or let the devnet pick a free one.',
      details: stderrTail ? stderrTail.trim().split('\n').slice(-8) : [],
      ...options,
    })
  }
}

/** The compiled BLS verifier (contracts/out) is missing. */
export class ContractsNotBuiltError extends TnvError {
  override readonly code: string = 'ContractsNotBuilt'
  constructor(path: string) {
    super(`The compiled devnet BLS verifier was not found (looked for ${path}).`, {
      fix: 'Run `node scripts/build.mjs` (it compiles contracts/BlsVerifier.sol with solc into contracts/out).',
    })
  }
}

/** A parameter of startDevnetChain is out of range. */
export class InvalidDevnetParameterError extends BadInputError {
  override readonly code: string = 'InvalidDevnetParameter'
}

/** The chain in the data directory is not a devnet this version can resume. */
export class DevnetStateMismatchError extends TnvError {
  override readonly code: string = 'DevnetStateMismatch'
  constructor(message: string, datadir: string) {
    super(message, {
      fix: `Move the directory aside (\`mv ${datadir} ${datadir}.old\`) and start again for a fresh devnet; nothing in it is deleted.`,
      exitCode: ExitCode.NodeConfig,
    })
  }
}

/** A transaction the devnet itself sends (system calls, governance) failed. */
export class DevnetTransactionError extends TnvError {
  override readonly code: string = 'DevnetTransaction'
  constructor(what: string, options: TnvErrorOptions = {}) {
    super(`The devnet's own transaction failed: ${what}.`, {
      fix: 'The real registry refused what the devnet sent as the node or the owner would; please report it with the details below.',
      exitCode: ExitCode.Reverted,
      ...options,
    })
  }
}

/** The devnet was used after stop() or after anvil exited. */
export class DevnetStoppedError extends TnvError {
  override readonly code: string = 'DevnetStopped'
  constructor(operation: string) {
    super(`Cannot ${operation}: the devnet chain is stopped.`, {
      fix: 'Start it again with startDevnetChain (same data directory to keep the chain).',
    })
  }
}

/** Another live process runs the devnet chain of this data directory. */
export class DevnetChainLockedError extends TnvError {
  override readonly code: string = 'DevnetChainLocked'
  constructor(datadir: string, pid: number) {
    super(`The devnet chain in ${datadir} is already running (process ${pid}).`, {
      fix: `Use that devnet, or stop it first (\`kill ${pid}\`, or \`tnv devnet stop\` when the reference node runs it).`,
      exitCode: ExitCode.NodeConfig,
    })
  }
}

/** The directory holds a devnet made from something else than what the start asks for. */
export class DevnetSourceMismatchError extends TnvError {
  override readonly code: string = 'DevnetSourceMismatch'
  constructor(datadir: string, holds: string, asked: string) {
    super(`${datadir} holds a rehearsal of ${holds}, but this start asks for ${asked}.`, {
      fix: `Start it without --genesis/--fork-url/--chain-id to resume it, or give another --datadir for a new rehearsal (or move ${datadir} aside).`,
      exitCode: ExitCode.Usage,
    })
  }
}

/** A fork devnet is resumed without its upstream URL (which tnv does not store). */
export class ForkUrlRequiredError extends TnvError {
  override readonly code: string = 'ForkUrlRequired'
  constructor(datadir: string, origin: string, block: string) {
    super(
      `${datadir} holds a fork of ${origin} at block ${block}; resuming it needs the upstream URL again (tnv does not store it: it may carry an API key).`,
      { fix: `Start it with --fork-url <the same endpoint> (the block is kept).`, exitCode: ExitCode.Usage },
    )
  }
}
