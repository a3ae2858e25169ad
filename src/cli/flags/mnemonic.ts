/**
 * Flags of the recovery phrase (tnv extra): `keytool generate --mnemonic`, `keytool recover`,
 * `keytool backup verify --mnemonic-file`. A phrase is never a flag value: it is shown on the
 * terminal, or written to / read from a file (or a line of standard input).
 */
import { Flags } from '@oclif/core'

export const mnemonicIndexFlag = {
  'mnemonic-index': Flags.integer({
    min: 0,
    max: 4294967295,
    default: 0,
    summary: '(tnv extra) Which validator of the phrase: the <index> of the key path m/12381/5522764/<index>/0/0.',
    description:
      'One phrase can hold many validators; each index is a different key. Keep the index with the phrase (0 unless you chose another).',
  }),
}

export const generateMnemonicFlags = {
  mnemonic: Flags.boolean({
    summary: '(tnv extra) Derive the BLS key from a new 24-word recovery phrase (BIP-39, EIP-2333), shown once.',
    description:
      'On a terminal the phrase is shown once, then you re-type chosen words to prove you wrote it down; nothing is written before that. Without a terminal it goes only to --mnemonic-out (a new file, mode 0600), never to stdout or a log. `tnv keytool recover` rebuilds the data directory from it. Anyone who has the words holds the key: see docs/keytool.md.',
  }),
  'mnemonic-out': Flags.string({
    helpValue: '<file>',
    dependsOn: ['mnemonic'],
    summary:
      '(tnv extra) Write the recovery phrase to this new file (mode 0600) instead of showing it: needed without a terminal.',
  }),
  ...mnemonicIndexFlag,
}

export const mnemonicFileFlag = {
  'mnemonic-file': Flags.string({
    helpValue: '<file>',
    summary: '(tnv extra) Read the recovery phrase from this file (- for one line of standard input).',
    description:
      'Without it the phrase is asked at a hidden prompt (terminal only). The file should be readable by you only (0600); tnv warns otherwise. A phrase is never a command-line value.',
  }),
}
