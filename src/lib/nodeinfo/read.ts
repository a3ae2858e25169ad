/**
 * Reads node-info.yaml from a file path or from the data directory that holds it. The file is a
 * few hundred bytes: it is stat'ed and read with synchronous calls.
 */
import { closeSync, openSync, readSync, type Stats, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { assertRegularFile } from '../fs/fs-errors.js'
import { NodeInfoMissingError, NodeInfoSyntaxError } from './errors.js'
import { nodeInfoFromDoc, type ParseNodeInfoOptions } from './from-doc.js'
import { readCanonicalNodeInfo } from './read-canonical.js'
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
  let stat = statOrMissing(pathOrDir)
  // a directory named node-info.yaml is the wrong kind of thing, not a data directory
  if (stat.isDirectory() && basename(pathOrDir) !== NODE_INFO_FILE) {
    path = join(pathOrDir, NODE_INFO_FILE)
    stat = statOrMissing(path)
  }
  // a device (/dev/zero), FIFO or directory is refused before reading: its read would not end
  assertRegularFile(path, stat, 'node-info.yaml')
  if (stat.size > MAX_NODE_INFO_BYTES)
    throw new NodeInfoSyntaxError(
      path,
      `it is ${stat.size} bytes, far larger than any node-info.yaml (at most ${MAX_NODE_INFO_BYTES})`,
    )
  const text = readBoundedText(path, MAX_NODE_INFO_BYTES)
  if (text === undefined)
    throw new NodeInfoSyntaxError(path, `it grew beyond ${MAX_NODE_INFO_BYTES} bytes while it was read`)
  // the node's own layout without the YAML library; any other text through it (./read-canonical.ts)
  const doc = readCanonicalNodeInfo(text)
  if (doc !== undefined) return { path, info: nodeInfoFromDoc(doc, path, options), text }
  const { parseNodeInfo } = await import('./parse.js')
  return { path, info: parseNodeInfo(text, path, options), text }
}

function statOrMissing(path: string): Stats {
  try {
    return statSync(path)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new NodeInfoMissingError(path)
    throw err
  }
}

/** Reads at most `max` bytes; undefined when the file holds more (it changed after the size check). */
function readBoundedText(path: string, max: number): string | undefined {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(max + 1)
    let length = 0
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null)
      if (bytesRead === 0) break
      length += bytesRead
      if (length > max) return undefined
    }
    return buffer.subarray(0, length).toString('utf8')
  } finally {
    closeSync(fd)
  }
}
