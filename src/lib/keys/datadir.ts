/** Paths inside a node data directory (reference-facts: Data directory). */
import { promises as fs } from 'node:fs'
import { join, resolve } from 'node:path'
import { NODE_INFO_FILE } from '../nodeinfo/types.js'
import { DatadirMissingError, DatadirNotADirectoryError } from './errors.js'
import { PRIMARY_SEED_FILE, workerSeed } from './seeds.js'

export const NODE_KEYS_DIR = 'node-keys'
export const BLS_KW_FILE = 'bls.kw'
export const BLS_KEY_FILE = 'bls.key'
/** Modes keytool writes and checks. */
export const KEY_DIR_MODE = 0o700
export const KEY_FILE_MODE = 0o600

export type DatadirPaths = {
  datadir: string
  nodeInfo: string
  nodeKeys: string
  blsKw: string
  blsKey: string
  primarySeed: string
  workerSeed: (index: number) => string
}

export function datadirPaths(datadir: string): DatadirPaths {
  const dir = resolve(datadir)
  const nodeKeys = join(dir, NODE_KEYS_DIR)
  return {
    datadir: dir,
    nodeInfo: join(dir, NODE_INFO_FILE),
    nodeKeys,
    blsKw: join(nodeKeys, BLS_KW_FILE),
    blsKey: join(nodeKeys, BLS_KEY_FILE),
    primarySeed: join(nodeKeys, PRIMARY_SEED_FILE),
    workerSeed: (index) => join(nodeKeys, workerSeed(index).file),
  }
}

/** Throws DatadirMissingError unless `datadir` is an existing directory. */
export async function assertDatadirExists(datadir: string): Promise<void> {
  const stat = await fs.stat(datadir).catch(() => undefined)
  if (!stat) throw new DatadirMissingError(datadir)
  if (!stat.isDirectory()) throw new DatadirNotADirectoryError(datadir)
}
