/**
 * A stand-in for systemd on a host where it is not PID 1 (this test container): a `systemctl`
 * script on PATH that records every call and runs a service the way systemd runs a Type=simple
 * unit. `start` hands the unit's ExecStart to a small manager process (the stand-in for PID 1),
 * which forks it as the unit's main process, records MainPID and, when it exits, its result;
 * `stop` sends SIGTERM to the main process (KillMode=mixed), waits up to TimeoutStopSec (30 s),
 * then SIGKILLs what is left; `show` prints LoadState, ActiveState, SubState, MainPID,
 * Environment and ExecStart in systemctl's `key=value` form; `reset-failed` forgets a failure.
 * Restart=on-failure is not emulated: a main process that exits leaves the unit failed (non-zero)
 * or inactive.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export type FakeUnit = {
  name: string
  /** ExecStart's argv (argv[0] is the program). */
  argv: string[]
  /** Environment= of the unit (shown) and the process's environment beside PATH and HOME. */
  environment: Record<string, string>
  /** Variables the process gets that `show` does not print (the test's devnet and state dirs). */
  extraEnv?: Record<string, string>
}

const SCRIPT = String.raw`
import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
const dir = process.env.FAKE_SYSTEMD_DIR
const [cmd, unit] = process.argv.slice(2)
const file = (u, what) => join(dir, u + '.' + what + '.json')
const read = (u, what) => { try { return JSON.parse(readFileSync(file(u, what), 'utf8')) } catch { return null } }
const alive = (pid) => { if (!pid) return false; try { process.kill(pid, 0) } catch { return false }
  try { const s = readFileSync('/proc/' + pid + '/stat', 'utf8'); const st = s.slice(s.lastIndexOf(')') + 2)[0]; return st !== 'Z' && st !== 'X' } catch { return true } }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
if (cmd === '--manage') {
  // the stand-in for PID 1: forks the main process, records it and its result
  const u = read(unit, 'unit')
  const log = openSync(join(dir, unit + '.log'), 'a')
  const child = spawn(u.argv[0], u.argv.slice(1), { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...u.environment, ...u.extraEnv }, stdio: ['ignore', log, log] })
  writeFileSync(file(unit, 'run'), JSON.stringify({ mainPid: child.pid, result: null }))
  child.on('exit', (code, signal) => {
    const clean = code === 0 || signal === 'SIGTERM' || code === 143
    writeFileSync(file(unit, 'run'), JSON.stringify({ mainPid: 0, result: clean ? 'inactive' : 'failed', code, signal }))
    process.exit(0)
  })
} else {
  appendFileSync(join(dir, 'calls.log'), process.argv.slice(2).join(' ') + '\n')
  const u = unit ? read(unit, 'unit') : null
  const run = unit ? read(unit, 'run') : null
  const running = run && alive(run.mainPid)
  if (cmd === 'show') {
    const env = u ? Object.entries(u.environment).map(([k, v]) => k + '=' + v).join(' ') : ''
    const active = running ? 'active' : run?.result === 'failed' ? 'failed' : 'inactive'
    const sub = running ? 'running' : run?.result === 'failed' ? 'failed' : 'dead'
    console.log(['LoadState=' + (u ? 'loaded' : 'not-found'), 'ActiveState=' + active, 'SubState=' + sub,
      'MainPID=' + (running ? run.mainPid : 0), 'Environment=' + env,
      'ExecStart=' + (u ? '{ path=' + u.argv[0] + ' ; argv[]=' + u.argv.join(' ') + ' ; ignore_errors=no }' : '')].join('\n'))
  } else if (!u) {
    console.error('Unit ' + unit + ' could not be found.'); process.exit(5)
  } else if (cmd === 'start') {
    if (running) process.exit(0)
    rmSync(file(unit, 'run'), { force: true })
    spawn(process.execPath, [process.argv[1], '--manage', unit], { detached: true, stdio: 'ignore', env: process.env }).unref()
    for (let i = 0; i < 100 && !read(unit, 'run'); i++) await sleep(50)
  } else if (cmd === 'stop') {
    if (running) {
      process.kill(run.mainPid, 'SIGTERM')
      for (let i = 0; i < 300 && alive(run.mainPid); i++) await sleep(100)
      if (alive(run.mainPid)) process.kill(run.mainPid, 'SIGKILL')
      for (let i = 0; i < 100 && read(unit, 'run')?.mainPid; i++) await sleep(50)
    }
    writeFileSync(file(unit, 'run'), JSON.stringify({ mainPid: 0, result: 'inactive' }))
  } else if (cmd === 'reset-failed') {
    if (run && !running) writeFileSync(file(unit, 'run'), JSON.stringify({ mainPid: 0, result: 'inactive' }))
  } else { console.error('fake systemctl: ' + cmd + ' is not emulated'); process.exit(1) }
}
`

export type FakeSystemd = {
  /** The directory to put first on PATH. */
  bin: string
  /** The environment a tnv run needs to find this systemctl. */
  env: Record<string, string>
  define(unit: FakeUnit): void
  /** The calls made so far, one `systemctl` argument list a line. */
  calls(): string[]
  mainPid(unit: string): number
}

export function fakeSystemd(root: string): FakeSystemd {
  const dir = join(root, 'fake-systemd')
  const bin = join(root, 'fake-systemd-bin')
  mkdirSync(dir, { recursive: true })
  mkdirSync(bin, { recursive: true })
  const script = join(bin, 'systemctl')
  writeFileSync(script, `#!${process.execPath}\n${SCRIPT}`)
  chmodSync(script, 0o755)
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, FAKE_SYSTEMD_DIR: dir }
  return {
    bin,
    env,
    define(unit) {
      writeFileSync(join(dir, `${unit.name}.unit.json`), JSON.stringify(unit))
    },
    calls() {
      try {
        return readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n').filter(Boolean)
      } catch {
        return []
      }
    },
    mainPid(unit) {
      try {
        return (JSON.parse(readFileSync(join(dir, `${unit}.run.json`), 'utf8')) as { mainPid: number }).mainPid
      } catch {
        return 0
      }
    },
  }
}
