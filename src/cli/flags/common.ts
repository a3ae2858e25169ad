/**
 * Flag groups shared by commands, defined once and spread into each command's `flags`.
 * Resolution order everywhere: flag, then environment, then config, then default.
 */
import { Flags } from '@oclif/core'
import { defaultDatadir, PASSPHRASE_SOURCES } from '../../lib/options.js'

export type { PassphraseSource } from '../../lib/options.js'

export const datadirFlag = {
  datadir: Flags.string({
    summary: 'Node data directory (node-info.yaml, node-keys/).',
    description:
      "Defaults to the reference node's: $XDG_DATA_HOME/telcoin-network or ~/.local/share/telcoin-network on Linux, ~/Library/Application Support/telcoin-network on macOS.",
    env: 'TN_DATADIR',
    helpValue: '<path>',
    default: async () => defaultDatadir(process.platform, process.env),
    defaultHelp: async () => '~/.local/share/telcoin-network',
  }),
}

export const passphraseFlags = {
  'bls-passphrase-source': Flags.option({
    options: PASSPHRASE_SOURCES,
    default: 'env' as const,
    summary: 'Where the BLS key passphrase comes from.',
    description:
      'As the node reads it. env: the TN_BLS_PASSPHRASE variable (removed from the environment once read; an empty value counts as unset). stdin: a line of standard input with all trailing whitespace dropped (an empty line = no passphrase). ask: a hidden prompt (TTY only). no-passphrase: none; keys are written and read as the unencrypted bls.key. With a passphrase, bls.kw is opened when it exists, else bls.key (the passphrase is then not used). A passphrase is never accepted as a command-line value.',
  })(),
}

export const quietFlag = {
  quiet: Flags.boolean({ char: 'q', summary: 'Print only the result (no log lines), so the output can be captured.' }),
}

export const yesFlag = {
  yes: Flags.boolean({
    char: 'y',
    summary: 'Skip the confirmation prompt (needed without a TTY for steps that move your TEL or cannot be undone).',
  }),
}
