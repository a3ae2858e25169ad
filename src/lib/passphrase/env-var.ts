/** The variable the node (and tnv's `env` passphrase source) reads the BLS key passphrase from. */
export const PASSPHRASE_ENV = 'TN_BLS_PASSPHRASE'
