/**
 * The runtime file `<devnet dir>/devnet.json` (src/devnet/paths.ts) and the start lock
 * `<devnet dir>/node.lock`. The running node writes the runtime file atomically once it
 * serves, and removes it on a clean stop; a file whose pid is dead is stale and removed by
 * whoever finds it. The lock (created exclusively, holding the pid) makes two nodes starting
 * on one directory at the same time impossible.
 */

import { createHash } from 'node:crypto'
import { constants, promises as fs, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDir, writeFileAtomic } from '../../lib/fs/atomic.js'
import { type DevnetRuntimeInfo, RUNTIME_FILE } from '../paths.js'
import { DevnetAlreadyRunningError } from './errors.js'

export const LOCK_FILE = 'node.lock'
export const NODE_LOG_FILE = 'node.log'

export function runtimeFilePath(dir: string): string {
  return join(dir, RUNTIME_FILE)
}

/** True when a process with this pid exists (signal 0 probes without signalling). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The runtime file as written, or null when absent or unreadable. */
export async function readRuntimeInfo(dir: string): Promise<DevnetRuntimeInfo | null> {
  try {
    const info = JSON.parse(await fs.readFile(runtimeFilePath(dir), 'utf8')) as DevnetRuntimeInfo
    return typeof info?.pid === 'number' ? info : null
  } catch {
    return null
  }
}

export type RunningDevnet = { info: DevnetRuntimeInfo } | { info: null; staleRemoved: boolean }

/**
 * True unless the pid now runs something other than the reference node (a pid reused after a
 * reboot or a crash). Where /proc is missing, a live pid is all there is to go on.
 */
export function isReferenceNodeProcess(pid: number): boolean {
  if (!isProcessAlive(pid)) return false
  let cmdline: string
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  } catch {
    return true
  }
  return cmdline.split('\0').some((arg) => arg.endsWith('tnv-node.js') || arg.endsWith(join('entries', 'node.js')))
}

/** The devnet running for `dir`, if any; a stale runtime file (dead pid, or a pid that is no longer the node) is removed. */
export async function findRunningDevnet(dir: string): Promise<RunningDevnet> {
  const info = await readRuntimeInfo(dir)
  if (!info) return { info: null, staleRemoved: false }
  if (isReferenceNodeProcess(info.pid)) return { info }
  await fs.rm(runtimeFilePath(dir), { force: true })
  return { info: null, staleRemoved: true }
}

export async function writeRuntimeInfo(dir: string, info: DevnetRuntimeInfo): Promise<void> {
  // holds the (public) devnet keys: owner-only anyway
  await writeFileAtomic(runtimeFilePath(dir), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 })
}

/** Removes the runtime file if it is this process's (never another node's). */
export async function removeRuntimeInfo(dir: string, pid = process.pid): Promise<void> {
  const info = await readRuntimeInfo(dir)
  if (info && info.pid !== pid) return
  await fs.rm(runtimeFilePath(dir), { force: true })
}

/**
 * Takes the start lock of `dir` for this process; a lock whose holder is dead is taken over.
 * @returns the release function
 * @throws DevnetAlreadyRunningError when a live process holds it
 */
export async function acquireNodeLock(dir: string): Promise<() => Promise<void>> {
  await ensureDir(dir, 0o700)
  const path = join(dir, LOCK_FILE)
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600)
      await fh.writeFile(`${process.pid}\n`)
      await fh.close()
      return async () => {
        const holder = Number.parseInt(await fs.readFile(path, 'utf8').catch(() => ''), 10)
        if (holder === process.pid) await fs.rm(path, { force: true })
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = Number.parseInt(await fs.readFile(path, 'utf8').catch(() => ''), 10)
      if (isProcessAlive(holder) && holder !== process.pid) {
        const info = await readRuntimeInfo(dir)
        throw new DevnetAlreadyRunningError(dir, holder, info?.rpcUrl ?? null)
      }
      await fs.rm(path, { force: true })
    }
  }
  throw new DevnetAlreadyRunningError(dir, Number.NaN, null)
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
