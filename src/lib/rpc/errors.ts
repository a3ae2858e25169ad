/** Failures of the RPC commands (`tnv rpc plan|check|jwt`). Never put a secret in any field. */
import { BadInputError, UsageError } from '../errors.js'

/** A JWT secret that is not 32 bytes of hex. The message describes its shape, never its content. */
export class InvalidJwtSecretError extends BadInputError {
  override readonly code: string = 'InvalidJwtSecret'
  constructor(source: string, problem: string) {
    super(`The JWT secret ${source} is not valid: ${problem}.`, {
      fix: 'Give the hex-encoded 32-byte secret the node uses (--rpc.jwtsecret): 64 hex digits, optionally with 0x, or @FILE for a file holding it. Make one with `openssl rand -hex 32`.',
    })
  }
}

/** The @FILE of a JWT secret cannot be read. */
export class JwtSecretFileError extends BadInputError {
  override readonly code: string = 'JwtSecretFile'
  constructor(path: string, cause: unknown) {
    const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : 'unreadable'
    super(`Cannot read the JWT secret file ${path} (${code}).`, {
      fix: 'Check the path and its permissions; the file must hold the hex secret the node uses with --rpc.jwtsecret.',
      cause,
    })
  }
}

/** Unknown flags or arguments before `--`: usually node flags written without the `--` separator. */
export class NodeFlagsWithoutSeparatorError extends UsageError {
  override readonly code: string = 'NodeFlagsWithoutSeparator'
  /** @param example the command line to show, with `--` and node flags */
  constructor(command: string, stray: string[], example: string) {
    super(`Unknown ${stray.length === 1 ? 'argument' : 'arguments'} for \`tnv ${command}\`: ${stray.join(' ')}.`, {
      fix: `Run \`tnv ${command} --help\` for its own flags; node flags go after \`--\`, for example: ${example}`,
    })
  }
}

/** `tnv rpc check` was given no endpoint. */
export class NoRpcEndpointError extends UsageError {
  override readonly code: string = 'NoRpcEndpoint'
  constructor() {
    super('No endpoint to check.', {
      fix: 'Give at least one of --http URL, --ws URL, --ipc PATH, for example: tnv rpc check --http http://127.0.0.1:8545',
    })
  }
}

/** An endpoint URL that is not http(s):// or ws(s)://. */
export class InvalidRpcUrlError extends BadInputError {
  override readonly code: string = 'InvalidRpcUrl'
  constructor(flag: string, value: string, expected: string) {
    super(`${flag} "${value}" is not a ${expected} URL.`, {
      fix: `Give the full URL, for example ${flag} ${expected === 'ws:// or wss://' ? 'ws://127.0.0.1:8546' : 'http://127.0.0.1:8545'}.`,
    })
  }
}

/** `--expect` flags without `--expect`, or `--expect` without the `--` list. */
export class ExpectFlagsError extends UsageError {
  override readonly code: string = 'ExpectFlags'
}
