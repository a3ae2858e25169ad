/**
 * Whether a process id names a live process on this host. `kill(pid, 0)` alone also answers yes
 * for a zombie: a process that has exited but whose parent has not reaped it yet. A node started
 * with `--detach` is re-parented when tnv exits, and where the new parent never reaps (PID 1 of
 * many containers is a plain shell), a killed node stays a zombie for good; its locks and state
 * files must still count as free. On Linux the state letter of `/proc/<pid>/stat` says so;
 * elsewhere the signal test is all there is.
 */
import { readFileSync } from 'node:fs'

/** `R`, `S`, `D`, … live; `Z` (zombie) and `X` (dead) exited. */
function exitedPerProc(pid: number): boolean {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return false // no /proc here, or it went in between: the signal test decided
  }
  // "<pid> (<comm>) <state> …": comm may hold spaces and parentheses, the state follows the last ')'
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
  return state === 'Z' || state === 'X'
}

/**
 * @returns true when `pid` runs (or exists under another user), false when it is gone or a zombie
 * @example if (!isProcessAlive(owner.pid)) await takeOver()
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (err) {
    // EPERM: the process exists but belongs to another user
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return !exitedPerProc(pid)
}
