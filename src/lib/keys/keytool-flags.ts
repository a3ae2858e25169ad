/** Flag groups of the keytool commands, defined once and spread into each command. */
import { Flags } from '@oclif/core'

export const addressFlag = {
  address: Flags.string({
    summary: 'Validator execution address the proof of possession commits to (0 = the zero address).',
    description:
      'The 20-byte execution-layer address that receives block rewards and that governance whitelists. 0x is optional; mixed case must carry a valid EIP-55 checksum.',
    env: 'EXECUTION_ADDRESS',
    required: true,
    helpValue: '<address>',
  }),
}

export const p2pAddressFlags = {
  'external-primary-addr': Flags.string({
    summary: 'Public multiaddr of the primary: /ip4/<ip>/udp/<port>/quic-v1 (also /ip6, /dns4, /dns6).',
    description:
      'Without it a local-only /ip4/127.0.0.1/udp/<free port>/quic-v1 is written, useful only on this machine.',
    env: 'TN_EXTERNAL_PRIMARY_ADDR',
    helpValue: '<multiaddr>',
  }),
  'external-worker-addrs': Flags.string({
    summary: 'Public multiaddrs of the workers, comma-separated, one per worker, same form.',
    env: 'TN_EXTERNAL_WORKER_ADDRS',
    helpValue: '<multiaddr>[,<multiaddr>…]',
  }),
}

export const generateFlags = {
  name: Flags.string({
    summary: 'Node name (default: node- + base58 of the first 8 bytes of the BLS public key).',
    helpValue: '<name>',
  }),
  workers: Flags.integer({
    summary: 'Number of workers (the reference node runs exactly 1).',
    description:
      'Worker 0 uses node-keys/worker.seed as the reference does; worker i >= 1 gets node-keys/worker-<i>.seed (see docs/keytool.md).',
    default: 1,
    min: 1,
    max: 4,
  }),
  'rpc-http': Flags.string({
    summary: 'HTTP(S) RPC endpoint worker 0 advertises in node-info.yaml.',
    helpValue: '<url>',
  }),
  'rpc-ws': Flags.string({
    summary: 'WebSocket RPC endpoint worker 0 advertises (needs --rpc-http).',
    helpValue: '<url>',
    dependsOn: ['rpc-http'],
  }),
  force: Flags.boolean({
    summary: 'Replace existing keys (kept in a timestamped backup). Never for a validator that has staked.',
  }),
}

export const NEW_PASSPHRASE_SOURCES = ['env', 'stdin', 'ask'] as const

export const newPassphraseFlag = {
  'new-passphrase-source': Flags.option({
    options: NEW_PASSPHRASE_SOURCES,
    default: 'ask' as const,
    summary: 'Where the new passphrase comes from.',
    description:
      'env: the TN_NEW_BLS_PASSPHRASE variable (removed once read). stdin: a line of standard input (the line after the current passphrase when both come from stdin). ask: a hidden prompt, asked twice (TTY only).',
  })(),
}
