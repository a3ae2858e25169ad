/**
 * Errors about node-info.yaml and the values that go into it (addresses, multiaddrs, URLs,
 * base58 fields). All are bad input: exit code 3, and nothing was changed.
 */
import { BadInputError, type TnvErrorOptions } from '../errors.js'

/** node-info.yaml (or the directory that should hold it) does not exist. */
export class NodeInfoMissingError extends BadInputError {
  constructor(path: string, options: TnvErrorOptions = {}) {
    super(`${path} does not exist.`, {
      fix: 'Point --node-info (or --datadir) at a data directory that holds node-info.yaml, or make keys first: `tnv keytool generate validator --address <address> --datadir <dir>`.',
      ...options,
    })
  }
}

/** The file is not YAML (or is cut short so that it no longer parses). */
export class NodeInfoSyntaxError extends BadInputError {
  constructor(path: string, problem: string) {
    super(`${path} is not valid YAML: ${problem}.`, {
      fix: 'Restore node-info.yaml from your backup (keytool keeps timestamped copies in backup-* directories of the data directory).',
    })
  }
}

/** A field of node-info.yaml is missing or malformed. */
export class NodeInfoFieldError extends BadInputError {
  constructor(path: string, field: string, problem: string) {
    super(`${path}: ${field}: ${problem}.`, {
      fix: 'Restore node-info.yaml from your backup (keytool keeps timestamped copies in backup-* directories of the data directory), or regenerate it with the keys it belongs to.',
    })
  }
}

/** An execution address that is not 20 bytes of hex (or `0`). */
export class InvalidAddressError extends BadInputError {
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
  constructor(label: string, value: string) {
    super(`${label}: "${value}" has mixed case but its EIP-55 checksum is wrong, so it probably contains a typo.`, {
      fix: 'Copy the address again from its source (the wallet that holds it). All-lowercase hex skips the checksum check.',
    })
  }
}

/** A p2p multiaddr outside the accepted form, or one that already names another peer. */
export class InvalidMultiaddrError extends BadInputError {
  constructor(label: string, value: string, problem: string) {
    super(`${label}: "${value}" ${problem}.`, {
      fix: "Use the form /ip4/<ip>/udp/<port>/quic-v1 (or /ip6/, /dns4/, /dns6/), e.g. /ip4/203.0.113.10/udp/49590/quic-v1, without a /p2p/ part (keytool appends the node's own peer id).",
    })
  }
}

/** An RPC URL with the wrong scheme, malformed, or too long. */
export class InvalidRpcUrlError extends BadInputError {
  constructor(label: string, value: string, problem: string) {
    super(`${label}: "${value.length > 120 ? `${value.slice(0, 120)}…` : value}" ${problem}.`, {
      fix: 'Use an http:// or https:// URL for --http and a ws:// or wss:// URL for --ws, at most 2048 characters each, e.g. --http https://rpc.example.org.',
    })
  }
}
