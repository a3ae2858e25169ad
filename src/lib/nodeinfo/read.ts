/** Reads node-info.yaml from a file path or from the data directory that holds it. */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { NodeInfoMissingError } from './errors.js'
import { parseNodeInfo } from './parse.js'
import { NODE_INFO_FILE, type NodeInfo } from './types.js'

export type ReadNodeInfoReturnType = { path: string; info: NodeInfo }

/**
 * @param pathOrDir node-info.yaml itself, or a directory holding it
 * @throws NodeInfoMissingError, NodeInfoSyntaxError, NodeInfoFieldError (all name the path)
 * @example const { path, info } = await readNodeInfo('~/.local/share/telcoin-network')
 */
export async function readNodeInfo(pathOrDir: string): Promise<ReadNodeInfoReturnType> {
  let path = pathOrDir
  const stat = await fs.stat(pathOrDir).catch(() => undefined)
  if (!stat) throw new NodeInfoMissingError(pathOrDir)
  if (stat.isDirectory()) {
    path = join(pathOrDir, NODE_INFO_FILE)
    if (!(await fs.stat(path).catch(() => undefined))) throw new NodeInfoMissingError(path)
  }
  const text = await fs.readFile(path, 'utf8')
  return { path, info: parseNodeInfo(text, path) }
}
