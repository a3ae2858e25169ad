/**
 * Signs the adiri registry's proof of possession with the validator's BLS key, for a stake or
 * a delegation signature on adiri (./generations/adiri-proof.ts): node-info.yaml does not hold
 * that proof, so tnv opens the key, only when the registry found is adiri and a proof is
 * needed, with the same passphrase sources as the keytool, and says why first. The secret is
 * zeroed once the proof is made; nothing secret leaves this function.
 */

import { TnvError } from '../errors.js'
import type { PassphraseSource } from '../options.js'
import type { PassphraseEnv, PromptIo } from '../passphrase/read-passphrase.js'
import type { StdinLines } from '../passphrase/stdin-lines.js'
import { signAdiriProof } from './generations/adiri-proof.js'
import type { SignAdiriProof } from './stake-checks.js'

export type AdiriProofSignerParameters = {
  /** The data directory holding node-keys/bls.kw (or bls.key). */
  datadir: string
  source: PassphraseSource
  /** Where the "why" line goes (stderr). */
  note: (line: string) => void
  /**
   * The passphrase variables the session hands over (src/cli/session.ts `passphraseEnv`); the
   * wizard passes the passphrase of keys it just made.
   */
  env: PassphraseEnv
  /** The run's one stdin reader (source stdin: the next line). */
  stdin?: StdinLines | undefined
  /** The hidden prompt (source ask). */
  io?: PromptIo | undefined
}

/**
 * @example await stake(ctx, { ..., signAdiriProof: adiriProofSigner({ datadir, source: 'env', env: session.passphraseEnv('env'), note }) })
 */
export function adiriProofSigner({
  datadir,
  source,
  note,
  env,
  stdin,
  io,
}: AdiriProofSignerParameters): SignAdiriProof {
  return async ({ validator, blsPubkey }) => {
    note(
      `The adiri registry checks a proof of possession over its own 218-byte message (with the uncompressed public key), which node-info.yaml does not hold: tnv opens the BLS key in ${datadir} to sign it for ${validator} (passphrase source: ${source}).`,
    )
    const [{ openBlsKey }, { blsPublicKey }, { recordKeyBinding }] = await Promise.all([
      import('../keys/open-key.js'),
      import('../keys/bls.js'),
      import('../keys/key-binding.js'),
    ])
    let key: Awaited<ReturnType<typeof openBlsKey>>
    try {
      key = await openBlsKey({
        datadir,
        source,
        ...(stdin ? { stdin } : {}),
        ...(io ? { io } : {}),
        env,
      })
    } catch (err) {
      if (err instanceof TnvError)
        err.details.push(
          'The key is needed because the adiri registry takes a proof over its own message; alternatively pass --adiri-pop from `tnv keytool export-staking-args --registry-generation adiri --json`, run where the key is.',
        )
      throw err
    }
    try {
      // the key was opened anyway: record which public key this key file holds
      await recordKeyBinding(datadir, blsPublicKey(key.secret)).catch(() => {})
      return signAdiriProof(key.secret, blsPubkey, validator)
    } finally {
      key.secret.fill(0)
    }
  }
}
