/** Which node binary to start: --node-binary, then TN_NODE_BINARY, then tnv's reference node. */
import { accessSync, constants, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { findPackageFile } from '../package-file.js'
import { NodeBinaryNotFoundError } from './errors.js'

export type NodeBinary = {
  /** What is executed. */
  command: string
  /** Arguments before the node's own (e.g. the script of a JavaScript node). */
  prefix: string[]
  /** For messages: the path and where it came from. */
  path: string
  origin: 'flag' | 'env' | 'reference'
}

export function referenceNodePath(): string {
  return findPackageFile('bin/tnv-node.js') ?? fileURLToPath(new URL('../../../bin/tnv-node.js', import.meta.url))
}

export function resolveNodeBinary({
  flag,
  env,
}: {
  flag?: string | undefined
  /** TN_NODE_BINARY, as the session hands it. */
  env: NodeJS.ProcessEnv
}): NodeBinary {
  const fromEnv = env.TN_NODE_BINARY && env.TN_NODE_BINARY.length > 0 ? env.TN_NODE_BINARY : undefined
  const origin = flag ? 'flag' : fromEnv ? 'env' : 'reference'
  const path = flag ?? fromEnv ?? referenceNodePath()
  const label = origin === 'flag' ? '--node-binary' : origin === 'env' ? 'TN_NODE_BINARY' : 'the reference node'
  if (!existsSync(path)) throw new NodeBinaryNotFoundError(path, label)
  // A JavaScript node (the reference one, or a test double) runs under this Node.js.
  if (/\.(c|m)?js$/.test(path)) return { command: process.execPath, prefix: [path], path, origin }
  try {
    accessSync(path, constants.X_OK)
  } catch {
    throw new NodeBinaryNotFoundError(path, label)
  }
  return { command: path, prefix: [], path, origin }
}
