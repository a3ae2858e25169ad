/**
 * The node flags `tnv devnet start` uses when none are given after `--`: HTTP on 8545 and WS
 * on 8546 when those are free (else free ports the OS picks), loopback only, and IPC inside the
 * devnet directory rather than the node's /tmp/tn.ipc, so a devnet never takes the socket of a
 * real node on the same host. Node flags given without --ipcpath/--ipcdisable get the same
 * devnet IPC path.
 */
import { createHash } from 'node:crypto'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Longest Unix socket path Linux binds. */
const MAX_SOCKET_PATH_BYTES = 107

function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer()
    server.unref()
    server.once('error', () => resolve(null))
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address()
      const got = typeof address === 'object' && address ? address.port : null
      server.close(() => resolve(got))
    })
  })
}

/** `preferred` when free on 127.0.0.1, else a free port the OS picks (never one of `avoid`). */
export async function portOrFree(preferred: number, avoid: number[] = []): Promise<number> {
  if (!avoid.includes(preferred) && (await tryPort(preferred)) !== null) return preferred
  for (;;) {
    const port = await tryPort(0)
    if (port !== null && !avoid.includes(port)) return port
  }
}

/** `<dir>/tn.ipc`, or a name derived from the directory in the temp directory when that is too long to bind. */
export function devnetIpcPath(dir: string): string {
  const inDir = join(dir, 'tn.ipc')
  if (Buffer.byteLength(inDir) <= MAX_SOCKET_PATH_BYTES - 10) return inDir
  return join(tmpdir(), `tnv-devnet-${createHash('sha256').update(dir).digest('hex').slice(0, 12)}.ipc`)
}

export async function defaultDevnetNodeFlags(dir: string): Promise<string[]> {
  const http = await portOrFree(8545)
  const ws = await portOrFree(8546, [http])
  return ['--http', '--http.port', String(http), '--ws', '--ws.port', String(ws), '--ipcpath', devnetIpcPath(dir)]
}

/** The user's node flags, with the devnet's IPC path added when they name none. */
export function withDevnetIpcPath(flags: readonly string[], dir: string): string[] {
  const names = flags.map((f) => f.split('=')[0])
  if (names.includes('--ipcpath') || names.includes('--ipcdisable')) return [...flags]
  return [...flags, '--ipcpath', devnetIpcPath(dir)]
}
