/**
 * The BLS passphrase as a systemd credential (systemd.exec(5), "Credentials"): a unit's
 * `LoadCredential=tn-bls-passphrase:/etc/tnv/<instance>/bls-passphrase` makes the file readable
 * by that service alone at `$CREDENTIALS_DIRECTORY/tn-bls-passphrase`. tnv reads it as the
 * `env` source's value when `TN_BLS_PASSPHRASE` is unset or empty (a variable set explicitly
 * wins), so every command that takes `--bls-passphrase-source env` (the default) works under
 * such a unit, and `tnv node start` hands it to a real node binary as the deployment scripts do.
 *
 * The file's trailing line endings are dropped (as the deployment's `$(cat …)` drops them: it
 * writes the file with a trailing newline); nothing else is changed. At most 64 KiB is read.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { PASSPHRASE_ENV } from './env-var.js'
import { assertUtf8Secret } from './errors.js'

export const PASSPHRASE_CREDENTIAL_NAME = 'tn-bls-passphrase'
const MAX_BYTES = 64 * 1024

export type CredentialPassphraseParameters = {
  /** `$CREDENTIALS_DIRECTORY`, as systemd set it for the service. */
  directory: string
  name?: string
}

/**
 * @returns the passphrase, or undefined when the credential is absent or empty
 * @example const passphrase = readCredentialPassphrase({ directory: process.env.CREDENTIALS_DIRECTORY })
 */
export function readCredentialPassphrase({
  directory,
  name = PASSPHRASE_CREDENTIAL_NAME,
}: CredentialPassphraseParameters): string | undefined {
  const path = join(directory, name)
  let size: number
  try {
    const st = statSync(path)
    if (!st.isFile()) return undefined
    size = st.size
  } catch {
    return undefined
  }
  if (size > MAX_BYTES) return undefined
  const value = readFileSync(path, 'utf8').replace(/(\r?\n)+$/, '')
  if (value === '') return undefined
  assertUtf8Secret(value, 'BLS key passphrase', { kind: 'env', name: `$CREDENTIALS_DIRECTORY/${name}` })
  return value
}

/**
 * Puts the credential into `env[TN_BLS_PASSPHRASE]` when systemd provided one and the variable is
 * not set; the `env` source then reads (and removes) it as usual.
 * @returns whether the credential was used
 */
export function applyCredentialPassphrase(env: NodeJS.ProcessEnv): boolean {
  const directory = env.CREDENTIALS_DIRECTORY
  if (!directory) return false
  const current = env[PASSPHRASE_ENV]
  if (current !== undefined && current !== '') return false
  const value = readCredentialPassphrase({ directory })
  if (value === undefined) return false
  env[PASSPHRASE_ENV] = value
  return true
}
