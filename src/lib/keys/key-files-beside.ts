/**
 * Both key files in node-keys/: the encrypted `bls.kw` and a plaintext `bls.key` beside it.
 * The node picks by its passphrase (real-network/node.md §1, `KeyConfig::read_config`): with a
 * passphrase (the default source env, stdin, ask) it decrypts bls.kw; with no-passphrase, or
 * without a passphrase, it reads bls.key. Either way the plaintext file lays the secret open on
 * disk, so `keytool show` and `keytool verify` report it.
 */
import { promises as fs } from 'node:fs'
import type { DatadirPaths } from './datadir.js'

export type PlaintextKeyBeside = {
  /** The plaintext bls.key found beside bls.kw. */
  path: string
  /** One line for the operator: which file the node uses and what to do. */
  warning: string
}

/**
 * @returns the plaintext key beside the encrypted one, or null when there are not both
 * @example const beside = await plaintextKeyBeside(datadirPaths(dir))
 */
export async function plaintextKeyBeside(paths: DatadirPaths): Promise<PlaintextKeyBeside | null> {
  const exists = async (p: string) => (await fs.lstat(p).catch(() => undefined)) !== undefined
  const [kw, plain] = await Promise.all([exists(paths.blsKw), exists(paths.blsKey)])
  if (!kw || !plain) return null
  return {
    path: paths.blsKey,
    warning: `${paths.blsKey} (an UNENCRYPTED key) lies beside ${paths.blsKw}. The node decrypts bls.kw when it is given a passphrase (TN_BLS_PASSPHRASE, the default, or stdin/ask) and reads bls.key only with --bls-passphrase-source no-passphrase; either way anyone who can read bls.key has the validator's BLS secret. Check which key it holds (tnv keytool verify --bls-passphrase-source no-passphrase), then move it off the machine or delete it (shred -u ${paths.blsKey}).`,
  }
}
