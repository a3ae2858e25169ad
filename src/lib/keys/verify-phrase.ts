/**
 * What `keytool backup verify --mnemonic-file` does: proves that a recovery phrase gives the key
 * of a data directory (node-info.yaml's BLS public key, on the phrase's path for the index), and
 * records it there (./backup-record.ts) — for a phrase that went to a file without a terminal,
 * or to check a paper copy later.
 */
import { readNodeInfo } from '../nodeinfo/read.js'
import { recordBackupProof } from './backup-record.js'
import { blsPublicKey } from './bls.js'
import { datadirPaths } from './datadir.js'
import { blsSecretFromMnemonic, validatorKeyPath } from './mnemonic-key.js'
import { BackupOfAnotherKeyError } from './recovery-errors.js'

export type VerifyPhraseReturnType = { blsPublicKey: string; keyPath: string; recorded: string }

/** @throws BackupOfAnotherKeyError (the phrase gives another key), node-info's errors */
export async function verifyPhrase({
  datadir,
  phrase,
  index = 0,
}: {
  datadir: string
  /** A checked phrase (./read-mnemonic.ts). */
  phrase: string
  index?: number
}): Promise<VerifyPhraseReturnType> {
  const paths = datadirPaths(datadir)
  const { info } = await readNodeInfo(paths.datadir)
  const own = `0x${Buffer.from(info.blsPublicKey).toString('hex')}`
  const secret = blsSecretFromMnemonic(phrase, index)
  let derived: string
  try {
    derived = `0x${Buffer.from(blsPublicKey(secret)).toString('hex')}`
  } finally {
    secret.fill(0)
  }
  const keyPath = validatorKeyPath(index)
  if (derived !== own)
    throw new BackupOfAnotherKeyError({
      what: `The recovery phrase (key path ${keyPath})`,
      backupKey: derived,
      datadirKey: own,
      datadir: paths.datadir,
    })
  const recorded = await recordBackupProof(paths.datadir, {
    how: 'phrase-verified',
    blsPublicKey: own,
    keyPath,
    at: new Date().toISOString(),
  })
  return { blsPublicKey: own, keyPath, recorded }
}
