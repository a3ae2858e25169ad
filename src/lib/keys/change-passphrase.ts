/**
 * What `keytool change-passphrase` does: re-wraps the BLS secret under a new passphrase with a
 * fresh salt and nonce (1,000,000 PBKDF2 iterations), atomically, keeping the old key file in
 * a timestamped backup. An unencrypted bls.key becomes bls.kw (bls.key moves to the backup).
 * The reference node has no such command; the file it writes is the reference's bls.kw.
 */
import { join } from 'node:path'
import { assertBlsSecret, blsPublicKey } from './bls.js'
import { decryptBlsKw, encryptBlsSecret } from './bls-kw.js'
import { commitFiles, type FileReplacement, stageFile } from './commit-files.js'
import { BLS_KW_FILE, datadirPaths, KEY_FILE_MODE } from './datadir.js'
import { KEY_BINDING_FILE, keyBindingText } from './key-binding.js'
import type { OpenBlsKeyReturnType } from './open-key.js'

export type ChangePassphraseParameters = {
  datadir: string
  openKey: () => Promise<OpenBlsKeyReturnType>
  /** Called after the key opened: the new, non-empty passphrase. */
  newPassphrase: () => Promise<string>
}

export type ChangePassphraseReturnType = {
  keyFile: string
  /** The key file that was replaced (bls.kw, or bls.key when it was unencrypted). */
  previousKeyFile: string
  backupDir?: string
  /** PBKDF2 iterations that opened the old file (1 = weak file, now fixed). */
  previousIterations?: number
}

/** @example await changePassphrase({ datadir, openKey, newPassphrase: async () => next }) */
export async function changePassphrase({
  datadir,
  openKey,
  newPassphrase,
}: ChangePassphraseParameters): Promise<ChangePassphraseReturnType> {
  const paths = datadirPaths(datadir)
  const key = await openKey()
  try {
    assertBlsSecret(key.secret)
    const passphrase = await newPassphrase()
    const text = await encryptBlsSecret({ secret: key.secret, passphrase })
    const check = await decryptBlsKw(text, passphrase)
    if (!check.ok || Buffer.compare(check.secret, key.secret) !== 0)
      throw new Error('the re-wrapped key does not open again') // a bug, never expected
    check.secret.fill(0)
    const staged = await stageFile(paths.blsKw, text, KEY_FILE_MODE)
    const bindingPath = join(paths.datadir, KEY_BINDING_FILE)
    const stagedBinding = await stageFile(
      bindingPath,
      keyBindingText(blsPublicKey(key.secret), BLS_KW_FILE, text),
      KEY_FILE_MODE,
    )
    const replacements: FileReplacement[] = [
      { kind: 'file', target: paths.blsKw, staged },
      { kind: 'file', target: bindingPath, staged: stagedBinding },
    ]
    if (!key.encrypted) replacements.push({ kind: 'remove', target: paths.blsKey })
    const { backupDir } = await commitFiles({ datadir: paths.datadir, replacements })
    return {
      keyFile: paths.blsKw,
      previousKeyFile: key.path,
      ...(backupDir ? { backupDir } : {}),
      ...(key.iterations !== undefined ? { previousIterations: key.iterations } : {}),
    }
  } finally {
    key.secret.fill(0)
  }
}
