/**
 * Failures of the chain layer: endpoint, chain id, signer, keystore, sending and waiting.
 * Messages name the concrete values (endpoint, chain ids, addresses, hashes), never a secret.
 */
import { ExitCode, TnvError, type TnvErrorOptions, UsageError } from '../errors.js'

/** The endpoint cannot be reached, times out, or keeps refusing (rate limit) after retries. */
export class RpcUnreachableError extends TnvError {
  override readonly code: string = 'RpcUnreachable'
  constructor(message: string, options: TnvErrorOptions = {}) {
    super(message, { exitCode: ExitCode.RpcUnreachable, ...options })
  }
}

/** The endpoint's chain id is not the one the preset or --chain-id expects. */
export class WrongChainError extends TnvError {
  override readonly code: string = 'WrongChain'
  constructor(params: { rpcUrl: string; expected: number; actual: number; name: string }) {
    super(
      `The endpoint ${params.rpcUrl} serves chain id ${params.actual}, but ${params.name} is chain id ${params.expected}.`,
      {
        fix: 'Point --rpc-url at a node of that network, or pick the matching --chain (testnet = 2017, mainnet = 487, devnet = 911329).',
        exitCode: ExitCode.WrongChain,
      },
    )
  }
}

/** `--chain devnet` (the default) but no devnet runtime file, or a stale one. */
export class DevnetNotRunningError extends TnvError {
  override readonly code: string = 'DevnetNotRunning'
  constructor(message: string) {
    super(message, {
      fix: 'Start it with `tnv devnet start`. A devnet started with `tnv devnet start --datadir DIR` is found through TNV_DEVNET_DIR=DIR (export it for every tnv command). Or pick another network with --chain testnet or --rpc-url URL.',
      exitCode: ExitCode.RpcUnreachable,
    })
  }
}

/** No signer was given for a step that sends a transaction. */
export class SignerRequiredError extends UsageError {
  override readonly code: string = 'SignerRequired'
  constructor(action: string) {
    super(`Sending ${action} needs a signer, and none was given.`, {
      fix: 'Set TN_PRIVATE_KEY, pass --keystore FILE, or pass --unsigned --from ADDRESS to print the transaction for another wallet.',
    })
  }
}

/** The private key is malformed. The value itself is never repeated. */
export class InvalidPrivateKeyError extends TnvError {
  override readonly code: string = 'InvalidPrivateKey'
  constructor(source: string) {
    super(`The private key from ${source} is not a valid 32-byte hex secp256k1 key.`, {
      fix: 'Give 64 hex digits (with or without 0x).',
      exitCode: ExitCode.BadKeys,
    })
  }
}

/** The keystore file cannot be read or is not an Ethereum V3 keystore tnv supports. */
export class InvalidKeystoreError extends TnvError {
  override readonly code: string = 'InvalidKeystore'
  constructor(path: string, problem: string) {
    super(`The keystore ${path} cannot be used: ${problem}.`, {
      fix: 'Pass an Ethereum V3 JSON keystore as geth, cast (`cast wallet import`) or clef write it (scrypt or pbkdf2, aes-128-ctr).',
      exitCode: ExitCode.BadKeys,
    })
  }
}

/** The password does not open the keystore (MAC mismatch). */
export class WrongKeystorePasswordError extends TnvError {
  override readonly code: string = 'WrongKeystorePassword'
  constructor(path: string) {
    super(`The password does not open the keystore ${path} (MAC check failed).`, {
      fix: 'Check TN_KEYSTORE_PASSWORD (or the password given on stdin or at the prompt) and try again.',
      exitCode: ExitCode.BadKeys,
    })
  }
}

/** A keystore password is needed and no source gives one. */
export class KeystorePasswordRequiredError extends UsageError {
  override readonly code: string = 'KeystorePasswordRequired'
  constructor(path: string) {
    super(
      `The keystore ${path} needs a password, and TN_KEYSTORE_PASSWORD is not set and there is no terminal to ask on.`,
      {
        fix: 'Set TN_KEYSTORE_PASSWORD, or pass --keystore-password-source stdin and pipe the password in.',
      },
    )
  }
}

/** The signer cannot pay the value plus the maximum gas cost. */
export class InsufficientFundsError extends TnvError {
  override readonly code: string = 'InsufficientFunds'
  constructor(message: string, options: Omit<TnvErrorOptions, 'exitCode'> = {}) {
    super(message, { exitCode: ExitCode.InsufficientFunds, ...options })
  }
}

/** Another transaction from the same account holds the nonce (pending in the pool). */
export class PendingTransactionConflictError extends TnvError {
  override readonly code: string = 'PendingTransactionConflict'
  constructor(params: { from: string; nonce: number; reason: string }) {
    super(
      `The node refused the transaction (${params.reason}): account ${params.from} already has a pending transaction with nonce ${params.nonce}.`,
      {
        fix: 'Wait until that transaction is mined (or replace it from the wallet that sent it), then run the command again; it checks the on-chain state first.',
        exitCode: ExitCode.Reverted,
      },
    )
  }
}

/** Another sender keeps taking this account's nonce while tnv prepares its transaction. */
export class NonceConflictError extends TnvError {
  override readonly code: string = 'NonceConflict'
  constructor(params: { from: string; nonce: number }) {
    super(
      `Another transaction from ${params.from} took nonce ${params.nonce} while tnv was sending; nothing of tnv's was sent.`,
      {
        fix: 'Make sure no other wallet or tool sends from this account at the same time, then run the command again; it checks the on-chain state first.',
        exitCode: ExitCode.Reverted,
      },
    )
  }
}

/** The transaction left the pool and its nonce was used by another transaction. */
export class TransactionDroppedError extends TnvError {
  override readonly code: string = 'TransactionDropped'
  constructor(params: { hash: string; from: string; nonce: number }) {
    super(
      `Transaction ${params.hash} was dropped: nonce ${params.nonce} of ${params.from} was used by another transaction before it was mined.`,
      {
        fix: 'Check the on-chain state with `tnv validator status`, then run the command again if the step is still needed.',
        exitCode: ExitCode.Reverted,
      },
    )
  }
}

/** No receipt within the time limit. The transaction may still be mined. */
export class TransactionTimeoutError extends TnvError {
  override readonly code: string = 'TransactionTimeout'
  constructor(params: { hash: string; seconds: number; rpcUrl: string }) {
    super(
      `No receipt for transaction ${params.hash} after ${params.seconds} s on ${params.rpcUrl}; it may still be mined.`,
      {
        fix: `Check it later with \`cast receipt ${params.hash} --rpc-url ${params.rpcUrl}\` or \`tnv validator status\` before sending it again; every tnv command checks the on-chain state first, so running it again is safe.`,
        exitCode: ExitCode.Timeout,
      },
    )
  }
}

/** The endpoint answered a call with a value of the wrong JSON type or with invalid hex. */
export class RpcBadAnswerError extends TnvError {
  override readonly code: string = 'RpcBadAnswer'
  constructor(params: { rpcUrl: string; method: string; problem: string }) {
    super(`The endpoint ${params.rpcUrl} answered ${params.method} with ${params.problem}.`, {
      fix: 'The endpoint is not behaving like an Ethereum JSON-RPC node: check --rpc-url (or --chain), or use your own node.',
      exitCode: ExitCode.RpcUnreachable,
    })
  }
}
