/**
 * Errors about node-info.yaml and the values that go into it (addresses, multiaddrs, URLs,
 * base58 fields). All are bad input: exit code 3, and nothing was changed.
 */
import { dirname } from 'node:path'
import { BadInputError, type TnvErrorOptions } from '../errors.js'
import { formLabel } from './forms.js'
import type { NodeInfoForm } from './types.js'

/** node-info.yaml (or the directory that should hold it) does not exist. */
export class NodeInfoMissingError extends BadInputError {
  override readonly code: string = 'NodeInfoMissing'
  constructor(path: string, options: TnvErrorOptions = {}) {
    super(`${path} does not exist.`, {
      fix: 'Point --node-info (or --datadir) at a data directory that holds node-info.yaml, or make keys first: `tnv keytool generate validator --address <address> --datadir <dir>`.',
      ...options,
    })
  }
}

/** The file is not YAML (or is cut short so that it no longer parses). */
export class NodeInfoSyntaxError extends BadInputError {
  override readonly code: string = 'NodeInfoSyntax'
  constructor(path: string, problem: string) {
    super(`${path} is not valid YAML (the node stops on it with "bad yaml data"): ${problem}. Nothing was changed.`, {
      fix: 'Restore node-info.yaml from your backup (keytool keeps timestamped copies in backup-* directories of the data directory).',
    })
  }
}

/** Which tnv command (or edit) repairs a field of node-info.yaml. */
export type NodeInfoRepair = 'restore' | 'pop' | 'rpc' | 'primary-rpc' | 'unknown-key'

function repairText(repair: NodeInfoRepair, path: string): string {
  const datadir = dirname(path)
  switch (repair) {
    case 'pop':
      return `Re-sign it with the node's key: \`tnv keytool generate pop --address <validator address> --datadir ${datadir}\` rewrites execution_address and proof_of_possession (and keeps the file's form).`
    case 'rpc':
      return `Set or clear the worker's endpoints: \`tnv keytool set-rpc --http <url> [--ws <url>] --datadir ${datadir}\` or \`tnv keytool set-rpc --clear --datadir ${datadir}\` (it replaces that rpc entry and keeps the file's form).`
    case 'primary-rpc':
      return 'Edit the file: write `rpc: ~` under p2p_info.primary (the node advertises RPC endpoints on the worker only; set those with `tnv keytool set-rpc`).'
    case 'unknown-key':
      return 'Delete that key from the file: neither node release writes it (a misspelling?). tnv refuses unknown keys so that a typo is never silently dropped.'
    default:
      return `Restore node-info.yaml from a backup-* directory of ${datadir} (keytool keeps a copy before every rewrite); a node that has not staked can instead get new keys with \`tnv keytool generate validator --force\`.`
  }
}

/** A field of node-info.yaml is missing, of the wrong type, malformed, or unknown. */
export class NodeInfoFieldError extends BadInputError {
  override readonly code: string = 'NodeInfoField'
  readonly field: string
  readonly form: NodeInfoForm | null
  constructor(
    path: string,
    field: string,
    problem: string,
    { form = null, repair = 'restore' }: { form?: NodeInfoForm | null; repair?: NodeInfoRepair } = {},
  ) {
    super(`${path}: ${field}: ${problem}. The file is in ${formLabel(form)}; nothing was changed.`, {
      fix: repairText(repair, path),
    })
    this.field = field
    this.form = form
  }
}

/** An execution address that is not 20 bytes of hex (or `0`). */
export class InvalidAddressError extends BadInputError {
  override readonly code: string = 'InvalidAddress'
  constructor(label: string, value: string) {
    super(
      `${label}: "${value}" is not an execution address (20 bytes of hex, optionally 0x-prefixed, or 0 for the zero address).`,
      {
        fix: "Pass the validator's address as 0x followed by 40 hex digits, e.g. --address 0x1234…abcd.",
      },
    )
  }
}

/** A mixed-case address whose EIP-55 checksum does not match: most likely a typo. */
export class InvalidAddressChecksumError extends BadInputError {
  override readonly code: string = 'InvalidAddressChecksum'
  constructor(label: string, value: string) {
    super(`${label}: "${value}" has mixed case but its EIP-55 checksum is wrong, so it probably contains a typo.`, {
      fix: 'Copy the address again from its source (the wallet that holds it). All-lowercase hex skips the checksum check.',
    })
  }
}

/** A p2p multiaddr outside the accepted form, or one that already names another peer. */
export class InvalidMultiaddrError extends BadInputError {
  override readonly code: string = 'InvalidMultiaddr'
  constructor(label: string, value: string, problem: string) {
    super(`${label}: "${value}" ${problem}.`, {
      fix: "Use the form /ip4/<ip>/udp/<port>/quic-v1 (or /ip6/, /dns4/, /dns6/), e.g. /ip4/203.0.113.10/udp/49590/quic-v1, without a /p2p/ part (keytool appends the node's own peer id).",
    })
  }
}

/**
 * An RPC URL with the wrong scheme, malformed, or too long. `problem` is the node's own cause text
 * where it has one (real-network/node.md §1, "Common error texts").
 */
export class InvalidWorkerRpcUrlError extends BadInputError {
  override readonly code: string = 'InvalidWorkerRpcUrl'
  readonly problem: string
  constructor(label: string, value: string, problem: string) {
    super(
      `${label}: invalid worker rpc endpoint: ${problem} (got "${value.length > 120 ? `${value.slice(0, 120)}…` : value}").`,
      {
        fix: 'Use an http:// or https:// URL for the HTTP endpoint and a ws:// or wss:// URL for the WebSocket one, at most 2048 bytes each, e.g. https://rpc.example.org.',
      },
    )
    this.problem = problem
  }
}

/** An advertised RPC URL with `user:password@`: node-info.yaml is public, so the credentials would be published. */
export class RpcUrlCredentialsError extends BadInputError {
  override readonly code: string = 'RpcUrlCredentials'
  constructor(label: string, redacted: string) {
    super(
      `${label}: the URL carries credentials (user:password@, shown here as ${redacted}). node-info.yaml is public: it is handed to the registry's operators and read by other validators, so the credentials would be published with it. Nothing was written.`,
      {
        fix: "Advertise the URL without credentials (e.g. https://rpc.example.org) and protect the endpoint another way (a reverse proxy with its own authentication, an IP allow-list, or the node's --rpc.jwtsecret); change that password if it was ever written anywhere.",
      },
    )
  }
}
