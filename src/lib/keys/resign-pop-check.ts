/**
 * `keytool generate pop --check`, without the key: a proof of possession is deterministic (one
 * valid BLS signature per key and message), so node-info.yaml is already right when its
 * execution_address is the address, its proof verifies for it, and the file is byte for byte what
 * the rewrite (./resign-pop.ts) would write. A key on disk known not to be node-info.yaml's is
 * refused as the run refuses it; the passphrase is not asked. Writes nothing.
 */
import { readFile } from 'node:fs/promises'
import { formForWrite } from '../nodeinfo/forms.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import { formatNodeInfo, formOf } from '../nodeinfo/serialize.js'
import type { Hex, NodeInfoForm } from '../nodeinfo/types.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'
import { KeyMismatchError } from './errors.js'
import { checkKeyOnDisk } from './key-binding.js'
import { assertFormFits } from './node-info-form.js'
import { verifyProofOfPossession } from './pop.js'

export type CheckResignPopParameters = {
  datadir: string
  address: Hex
  /** The form asked for (--node-info-form); default: the file's own. */
  form?: NodeInfoForm | undefined
}

export type CheckResignPopReturnType = {
  /** node-info.yaml's path. */
  nodeInfo: string
  /** The file already holds the proof for the address, in the form the run would write. */
  done: boolean
}

/**
 * @example const { done } = await checkResignPop({ datadir: './validator', address })
 * @throws KeyMismatchError when the key on disk is known not to be node-info.yaml's
 */
export async function checkResignPop({
  datadir,
  address,
  form: asked,
}: CheckResignPopParameters): Promise<CheckResignPopReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const skipped: { field: string; problem: string }[] = []
  const { path, info } = await readNodeInfo(paths.nodeInfo, { replacing: { pop: true }, skipped })
  if (asked) assertFormFits(path, asked, info.workers.length)
  const onDisk = await checkKeyOnDisk(paths.datadir, info.blsPublicKey)
  if (onDisk.status === 'mismatch') throw new KeyMismatchError(paths.nodeKeys, path, info.blsPublicKey, onDisk.onDisk)
  const form = formForWrite(formOf(info), info.workers.length, asked)
  const done =
    skipped.length === 0 &&
    info.executionAddress.toLowerCase() === address.toLowerCase() &&
    verifyProofOfPossession({ publicKey: info.blsPublicKey, proof: info.proofOfPossession, address }) &&
    (await readFile(path, 'utf8')) === formatNodeInfo({ ...info, form, executionAddress: address })
  return { nodeInfo: path, done }
}
