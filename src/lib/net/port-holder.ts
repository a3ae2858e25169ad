/**
 * Who holds a TCP port: whether it can be bound, and which process listens on it. Linux reads
 * /proc (the socket's inode in /proc/net/tcp{,6}, then the process whose fd points at it);
 * elsewhere `lsof` answers when installed. No npm library does this across platforms without
 * a native build, so it is these few lines.
 */
import { execFile } from 'node:child_process'
import { readdir, readFile, readlink } from 'node:fs/promises'
import { connect, createServer } from 'node:net'

export type PortHolder = { pid: number; command: string }

/** true when `host:port` can be bound now (it is closed again at once). */
export function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.unref()
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'EADDRINUSE' && err.code !== 'EACCES'))
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** The process listening on TCP `port` (any address), or null when it cannot be told. */
export async function findPortHolder(port: number): Promise<PortHolder | null> {
  if (process.platform === 'linux') {
    const viaProc = await fromProc(port).catch(() => null)
    if (viaProc) return viaProc
  }
  return fromLsof(port)
}

/** Listening sockets on `port` from /proc/net/tcp and tcp6: their inodes. */
async function listeningInodes(port: number): Promise<Set<string>> {
  const inodes = new Set<string>()
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '')
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (cols.length < 10) continue
      const local = cols[1] ?? ''
      if (local.slice(local.lastIndexOf(':') + 1) === hexPort && cols[3] === '0A') inodes.add(cols[9] ?? '')
    }
  }
  inodes.delete('0')
  inodes.delete('')
  return inodes
}

/** true when a process accepts connections on the Unix socket at `path` now (the connection is closed at once). */
export function socketAnswers(path: string, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path })
    const done = (answer: boolean) => {
      socket.destroy()
      resolve(answer)
    }
    socket.setTimeout(timeoutMs, () => done(true))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/** The process listening on the Unix socket at `path` (Linux: /proc/net/unix), or null when it cannot be told. */
export async function findSocketHolder(path: string): Promise<PortHolder | null> {
  if (process.platform !== 'linux') return null
  const text = await readFile('/proc/net/unix', 'utf8').catch(() => '')
  const inodes = new Set<string>()
  for (const line of text.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path; flags 00010000 = listening
    const cols = line.trim().split(/\s+/)
    if (cols.length >= 8 && cols.slice(7).join(' ') === path && cols[3] === '00010000') inodes.add(cols[6] ?? '')
  }
  inodes.delete('')
  return inodes.size === 0 ? null : holderOfInodes(inodes).catch(() => null)
}

async function fromProc(port: number): Promise<PortHolder | null> {
  const inodes = await listeningInodes(port)
  if (inodes.size === 0) return null
  return holderOfInodes(inodes)
}

/** The first process holding one of the socket `inodes` open. */
async function holderOfInodes(inodes: Set<string>): Promise<PortHolder | null> {
  const wanted = new Set([...inodes].map((i) => `socket:[${i}]`))
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const fds = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[])
    for (const fd of fds) {
      const target = await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '')
      if (wanted.has(target)) return { pid: Number(entry), command: await commandOf(Number(entry)) }
    }
  }
  return null
}

/** The command line of `pid` (Linux), shortened for a message. */
export async function commandOf(pid: number): Promise<string> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
  const command = raw.split('\0').filter(Boolean).join(' ')
  return command.length > 120 ? `${command.slice(0, 117)}...` : command
}

function fromLsof(port: number): Promise<PortHolder | null> {
  return new Promise((resolve) => {
    execFile('lsof', ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fpc'], { timeout: 3_000 }, (err, stdout) => {
      if (err && !stdout) return resolve(null)
      const pid = /^p(\d+)$/m.exec(stdout)?.[1]
      const command = /^c(.+)$/m.exec(stdout)?.[1] ?? ''
      resolve(pid ? { pid: Number(pid), command } : null)
    })
  })
}

/**
 * Whether `pid` is `ancestor` or runs under it (a node binary that is a wrapper script forking
 * the real node). Linux only (/proc); elsewhere the answer is true (cannot be told: not refused).
 */
export async function isSameOrDescendant(pid: number, ancestor: number): Promise<boolean> {
  if (process.platform !== 'linux') return true
  let current = pid
  for (let depth = 0; depth < 16 && current > 1; depth++) {
    if (current === ancestor) return true
    const stat = await readFile(`/proc/${current}/stat`, 'utf8').catch(() => '')
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (!Number.isFinite(ppid) || ppid <= 0) return false
    current = ppid
  }
  return current === ancestor
}
