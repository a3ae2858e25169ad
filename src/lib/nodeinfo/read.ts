/** Reads node-info.yaml from a file path or from the data directory that holds it. */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { NodeInfoMissingError, NodeInfoSyntaxError } from './errors.js'
import { type ParseNodeInfoOptions, parseNodeInfo } from './parse.js'
import { NODE_INFO_FILE, type NodeInfo } from './types.js'

/** node-info.yaml is a few hundred bytes; anything this large is not one (and is not parsed). */
export const MAX_NODE_INFO_BYTES = 64 * 1024

export type ReadNodeInfoReturnType = {
  path: string
  info: NodeInfo
  /** The file's text as read. */
  text: string
}

/**
 * @param pathOrDir node-info.yaml itself, or a directory holding it
 * @throws NodeInfoMissingError, NodeInfoSyntaxError, NodeInfoFieldError (all name the path)
 * @example const { path, info } = await readNodeInfo('~/.local/share/telcoin-network')
 */
export async function readNodeInfo(
  pathOrDir: string,
  options: ParseNodeInfoOptions = {},
): Promise<ReadNodeInfoReturnType> {
  let path = pathOrDir
  const stat = await fs.stat(pathOrDir).catch(() => undefined)
  if (!stat) throw new NodeInfoMissingError(pathOrDir)
  if (stat.isDirectory()) {
    path = join(pathOrDir, NODE_INFO_FILE)
    if (!(await fs.stat(path).catch(() => undefined))) throw new NodeInfoMissingError(path)
  }
  const size = (await fs.stat(path)).size
  if (size > MAX_NODE_INFO_BYTES)
    throw new NodeInfoSyntaxError(
      path,
      `it is ${size} bytes, far larger than any node-info.yaml (at most ${MAX_NODE_INFO_BYTES})`,
    )
  const text = await fs.readFile(path, 'utf8')
  return { path, info: parseNodeInfo(text, path, options), text }
}
