/**
 * `process.stdout` and `process.stderr` without Node's stream modules until something needs them.
 *
 * The first read of `process.stdout` makes Node build a writable stream for fd 1: for a file or
 * /dev/null a SyncWriteStream, which loads node:stream (about 20 internal modules); for a pipe or a
 * socket a net.Socket, which loads node:net as well. That is 4 to 7 ms of every command that
 * prints a line (docs/decisions.md, "Start-up, stop 29"), the first thing any of them touches.
 * For a descriptor that is a regular file, a pipe, a socket or /dev/null, the launcher puts a
 * stand-in there instead:
 * - `write` writes with `fs.writeSync` (Node writes these synchronously on Linux too, so the
 *   order of everything written stays as it was, and nothing is left unwritten at exit);
 * - `on`/`once`/`off` keep `error` and other listeners; a failed write (EPIPE: the reader went
 *   away) is reported to them on the next tick, as the stream would, once;
 * - `isTTY` is undefined, as on Node's own streams for these descriptors, and
 *   `writableNeedDrain` false: nothing it writes is ever left pending;
 * - anything else (a property it does not have, `instanceof`, setting a property) builds Node's
 *   stream there and then, hands it the listeners, and from then on every use, `write` included,
 *   goes to that stream: prompts, spinners and libraries see the real thing.
 * A write that would block a non-blocking pipe (EAGAIN: the process that made the pipe left it in
 * that mode) also hands over to Node's stream, which queues what remains, and so does the first
 * write to a pipe or a socket after the first second (PIPE_DIRECT_SECONDS): only a
 * process's start is written synchronously where Node would queue.
 * A terminal, any other character device, Windows, or a descriptor that cannot be examined keeps
 * Node's own stream.
 */
import type { EventEmitter } from 'node:events'
import { fstatSync, statSync, writeSync } from 'node:fs'

const INSTALLED = Symbol.for('tnv.lightStdio')

type Listener = (...args: unknown[]) => void
type Held = { event: string | symbol; fn: Listener; once: boolean }

/**
 * How the stand-in may write fd: `sync` (a regular file or /dev/null, which Node's own stream
 * writes synchronously too), `pipe` (a pipe or a socket), or undefined (keep Node's stream).
 */
type Kind = 'sync' | 'pipe'
function directKind(fd: number, devNull: () => number | undefined): Kind | undefined {
  try {
    const st = fstatSync(fd)
    if (st.isFile()) return 'sync'
    if (st.isFIFO() || st.isSocket()) return 'pipe'
    return st.isCharacterDevice() && st.rdev === devNull() ? 'sync' : undefined
  } catch {
    return undefined
  }
}

/**
 * A pipe is written directly only while the process starts. A synchronous write waits while the
 * reader does not read, where Node's stream queues the text and goes on; for a command's few
 * lines that never matters, but a process that runs on (the devnet, a node it drives) must not
 * stop for a slow reader. So the first write to a pipe this many seconds after the stand-in was
 * put in place (the launcher does it in a process's first tens of milliseconds) hands over to
 * Node's stream.
 */
const PIPE_DIRECT_SECONDS = 1

function listen(stream: EventEmitter, event: string | symbol, fn: Listener, once: boolean): void {
  if (once) stream.once(event, fn)
  else stream.on(event, fn)
}

/** Installs the stand-ins for fds 1 and 2 where they apply; returns the names it replaced. */
export function installLightStdio(): string[] {
  // once per process: the boot, the launcher and the single executable's loader may each ask
  const flag = process as unknown as Record<symbol, boolean>
  if (process.platform === 'win32' || flag[INSTALLED]) return []
  flag[INSTALLED] = true
  let devNullRdev: number | undefined | null = null
  const devNull = () => {
    if (devNullRdev === null)
      try {
        devNullRdev = statSync('/dev/null').rdev
      } catch {
        devNullRdev = undefined
      }
    return devNullRdev
  }
  const replaced: string[] = []
  for (const [name, fd] of [
    ['stdout', 1],
    ['stderr', 2],
  ] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name)
    const kind = own?.get && own.configurable ? directKind(fd, devNull) : undefined
    if (!own?.get || !kind) continue
    const realGetter = own.get
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: own.enumerable ?? true,
      get: standIn(fd, kind, () => {
        // Node's stream from now on, for this read and every later one
        Object.defineProperty(process, name, own)
        return realGetter.call(process) as NodeJS.WriteStream
      }),
    })
    replaced.push(name)
  }
  return replaced
}

