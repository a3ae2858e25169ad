/**
 * What `keytool generate pop` does: re-signs the proof of possession for an address with the
 * key on disk. Keeps every key, the name and the p2p identities; changes only
 * execution_address and proof_of_possession; rewrites the whole node-info.yaml in the form it
 * had (or the form asked for), keeping a backup of the old file. A file whose
 * execution_address or proof_of_possession is damaged can be repaired this way: those two
 * fields are about to be replaced, so problems in them do not stop the read.
 */
import { formForWrite } from '../nodeinfo/forms.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import { formOf } from '../nodeinfo/serialize.js'
import type { Hex, NodeInfo, NodeInfoForm } from '../nodeinfo/types.js'
import { writeNodeInfo } from '../nodeinfo/write.js'
import { blsPublicKey } from './bls.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'
import { KeyMismatchError } from './errors.js'
import { assertFormFits } from './node-info-form.js'
import type { OpenBlsKeyReturnType } from './open-key.js'
import { signProofOfPossession } from './pop.js'

export type ResignProofOfPossessionParameters = {
  datadir: string
  address: Hex
  /** Opens the BLS key of the data directory (openBlsKey with the command's passphrase source). */
  openKey: () => Promise<OpenBlsKeyReturnType>
  /** Write this form instead of the file's own (`--node-info-form`). */
  form?: NodeInfoForm
}

export type ResignProofOfPossessionReturnType = {
  nodeInfo: string
  info: NodeInfo
  /** The address the file held, or null when that field was damaged (and is now repaired). */
  previousAddress: Hex | null
  addressChanged: boolean
  /** false when node-info.yaml already held exactly this (nothing written). */
  changed: boolean
  /** The form the file had, and the form it has now (they differ only when asked). */
  previousForm: NodeInfoForm
  form: NodeInfoForm
  /** Fields that were damaged and have been rewritten. */
  repaired: string[]
  backupDir?: string
  /** PBKDF2 iterations that opened bls.kw (1 = weak file). */
  iterations?: number
  /** A passphrase was given but the key is the unencrypted bls.key, so it was not used. */
  passphraseIgnored?: boolean
}

/** @example await resignProofOfPossession({ datadir, address, openKey: () => openBlsKey({ datadir, source }) }) */
export async function resignProofOfPossession({
  datadir,
  address,
  openKey,
  form: askedForm,
}: ResignProofOfPossessionParameters): Promise<ResignProofOfPossessionReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const skipped: { field: string; problem: string }[] = []
  const { path, info } = await readNodeInfo(paths.nodeInfo, { replacing: { pop: true }, skipped })
  if (askedForm) assertFormFits(path, askedForm, info.workers.length)
  const key = await openKey()
  try {
    const publicKey = blsPublicKey(key.secret)
    if (Buffer.compare(publicKey, info.blsPublicKey) !== 0)
      throw new KeyMismatchError(paths.nodeKeys, path, info.blsPublicKey, publicKey)
    const form = formForWrite(formOf(info), info.workers.length, askedForm)
    const next: NodeInfo = {
      ...info,
      form,
      executionAddress: address,
      proofOfPossession: signProofOfPossession(key.secret, address, publicKey),
    }
    const { changed, backupDir } = await writeNodeInfo({ datadir: paths.datadir, path, info: next })
    const addressDamaged = skipped.some((s) => s.field === 'execution_address')
    return {
      nodeInfo: path,
      info: next,
      previousAddress: addressDamaged ? null : info.executionAddress,
      addressChanged: addressDamaged || info.executionAddress !== address,
      changed,
      previousForm: formOf(info),
      form,
      repaired: skipped.map((s) => s.field),
      ...(backupDir ? { backupDir } : {}),
      ...(key.iterations !== undefined ? { iterations: key.iterations } : {}),
      ...(key.passphraseIgnored ? { passphraseIgnored: true } : {}),
    }
  } finally {
    key.secret.fill(0)
  }
}
