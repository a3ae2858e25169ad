/**
 * The BLS passphrase as a systemd credential (systemd.exec(5), "Credentials"): a unit's
 * `LoadCredential=tn-bls-passphrase:/etc/tnv/<instance>/bls-passphrase` makes the file readable
 * by that service alone at `$CREDENTIALS_DIRECTORY/tn-bls-passphrase`. tnv reads it as the
 * `env` source's value when `TN_BLS_PASSPHRASE` is unset or empty (a variable set explicitly
 * wins; the session puts it there, src/cli/session.ts `resolveEnvironmentSecrets`), so every command that takes `--bls-passphrase-source env` (the default) works under
 * such a unit, and `tnv node start` hands it to a real node binary as the deployment scripts do.
 *
 * The file's trailing line endings are dropped (as the deployment's `$(cat …)` drops them: it
 * writes the file with a trailing newline); nothing else is changed. At most 64 KiB is read.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
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
