/**
 * What `keytool generate pop` does: re-signs the proof of possession for an address with the
 * key on disk. Keeps every key, the name and the p2p identities; changes only
 * execution_address and proof_of_possession; rewrites the whole node-info.yaml (a legacy
 * `worker:` map becomes a `workers:` list), keeping a backup of the old file.
 */
import { readNodeInfo } from '../nodeinfo/read.js'
import type { Hex, NodeInfo } from '../nodeinfo/types.js'
import { writeNodeInfo } from '../nodeinfo/write.js'
import { blsPublicKey } from './bls.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'
import { KeyMismatchError } from './errors.js'
import type { OpenBlsKeyReturnType } from './open-key.js'
import { signProofOfPossession } from './pop.js'

export type ResignProofOfPossessionParameters = {
  datadir: string
  address: Hex
  /** Opens the BLS key of the data directory (openBlsKey with the command's passphrase source). */
  openKey: () => Promise<OpenBlsKeyReturnType>
}

export type ResignProofOfPossessionReturnType = {
  nodeInfo: string
  info: NodeInfo
  previousAddress: Hex
  addressChanged: boolean
  /** false when node-info.yaml already held exactly this (nothing written). */
  changed: boolean
  /** The file held a legacy `worker:` map, now rewritten as a `workers:` list. */
  rewroteLegacyWorkerMap: boolean
  backupDir?: string
  /** PBKDF2 iterations that opened bls.kw (1 = weak file). */
  iterations?: number
}

/** @example await resignProofOfPossession({ datadir, address, openKey: () => openBlsKey({ datadir, source }) }) */
export async function resignProofOfPossession({
  datadir,
  address,
  openKey,
}: ResignProofOfPossessionParameters): Promise<ResignProofOfPossessionReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const { path, info } = await readNodeInfo(paths.nodeInfo)
  const key = await openKey()
  try {
    const publicKey = blsPublicKey(key.secret)
    if (Buffer.compare(publicKey, info.blsPublicKey) !== 0) throw new KeyMismatchError(paths.nodeKeys, path)
    const { legacyWorkerMap, ...rest } = info
    const next: NodeInfo = {
      ...rest,
      executionAddress: address,
      proofOfPossession: signProofOfPossession(key.secret, address, publicKey),
    }
    const { changed, backupDir } = await writeNodeInfo({ datadir: paths.datadir, path, info: next })
    return {
      nodeInfo: path,
      info: next,
      previousAddress: info.executionAddress,
      addressChanged: info.executionAddress !== address,
      changed,
      rewroteLegacyWorkerMap: legacyWorkerMap === true,
      ...(backupDir ? { backupDir } : {}),
      ...(key.iterations !== undefined ? { iterations: key.iterations } : {}),
    }
  } finally {
    key.secret.fill(0)
  }
}
