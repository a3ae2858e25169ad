/**
 * The devnet node's side of the runtime file `<devnet dir>/devnet.json` and its start lock
 * `<devnet dir>/node.lock`. The runtime file has one reader, in the library
 * (src/lib/chain/devnet-runtime-file.ts, re-exported here): the running node writes it atomically
 * once it serves and removes it on a clean stop; a file whose pid is dead, or now runs something
 * else, is stale and removed by whoever finds it. The lock (proper-lockfile, src/lib/fs/lock.ts)
 * makes two nodes starting on one directory at the same time impossible.
 */
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readRuntimeInfo } from '../../lib/chain/devnet-runtime-file.js'
import { ensureDir } from '../../lib/fs/atomic.js'
import { acquireLock, LockedError, readLockOwner } from '../../lib/fs/lock.js'
import { NodeAlreadyRunningError } from '../../lib/node/errors.js'
import { DevnetAlreadyRunningError } from './errors.js'

export {
  findRunningDevnet,
  isProcessAlive,
  readRuntimeInfo,
  removeRuntimeInfo,
  runtimeFilePath,
  writeRuntimeInfo,
} from '../../lib/chain/devnet-runtime-file.js'

export const LOCK_FILE = 'node.lock'
export const NODE_LOG_FILE = 'node.log'

/**
 * Takes the start lock of `dir` for this process, for as long as the node runs; a lock whose
 * holder died is taken over.
 * @returns the release function
 * @param joined a node joining the devnet (`--chain devnet`) rather than running one in `dir`
 * @throws DevnetAlreadyRunningError (NodeAlreadyRunningError when joined) when a live process holds it
 */
export async function acquireNodeLock(dir: string, joined = false): Promise<() => Promise<void>> {
  await ensureDir(dir, 0o700)
  const lockPath = join(dir, LOCK_FILE)
  try {
    return await acquireLock({ lockPath, what: `The devnet directory ${dir}`, command: 'tnv-node node', waitMs: 0 })
  } catch (err) {
    if (!(err instanceof LockedError)) throw err
    const pid = readLockOwner(lockPath)?.pid ?? Number.NaN
    if (joined) throw new NodeAlreadyRunningError(pid, dir)
    const info = await readRuntimeInfo(dir)
    throw new DevnetAlreadyRunningError(dir, pid, info?.rpcUrl ?? null)
  }
}

/**
 * The node's control socket for `dir`: `<dir>/control.sock`, or, when that path is too long
 * for a Unix socket, a name derived from the directory in the temp directory.
 */
export function controlSocketPath(dir: string): string {
  const inDir = join(dir, 'control.sock')
  if (Buffer.byteLength(inDir) <= 100) return inDir
  const digest = createHash('sha256').update(dir).digest('hex').slice(0, 16)
  return join(tmpdir(), `tnv-devnet-${digest}.sock`)
}