/** The getter of a stand-in for fd; `real()` builds (once) and returns Node's stream. */
function standIn(fd: number, kind: Kind, real: () => NodeJS.WriteStream): () => NodeJS.WriteStream {
  const until = process.uptime() + PIPE_DIRECT_SECONDS
  let stream: NodeJS.WriteStream | undefined
  let failed: Error | undefined
  const held: Held[] = []
  // Node's own write, as it was when the stream was built: a library may replace the stream's
  // `write` and later put back what it read before (oclif's spinner does), which can be the
  // stand-in's; calling `stream.write` from the stand-in would then call itself
  let nodeWrite: NodeJS.WriteStream['write'] | undefined
  const materialise = (): NodeJS.WriteStream => {
    if (stream) return stream
    stream = real()
    nodeWrite = stream.write
    for (const h of held.splice(0)) listen(stream, h.event, h.fn, h.once)
    return stream
  }
  const report = (err: Error, cb?: (err?: Error | null) => void) =>
    process.nextTick(() => {
      // the listeners as they are now: the callback may build Node's stream (console's does, to
      // look at its state), which takes the held listeners over but will never emit this error
      const listeners = held.filter((h) => h.event === 'error')
      for (const h of listeners) if (h.once) held.splice(held.indexOf(h), 1)
      cb?.(err)
      for (const h of listeners) h.fn(err)
      if (listeners.length === 0 && !cb) throw err
    })
  const own: Record<string | symbol, unknown> = {
    fd,
    isTTY: undefined,
    writable: true,
    // every write is done before it returns: nothing is ever pending (direct-command.ts reads it)
    writableNeedDrain: false,
    write(chunk: string | Uint8Array, encoding?: BufferEncoding | ((err?: Error | null) => void), cb?: () => void) {
      if (typeof encoding === 'function') {
        cb = encoding
        encoding = undefined
      }
      if (!stream && kind === 'pipe' && process.uptime() > until) materialise()
      if (stream) return (nodeWrite as NodeJS.WriteStream['write']).call(stream, chunk, encoding as BufferEncoding, cb)
      // as on a stream destroyed by its error: later writes only fail, nothing is emitted again
      if (failed) {
        if (cb) process.nextTick(cb, failed)
        return false
      }
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : chunk
      let done = 0
      try {
        while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done)
      } catch (e) {
        const err = e as NodeJS.ErrnoException
        if (err.code === 'EAGAIN') {
          const s = materialise()
          return (nodeWrite as (c: Uint8Array, cb?: () => void) => boolean).call(s, bytes.subarray(done), cb)
        }
        failed = err
        report(err, cb)
        return false
      }
      // as Node's streams do: console's write callback tells success by null
      if (cb) process.nextTick(cb, null)
      return true
    },
    on: (event: string | symbol, fn: Listener) => hold(event, fn, false),
    addListener: (event: string | symbol, fn: Listener) => hold(event, fn, false),
    once: (event: string | symbol, fn: Listener) => hold(event, fn, true),
    off: (event: string | symbol, fn: Listener) => unhold(event, fn),
    removeListener: (event: string | symbol, fn: Listener) => unhold(event, fn),
    listenerCount: (event: string | symbol) => held.filter((h) => h.event === event).length,
  }
  const hold = (event: string | symbol, fn: Listener, once: boolean) => {
    if (stream) listen(stream, event, fn, once)
    else held.push({ event, fn, once })
    return proxy
  }
  const unhold = (event: string | symbol, fn: Listener) => {
    if (stream) stream.removeListener(event, fn)
    else {
      const i = held.findIndex((h) => h.event === event && h.fn === fn)
      if (i >= 0) held.splice(i, 1)
    }
    return proxy
  }
  const bound = new Map<string | symbol, [unknown, unknown]>()
  const forward = <T>(use: (s: NodeJS.WriteStream) => T): T => use(materialise())
  const proxy = new Proxy(own, {
    get: (target, key) => {
      if (!stream && Object.hasOwn(target, key)) return target[key]
      // from now on, what the stream has, its methods bound to it (the same function each time)
      const s = materialise()
      const v: unknown = Reflect.get(s, key, s)
      if (typeof v !== 'function') return v
      const known = bound.get(key)
      if (known?.[0] === v) return known[1]
      const b = (v as (...args: unknown[]) => unknown).bind(s)
      bound.set(key, [v, b])
      return b
    },
    set: (_, key, value) => forward((s) => Reflect.set(s, key, value, s)),
    has: (_, key) => forward((s) => key in s),
    getPrototypeOf: () => forward((s) => Object.getPrototypeOf(s)),
    ownKeys: () => forward((s) => Reflect.ownKeys(s)),
    // reported configurable: a proxy may not call a property non-configurable that its target lacks
    getOwnPropertyDescriptor: (_, key) =>
      forward((s) => {
        const d = Reflect.getOwnPropertyDescriptor(s, key)
        return d && { ...d, configurable: true }
      }),
    defineProperty: (_, key, d) => forward((s) => Reflect.defineProperty(s, key, d)),
    deleteProperty: (_, key) => forward((s) => Reflect.deleteProperty(s, key)),
  }) as unknown as NodeJS.WriteStream
  return () => proxy
}
