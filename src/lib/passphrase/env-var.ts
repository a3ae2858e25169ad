/** The variable the node (and tnv's `env` passphrase source) reads the BLS key passphrase from. */
export const PASSPHRASE_ENV = 'TN_BLS_PASSPHRASE'

/**
 * The passphrase variables of the environment as the session hands them to the library
 * (src/cli/session.ts `passphraseEnv`), already taken out of tnv's own environment: the library
 * reads these values, never process.env, and changes nothing.
 */
export type PassphraseEnv = Readonly<Record<string, string | undefined>>
