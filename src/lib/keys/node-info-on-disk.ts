/**
 * node-info.yaml read with its data directory held by the caller, and the key on disk (when there
 * is one) checked to be the key it records: a key commit killed halfway, or files copied by hand,
 * would otherwise stake a key the node does not hold.
 */
import { dirname } from 'node:path'
import { type ReadNodeInfoReturnType, readNodeInfo } from '../nodeinfo/read.js'
import { KeyOnDiskMismatchError } from './errors.js'
import { checkKeyOnDisk } from './key-binding.js'

export type ReadNodeInfoOfKeyOnDiskParameters = {
  /** node-info.yaml, or the directory holding it. */
  nodeInfoPath: string
  /** Locks the data directory for the caller's run; true when that finished or undid an interrupted key write. */
  lockDatadir: (datadir: string) => Promise<boolean>
  /** Told when the key on disk cannot be checked without its passphrase (not an error: the key is not opened). */
  onUnknown?: ((text: string) => void) | undefined
}

/**
 * @example const read = await readNodeInfoOfKeyOnDisk({ nodeInfoPath: './validator', lockDatadir })
 * @throws KeyOnDiskMismatchError when the key on disk is not the key node-info.yaml records
 */
export async function readNodeInfoOfKeyOnDisk({
  nodeInfoPath,
  lockDatadir,
  onUnknown,
}: ReadNodeInfoOfKeyOnDiskParameters): Promise<ReadNodeInfoReturnType> {
  // read once, and again only when opening the data directory repaired an interrupted key write
  let read = await readNodeInfo(nodeInfoPath)
  if (await lockDatadir(dirname(read.path))) read = await readNodeInfo(nodeInfoPath)
  const { path, info } = read
  const keyDir = dirname(path)
  const check = await checkKeyOnDisk(keyDir, info.blsPublicKey)
  if (check.status === 'mismatch')
    throw new KeyOnDiskMismatchError({
      datadir: keyDir,
      nodeInfoKey: info.blsPublicKey,
      onDisk: check.onDisk,
      keyFile: check.keyFile,
    })
  if (check.status === 'unknown')
    onUnknown?.(
      `tnv has no record of which key ${check.keyFile} holds, so it could not check that it is the key in ${path} without the passphrase; run \`tnv keytool verify --datadir ${keyDir}\` once to check and record it.`,
    )
  return read
}
