/**
 * Flag groups of the keytool commands, defined once and spread into each command. Names,
 * aliases and environment variables are the real keytool's (real-network/node.md §1); what
 * the real keytool does not have is marked "tnv extra" in its summary.
 */
import { Flags } from '@oclif/core'
import { NODE_INFO_FORMS } from '../../lib/nodeinfo/types.js'

export const addressFlag = {
  address: Flags.string({
    summary: 'Validator execution address the proof of possession commits to (0 = the zero address).',
    description:
      "The 20-byte execution-layer address that receives block rewards and that governance whitelists. 0x is optional. Alias --execution-address; environment EXECUTION_ADDRESS, as in the node's keytool. Unlike the node, tnv refuses a mixed-case address whose EIP-55 checksum is wrong (a typo); all-lowercase is taken as is.",
    env: 'EXECUTION_ADDRESS',
    aliases: ['execution-address'],
    required: true,
    helpValue: '<address>',
  }),
}

export const p2pAddressFlags = {
  'external-primary-addr': Flags.string({
    summary: 'Public multiaddr of the primary: /ip4/<ip>/udp/<port>/quic-v1 (also /ip6, /dns4, /dns6).',
    description:
      'keytool appends /p2p/<peer id>. Without it a local-only /ip4/127.0.0.1/udp/<free port>/quic-v1 is written, useful only on this machine.',
    env: 'TN_EXTERNAL_PRIMARY_ADDR',
    helpValue: '<multiaddr>',
  }),
  'external-worker-addrs': Flags.string({
    summary: 'Public multiaddrs of the workers, comma-separated, same form.',
    description:
      'One per worker, in order. With one worker (the released node) only the first is used, as the node does; the rest are reported and ignored.',
    env: 'TN_EXTERNAL_WORKER_ADDRS',
    helpValue: '<multiaddr>[,<multiaddr>…]',
  }),
}

export const nodeInfoFormFlag = {
  'node-info-form': Flags.option({
    options: NODE_INFO_FORMS,
    summary:
      "(tnv extra) node-info.yaml form: worker (one map, read by the released node) or workers (the specification's list).",
    description:
      'worker: p2p_info.worker, one map, what the released node (v0.14.0-adiri and main) reads and writes; the specification\'s release reads it too. workers: p2p_info.workers, the specification\'s list, which the released node refuses ("missing field `worker`"). Default: worker for one worker; a rewrite (generate pop, set-rpc) keeps the form the file has. Several workers need workers.',
    helpValue: '<form>',
  })(),
}

export const generateFlags = {
  name: Flags.string({
    summary: 'Node name (default: node- + base58 of the first 8 bytes of the BLS public key).',
    helpValue: '<name>',
  }),
  workers: Flags.integer({
    summary: 'Number of workers: 1 for the released node; 2 to 4 are a tnv extra (the specification).',
    description:
      'The released node accepts only 1 ("Only supports a single worker at this time!"). tnv writes up to 4 for the specification\'s release: worker 0 uses node-keys/worker.seed as the node does, worker i >= 1 gets node-keys/worker-<i>.seed, and node-info.yaml is written as a workers: list (see docs/keytool.md).',
    default: 1,
    min: 1,
    max: 4,
  }),
  'rpc-http': Flags.string({
    summary: 'HTTP(S) RPC endpoint the worker advertises in node-info.yaml.',
    helpValue: '<url>',
  }),
  'rpc-ws': Flags.string({
    summary: 'WebSocket RPC endpoint the worker advertises (needs --rpc-http).',
    helpValue: '<url>',
    dependsOn: ['rpc-http'],
  }),
  force: Flags.boolean({
    summary: 'Replace existing keys (alias --overwrite). tnv keeps them in a timestamped backup first.',
    description:
      'The node overwrites with no backup; tnv moves the old node-keys/ and node-info.yaml to backup-<time>/. Never for a validator that has staked: the registry binds its BLS key for good.',
    aliases: ['overwrite'],
  }),
  'skip-registry-check': Flags.boolean({
    summary:
      '(tnv extra) With --force: replace the keys without asking the registry whether it binds them (only for keys never staked anywhere).',
    description:
      'By default --force asks the registry of the configured network (--chain, --rpc-url, TN_CHAIN; devnet when none is given) and refuses to replace a registered key; a network that cannot be asked stops the replacement too.',
    dependsOn: ['force'],
  }),
  ...nodeInfoFormFlag,
}

export const NEW_PASSPHRASE_SOURCES = ['env', 'stdin', 'ask'] as const

export const newPassphraseFlag = {
  'new-passphrase-source': Flags.option({
    options: NEW_PASSPHRASE_SOURCES,
    default: 'ask' as const,
    summary: 'Where the new passphrase comes from.',
    description:
      'env: the TN_NEW_BLS_PASSPHRASE variable (removed once read; empty counts as unset). stdin: a line of standard input, trailing whitespace dropped as the node does (the line after the current passphrase when both come from stdin). ask: a hidden prompt, asked twice (TTY only).',
  })(),
}
