/**
 * The devnet node's control socket: how `tnv devnet status`, `tnv devnet advance-epoch` and
 * `tnv devnet governance …` (rehearsal-only) reach the chain's controls, which the RPC transports never expose (the engine's own
 * methods are hidden there). A Unix socket, owner-only (0600), one JSON request per line,
 * one JSON answer per line: `{"op":"status"}` -> `{"ok":true,"result":{...}}`.
 */
import { promises as fs } from 'node:fs'
import { connect, createServer, type Server } from 'node:net'
import { TnvError } from '../../lib/errors.js'

export type ControlOp = 'status' | 'advance-epoch' | 'governance'
export type ControlHandlers = Record<ControlOp, (args: Record<string, unknown>) => Promise<unknown>>

export async function startControlServer(path: string, handlers: ControlHandlers): Promise<{ close(): Promise<void> }> {
  await fs.rm(path, { force: true })
  const server: Server = createServer((socket) => {
    let buffer = ''
    socket.setEncoding('utf8')
    socket.on('error', () => socket.destroy())
    socket.on('data', (chunk: string) => {
      buffer += chunk
      if (buffer.length > 64 * 1024) return socket.destroy()
      let nl = buffer.indexOf('\n')
      while (nl >= 0) {
        const line = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 1)
        nl = buffer.indexOf('\n')
        void answer(line).then((text) => {
          if (!socket.destroyed) socket.write(`${text}\n`)
        })
      }
    })
  })
  async function answer(line: string): Promise<string> {
    try {
      const { op, args } = JSON.parse(line) as { op: ControlOp; args?: Record<string, unknown> }
      const handler = Object.hasOwn(handlers, op) ? handlers[op] : undefined
      if (!handler) return JSON.stringify({ ok: false, error: `unknown control operation ${JSON.stringify(op)}` })
      return JSON.stringify({ ok: true, result: await handler(args ?? {}) })
    } catch (err) {
      // a TnvError keeps its fix and exit code across the socket
      const tnvError = err instanceof TnvError ? err.toJSON() : undefined
      return JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err), tnvError })
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => {
      server.off('error', reject)
      resolve()
    })
  })
  await fs.chmod(path, 0o600)
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
      }).then(() => fs.rm(path, { force: true })),
  }
}

export type ControlAnswer =
  | { ok: true; result: unknown }
  | { ok: false; error: string; tnvError?: ReturnType<TnvError['toJSON']> }

/**
 * Sends one control request and waits for the answer.
 * @throws Error when the socket cannot be reached or does not answer in time
 */
export function controlRequest(
  path: string,
  op: ControlOp,
  args: Record<string, unknown> = {},
  timeoutMs = 120_000,
): Promise<ControlAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(path)
    let buffer = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`))
    }, timeoutMs)
    socket.setEncoding('utf8')
    socket.on('connect', () => socket.write(`${JSON.stringify({ op, args })}\n`))
    socket.on('data', (chunk: string) => {
      buffer += chunk
      const nl = buffer.indexOf('\n')
      if (nl < 0) return
      clearTimeout(timer)
      socket.end()
      try {
        resolve(JSON.parse(buffer.slice(0, nl)) as ControlAnswer)
      } catch {
        reject(new Error('the control socket answered something that is not JSON'))
      }
    })
    socket.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
  })
}
