/**
 * Drives the built CLI through a pseudo-terminal, as an operator at a terminal would: a small
 * python3 program (its standard `pty` module) forks the CLI on a pty, relays the pty's output
 * to its stdout and its stdin to the pty. The test waits for a prompt's text and types the
 * answer. `PYTHON` is null when python3 is missing: the tests that need it skip with a reason.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { BIN, ROOT } from '../helpers/cli.js'

export const PYTHON: string | null = (() => {
  const r = spawnSync('python3', ['-c', 'import pty, select, fcntl, termios, struct'], { stdio: 'ignore' })
  return r.status === 0 ? 'python3' : null
})()

const RELAY = `
import os, pty, sys, select, fcntl, termios, struct
argv = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', 50, 250, 0, 0))
    os.execvp(argv[0], argv)
watch = [fd, 0]
while True:
    r, _, _ = select.select(watch, [], [])
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
    if 0 in r:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            watch = [fd]
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.exit(128 - code if code < 0 else code)
`

// CSI and OSC sequences, and the other escapes inquirer and ora draw with
const ESC = String.fromCharCode(27)
const BEL = String.fromCharCode(7)
const ANSI = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]|${ESC}\\][^${BEL}]*${BEL}|${ESC}[=>78]`, 'g')

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

export type PtySession = {
  child: ChildProcess
  /** Everything shown so far, escapes removed. */
  screen(): string
  /** Waits until `text` appears after the last thing waited for; returns what was shown up to it. */
  expect(text: string, ms?: number): Promise<string>
  /** Types into the terminal ("\r" is Enter). */
  type(text: string): void
  exited: Promise<number>
}

export const ENTER = '\r'
export const DOWN = '\u001b[B'

export function spawnPty(args: string[], env: Record<string, string | undefined> = {}): PtySession {
  if (!PYTHON) throw new Error('python3 is missing')
  const merged: Record<string, string> = {}
  for (const [k, v] of Object.entries({ ...process.env, TERM: 'xterm', ...env })) if (v !== undefined) merged[k] = v
  if (!('TN_PRIVATE_KEY' in env)) delete merged.TN_PRIVATE_KEY
  if (!('TN_BLS_PASSPHRASE' in env)) delete merged.TN_BLS_PASSPHRASE
  const child = spawn(PYTHON, ['-c', RELAY, process.execPath, BIN, ...args], {
    cwd: ROOT,
    env: merged,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let raw = ''
  let cursor = 0
  const waiters: (() => void)[] = []
  const wake = () => {
    for (const w of waiters.splice(0)) w()
  }
  child.stdout?.setEncoding('utf8')
  child.stdout?.on('data', (d: string) => {
    raw += d
    wake()
  })
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (d: string) => {
    raw += d
    wake()
  })
  let done = false
  const exited = new Promise<number>((resolve) =>
    child.once('close', (code) => {
      done = true
      wake()
      resolve(code ?? -1)
    }),
  )
  const screen = () => stripAnsi(raw)
  return {
    child,
    screen,
    async expect(text, ms = 60_000) {
      const deadline = Date.now() + ms
      for (;;) {
        const s = screen()
        const at = s.indexOf(text, cursor)
        if (at >= 0) {
          cursor = at + text.length
          return s.slice(0, cursor)
        }
        if (done) throw new Error(`the CLI exited before showing "${text}":\n${s}`)
        if (Date.now() > deadline) throw new Error(`"${text}" not shown within ${ms} ms:\n${s}`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 200)
        })
      }
    },
    type(text) {
      child.stdin?.write(text)
    },
    exited,
  }
}
