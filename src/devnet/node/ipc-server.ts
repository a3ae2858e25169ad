/**
 * The IPC server: JSON-RPC over a Unix socket at --ipcpath. IPC always serves the default
 * set (spec) and needs no JWT (a local socket; the file is made owner-only, 0600).
 * Requests are concatenated JSON values (json-stream.ts); each answer is written followed
 * by a newline, which every stream reader (geth's, reth's, viem's) skips.
 */
import { promises as fs } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { dirname } from 'node:path'
import { ConnectionSlots, type Slot } from './connection-slots.js'
import type { ConnectionContext, Dispatcher } from './dispatch.js'
import { EngineSubscriptions, type EngineSwap } from './engine-subscriptions.js'
import { JsonStreamSplitter } from './json-stream.js'
import { ErrorCode, errorResponse } from './jsonrpc.js'
import type { RpcServer, ServedProtocol } from './net-server.js'

export type IpcServerParameters = {
  dispatcher: Dispatcher
  protocol: ServedProtocol
  maxConnections: number
  maxRequestBytes: number
  /** The engine's IPC socket (subscriptions). */
  engineIpcPath: string
  /** Planned engine restarts, which subscriptions survive. */
  engineSwap: EngineSwap
  maxSubscriptions: number
}

/** A client that does not read its answers and lets this much pile up is dropped. */
const MAX_IPC_BUFFERED_BYTES = 256 * 1024 * 1024

export function createIpcServer(p: IpcServerParameters): RpcServer<Server> {
  const sockets = new Set<Socket>()
  const slots = new ConnectionSlots(p.maxConnections)
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    const slot: Slot = { busy: 0, since: Date.now(), pinned: () => false, evict: () => socket.destroy() }
    if (!slots.admit(slot)) {
      socket.end(
        `${errorResponse(null, ErrorCode.ServerError, 'Too many connections', 'at most --rpc.max-connections connections at once')}\n`,
      )
      return
    }
    socket.once('close', () => slots.release(slot))
    serveIpcConnection(socket, p, slot)
  })
  return {
    server,
    slots,
    shutdown: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        if (!server.listening) return resolve()
        server.close(() => resolve())
      }),
  }
}

function serveIpcConnection(socket: Socket, p: IpcServerParameters, slot: Slot): void {
  let gone = false
  const write = (text: string | Buffer) => {
    if (gone || socket.destroyed) return
    if (socket.writableLength > MAX_IPC_BUFFERED_BYTES) {
      socket.destroy()
      return
    }
    socket.cork()
    socket.write(text)
    socket.write('\n')
    socket.uncork()
  }
  const subscriptions = new EngineSubscriptions({
    engineIpcPath: p.engineIpcPath,
    swap: p.engineSwap,
    notify: write,
    onLost: () => socket.end(),
    maxSubscriptions: p.maxSubscriptions,
  })
  // a connection holding a subscription keeps its slot; an idle one can be closed for a new client
  slot.pinned = () => subscriptions.active > 0
  const ctx: ConnectionContext = {
    transport: 'ipc',
    served: p.protocol.served,
    rpcModules: p.protocol.rpcModules,
    subscriptions,
    gone: () => gone,
  }
  const splitter = new JsonStreamSplitter(
    {
      onValue: (bytes) => {
        ConnectionSlots.begin(slot)
        p.dispatcher.handle(bytes, ctx).then(
          (answer) => {
            ConnectionSlots.end(slot)
            if (answer !== null) write(answer)
          },
          () => {
            ConnectionSlots.end(slot)
            socket.destroy()
          },
        )
      },
      onTooLarge: () => {
        write(
          errorResponse(
            null,
            ErrorCode.OversizedRequest,
            'Request is too big',
            `larger than ${p.maxRequestBytes} bytes (--rpc.max-request-size)`,
          ),
        )
        socket.end()
      },
    },
    p.maxRequestBytes,
  )
  socket.on('data', (chunk: Buffer) => splitter.push(chunk))
  socket.on('error', () => socket.destroy())
  socket.on('close', () => {
    gone = true
    subscriptions.close()
  })
}

/** The socket path is in use by a live server. */
export class IpcPathInUseError extends Error {}

/**
 * Prepares a socket path for listening: its directory must exist; a socket file left by a
 * process that died is removed; a path another live server answers on is refused.
 */
export async function prepareIpcPath(path: string): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true })
  let stat: Awaited<ReturnType<typeof fs.lstat>>
  try {
    stat = await fs.lstat(path)
  } catch {
    return
  }
  if (!stat.isSocket()) throw new IpcPathInUseError(`${path} exists and is not a socket`)
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect(path)
    probe.once('connect', () => {
      probe.destroy()
      resolve(true)
    })
    probe.once('error', () => resolve(false))
  })
  if (live) throw new IpcPathInUseError(`another process is listening on ${path}`)
  await fs.rm(path, { force: true })
}
