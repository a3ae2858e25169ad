/**
 * The node processes this host shows, whoever started them: every `/proc/<pid>/cmdline` (Linux's
 * documented view of a process's argv, proc(5)) that reads `<node binary> node … --datadir <dir>`,
 * where the word before `node` names a Telcoin Network node: a file whose name begins with
 * `telcoin-network` (the released binary, `telcoin-network-v0.15.0`, …) or `tnv-node` (tnv's
 * reference node). The local fence (./fence.ts) asks which of them hold a given key.
 *
 * What it sees, and what not (docs/node.md, "One key, one node"): processes in this host's process
 * namespace that /proc shows to this user (a `hidepid=` mount hides other users'; a container's
 * processes are seen from the host, not the host's from a container); data directories this user
 * can read (a relative `--datadir` is taken from the process's working directory, a path inside a
 * container through `/proc/<pid>/root`). A node binary renamed to something else, a node on
 * another host, and a key it cannot read are not seen. Elsewhere than Linux there is no /proc:
 * the list is empty.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { basename, isAbsolute, join } from 'node:path'

export type NodeProcess = {
  pid: number
  argv: string[]
  /** The data directory as the process names it (absolute: a relative one joined to its working directory). */
  datadir: string
  /** The same directory as tnv opens it: through `/proc/<pid>/root` when this user may look there. */
  readPath: string
  /** Its `--chain` value, or null. */
  chain: string | null
}

const NODE_NAME = /^(telcoin-network|tnv-node)/

/** The node's argv after its binary (`node --datadir …`), or null when it is no node's. */
export function nodeArgsOf(argv: readonly string[]): string[] | null {
  for (let i = 1; i < argv.length; i++)
    if (argv[i] === 'node' && NODE_NAME.test(basename(argv[i - 1] as string))) return argv.slice(i + 1)
  return null
}

function flagValue(args: readonly string[], name: string): string | null {
  let value: string | null = null
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === name) value = args[i + 1] ?? null
    else if (a.startsWith(`${name}=`)) value = a.slice(name.length + 1)
  }
  return value
}

function located(pid: number, dir: string): { datadir: string; readPath: string } {
  let datadir = dir
  if (!isAbsolute(dir)) {
    try {
      datadir = join(readlinkSync(`/proc/${pid}/cwd`), dir)
    } catch {
      return { datadir: dir, readPath: dir }
    }
  }
  // the path in the process's own mount namespace (a container's), when this user may look there
  const inside = join(`/proc/${pid}/root`, datadir)
  return { datadir, readPath: existsSync(inside) ? inside : datadir }
}

/**
 * @example for (const p of listNodeProcesses()) console.log(p.pid, p.datadir)
 */
export function listNodeProcesses(): NodeProcess[] {
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d))
  } catch {
    return []
  }
  const out: NodeProcess[] = []
  for (const name of pids) {
    const pid = Number(name)
    if (pid === process.pid) continue
    let argv: string[]
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1)
    } catch {
      continue // gone, or hidden from this user
    }
    const args = nodeArgsOf(argv)
    const datadir = args && flagValue(args, '--datadir')
    if (!args || !datadir) continue
    out.push({ pid, argv, ...located(pid, datadir), chain: flagValue(args, '--chain') })
  }
  return out
}
