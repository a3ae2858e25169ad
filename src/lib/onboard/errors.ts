/** Failures of the onboarding flows (`tnv stake` / `tnv exit` as wizards and in CI). */
import { SignerRequiredError } from '../chain/errors.js'
import { ExitCode, TnvError } from '../errors.js'

/** A wait for the chain (whitelist, epoch boundary, exit) ran out of time. */
export class WaitTimeoutError extends TnvError {
  override readonly code: string = 'WaitTimeout'
  constructor(what: string, seconds: number, fix: string) {
    super(`${what} did not happen within ${seconds} s.`, { fix, exitCode: ExitCode.Timeout })
  }
}

/** The network has no node flags tnv knows (a custom endpoint): the node must be named. */
export class NodeForCustomNetworkError extends TnvError {
  override readonly code: string = 'NodeForCustomNetwork'
  constructor(rpcUrl: string) {
    super(
      `tnv cannot start a node for the custom network at ${rpcUrl}: it knows the node flags only for devnet and testnet.`,
      {
        fix: 'Start the node yourself (`tnv node start --detach -- <node flags>`) and pass --node-rpc-url with its RPC URL.',
        exitCode: ExitCode.Usage,
      },
    )
  }
}

/**
 * `tnv stake --mint` without `--through` and without a terminal: the plain stake only stakes an
 * address governance already whitelisted; the devnet mint is a step of the onboarding flow.
 */
export class MintNeedsFlowError extends TnvError {
  override readonly code: string = 'MintNeedsFlow'
  constructor() {
    super(
      '--mint is a step of the onboarding flow, which runs with --through (or as the wizard on a terminal); the plain `tnv stake` only stakes an address governance has already whitelisted, so it would not mint.',
      {
        fix: 'Add --through staked (the devnet mint, then the stake) or --through active, or whitelist first with `tnv governance mint <address> --chain devnet` and run `tnv stake` again.',
        exitCode: ExitCode.Usage,
      },
    )
  }
}

/**
 * `tnv stake` without a signer and without a terminal: SignerRequired (exit 2, its code kept for
 * CI) whose fix names --offline-bundle too, the way to stake with a funding key kept offline.
 */
export function withOfflineBundleFix(err: unknown): unknown {
  if (err instanceof SignerRequiredError)
    err.fix =
      'Set TN_PRIVATE_KEY, pass --keystore FILE, pass --unsigned --from ADDRESS to print the transaction for another wallet, or pass --offline-bundle FILE when the funding key is on an offline machine (docs/offline.md).'
  return err
}
