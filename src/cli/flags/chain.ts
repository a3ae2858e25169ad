/**
 * Flag groups of the chain commands, defined once and spread into each command (like cast's
 * shared option groups). Light on purpose: command files import this at top level.
 * Resolution order everywhere: flag, then environment, then default.
 */
import { Flags } from '@oclif/core'
import { defaultDevnetDir } from '../../lib/chain/devnet-dir.js'
import { CHAIN_NAMES } from '../../lib/chain/presets.js'
import { KEYSTORE_PASSWORD_SOURCES, REGISTRY_GENERATION_NAMES } from '../../lib/options.js'
import { checkFlag } from './check.js'
import { yesFlag } from './common.js'

export { REGISTRY_GENERATION_NAMES } from '../../lib/options.js'

export const chainFlags = {
  chain: Flags.option({
    options: CHAIN_NAMES,
    env: 'TN_CHAIN',
    helpGroup: 'CHAIN',
    summary:
      'Network: devnet (the running local devnet), testnet = adiri = test-net (chain id 2017, https://rpc.adiri.tel), mainnet = main-net (chain id 487; needs --rpc-url).',
    description:
      "Default: devnet, unless --rpc-url names a custom endpoint. The endpoint's chain id is always checked against the network's. No public mainnet endpoint is known to tnv: pass --rpc-url of a mainnet node with --chain mainnet.",
  })(),
  'rpc-url': Flags.string({
    env: 'TN_RPC_URL',
    helpGroup: 'CHAIN',
    helpValue: '<url>',
    summary: "JSON-RPC endpoint (HTTP). Overrides the network's; alone, it names a custom network.",
  }),
  'rpc-timeout': Flags.integer({
    env: 'TN_RPC_TIMEOUT',
    helpGroup: 'CHAIN',
    min: 1,
    helpValue: '<seconds>',
    summary:
      'Seconds each JSON-RPC request may wait for an answer before it is sent again (default 15; 4 attempts). After 5 s without an answer a line names the endpoint and the attempt.',
  }),
  registry: Flags.string({
    env: 'TN_REGISTRY',
    helpGroup: 'CHAIN',
    helpValue: '<address>',
    summary: 'Registry address (default 0x07e17e17e17e17e17e17e17e17e17e17e17e17e1, the same on every network).',
  }),
  'chain-id': Flags.integer({
    env: 'TN_CHAIN_ID',
    helpGroup: 'CHAIN',
    min: 1,
    summary: 'Chain id the custom --rpc-url must report (checked before anything is signed).',
  }),
  'registry-generation': Flags.option({
    options: REGISTRY_GENERATION_NAMES,
    env: 'TN_REGISTRY_GENERATION',
    helpGroup: 'CHAIN',
    summary: 'The registry generation you expect at the address: adiri (the test network) or next (the specification).',
    description:
      'tnv always detects the generation from the code at the registry address; with this flag, code of another generation (or of none) is an error (exit 12) instead of being used.',
  })(),
  'accept-registry-code': Flags.string({
    env: 'TN_ACCEPT_REGISTRY_CODE',
    helpGroup: 'CHAIN',
    helpValue: '<0x code hash>',
    summary:
      'Accept registry code that has the full interface of a known generation but is not a build tnv knows, by its exact keccak256 code hash.',
    description:
      "Without it, tnv reads such code (with a note) but refuses to build calldata or sign for it (exit 12). The hash is printed by that refusal; compare it with the network operator's published registry build before accepting it.",
  }),
  // where --chain devnet finds the running devnet's devnet.json: the command layer reads the
  // environment, the library is handed the directory
  'devnet-dir': Flags.string({
    hidden: true,
    helpGroup: 'CHAIN',
    helpValue: '<dir>',
    summary: 'The devnet directory --chain devnet reads devnet.json from.',
    description: 'Defaults to $TNV_DEVNET_DIR, else $XDG_DATA_HOME/tnv/devnet, else ~/.local/share/tnv/devnet.',
    default: async () => defaultDevnetDir(process.env),
  }),
}

export const signerFlags = {
  keystore: Flags.string({
    env: 'TN_KEYSTORE',
    helpGroup: 'SIGNER',
    helpValue: '<file>',
    summary: 'Ethereum V3 JSON keystore of the sender (as geth and `cast wallet import` write it).',
  }),
  'keystore-password-source': Flags.option({
    options: KEYSTORE_PASSWORD_SOURCES,
    default: 'env' as const,
    helpGroup: 'SIGNER',
    summary: 'Where the keystore password comes from.',
    description:
      'env: TN_KEYSTORE_PASSWORD (removed from the environment once read; when unset, a hidden prompt on a TTY). stdin: the first line of standard input. ask: a hidden prompt (TTY only).',
  })(),
  unsigned: Flags.boolean({
    helpGroup: 'SIGNER',
    summary:
      'Print the unsigned transaction (JSON and a ready `cast send` line) for a multisig or hardware wallet; send nothing.',
  }),
  from: Flags.string({
    helpGroup: 'SIGNER',
    helpValue: '<address>',
    summary: 'Sender of an --unsigned transaction (nonce and gas are prepared for it).',
  }),
  ledger: Flags.boolean({
    helpGroup: 'SIGNER',
    exclusive: ['keystore', 'unsigned', 'trezor'],
    summary: 'Sign with a Ledger (through foundry’s cast): the address is read from the device and checked first.',
  }),
  trezor: Flags.boolean({
    helpGroup: 'SIGNER',
    exclusive: ['keystore', 'unsigned', 'ledger'],
    summary: 'Sign with a Trezor (through foundry’s cast): the address is read from the device and checked first.',
  }),
  'hd-path': Flags.string({
    helpGroup: 'SIGNER',
    helpValue: '<path>',
    exclusive: ['hd-index'],
    summary: "With --ledger/--trezor: the account's derivation path (default m/44'/60'/0'/0/<--hd-index>).",
  }),
  'hd-index': Flags.integer({
    helpGroup: 'SIGNER',
    min: 0,
    helpValue: '<n>',
    summary: 'With --ledger/--trezor: the account index on the default path (default 0).',
  }),
  format: Flags.option({
    options: ['tx', 'safe'] as const,
    helpGroup: 'SIGNER',
    summary:
      'With --unsigned: tx (default) prints the transaction and a cast line; safe writes a Safe Transaction Builder batch (for a validator address that is a Safe).',
  })(),
  out: Flags.string({
    helpGroup: 'SIGNER',
    helpValue: '<file>',
    summary: 'With --format safe: write the batch file here (atomically) instead of printing it.',
  }),
}

/** Every state-changing command: --yes, --check (and --json, which BaseCommand adds). */
export const txFlags = {
  ...yesFlag,
  ...checkFlag,
}
