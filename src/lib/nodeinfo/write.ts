/** Rewrites node-info.yaml atomically, keeping the previous file in a timestamped backup. */
import { readFile } from 'node:fs/promises'
import { commitFiles, stageFile } from '../keys/commit-files.js'
import { formatNodeInfo } from './serialize.js'
import type { NodeInfo } from './types.js'

export type WriteNodeInfoParameters = {
  /** The data directory (backups go there). */
  datadir: string
  /** node-info.yaml path. */
  path: string
  info: NodeInfo
}

export type WriteNodeInfoReturnType = {
  /** false when the file already had exactly this content (nothing was written). */
  changed: boolean
  backupDir?: string
}

/** @example await writeNodeInfo({ datadir, path, info: { ...info, executionAddress } }) */
export async function writeNodeInfo({
  datadir,
  path,
  info,
}: WriteNodeInfoParameters): Promise<WriteNodeInfoReturnType> {
  const text = await formatNodeInfo(info)
  const current = await readFile(path, 'utf8').catch(() => undefined)
  if (current === text) return { changed: false }
  const staged = await stageFile(path, text, 0o644)
  const { backupDir } = await commitFiles({ datadir, replacements: [{ kind: 'file', target: path, staged }] })
  return { changed: true, ...(backupDir ? { backupDir } : {}) }
}
