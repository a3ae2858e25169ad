/**
 * What `keytool convert` does (a tnv extra): rewrites node-info.yaml in the other form, e.g. a
 * `workers:` list that an older tnv wrote into the `worker:` map the released node reads, or
 * the map into the specification's list. Everything else is kept; the old file goes to a
 * backup. Rewriting into the form the file already has normalises its layout to what the node
 * writes. Needs no key.
 */
import { readNodeInfo } from '../nodeinfo/read.js'
import { formOf } from '../nodeinfo/serialize.js'
import type { NodeInfoForm } from '../nodeinfo/types.js'
import { writeNodeInfo } from '../nodeinfo/write.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'
import { assertFormFits } from './node-info-form.js'

export type ConvertNodeInfoParameters = {
  datadir: string
  form: NodeInfoForm
  /** --check: every check, then only whether the file would change; nothing is written. */
  check?: boolean | undefined
}

export type ConvertNodeInfoReturnType = {
  nodeInfo: string
  previousForm: NodeInfoForm
  form: NodeInfoForm
  /** false when the file already was exactly this (nothing written). */
  changed: boolean
  backupDir?: string
}

/** @example await convertNodeInfo({ datadir, form: 'worker' }) */
export async function convertNodeInfo({
  datadir,
  form,
  check = false,
}: ConvertNodeInfoParameters): Promise<ConvertNodeInfoReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const { path, info } = await readNodeInfo(paths.nodeInfo)
  assertFormFits(path, form, info.workers.length)
  const { changed, backupDir } = await writeNodeInfo({ datadir: paths.datadir, path, info: { ...info, form }, check })
  return { nodeInfo: path, previousForm: formOf(info), form, changed, ...(backupDir ? { backupDir } : {}) }
}
