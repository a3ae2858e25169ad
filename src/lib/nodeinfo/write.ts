/**
 * Rewrites node-info.yaml atomically in a given form, keeping the previous file in a
 * timestamped backup. Callers keep the form the file had unless the operator asked for another
 * (docs/decisions.md: a rewrite never changes the form without saying so).
 */
import { readFile } from 'node:fs/promises'
import { commitFiles, stageFile } from '../keys/commit-files.js'
import { formatNodeInfo } from './serialize.js'
import type { NodeInfo } from './types.js'

export type WriteNodeInfoParameters = {
  /** The data directory (backups go there). */
  datadir: string
  /** node-info.yaml path. */
  path: string
  /** Written in `info.form`. */
  info: NodeInfo
  /** --check: compare only; nothing is written (`changed` says whether it would be). */
  check?: boolean | undefined
}

export type WriteNodeInfoReturnType = {
  /** false when the file already had exactly this content (nothing was written); with `check`, whether it would be written. */
  changed: boolean
  backupDir?: string
}

/** @example await writeNodeInfo({ datadir, path, info: { ...info, executionAddress } }) */
export async function writeNodeInfo({
  datadir,
  path,
  info,
  check = false,
}: WriteNodeInfoParameters): Promise<WriteNodeInfoReturnType> {
  const text = formatNodeInfo(info)
  const current = await readFile(path, 'utf8').catch(() => undefined)
  if (current === text) return { changed: false }
  if (check) return { changed: true }
  const staged = await stageFile(path, text, 0o644)
  const { backupDir } = await commitFiles({ datadir, replacements: [{ kind: 'file', target: path, staged }] })
  return { changed: true, ...(backupDir ? { backupDir } : {}) }
}
