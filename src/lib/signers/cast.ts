/**
 * foundry's `cast`, the program that talks to Ledger and Trezor devices for tnv (the npm package
 * @foundry-rs/cast ships the binary per platform, as @foundry-rs/anvil does for anvil). Order:
 * TNV_CAST_BINARY, the platform package, then `cast` on PATH. tnv runs it with arguments only
 * (no shell), never passes a secret to it, and reads its stdout.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'
import { childEnv } from '../child-env.js'
import { CastNotFoundError } from './errors.js'

export function castPackageName(platform: string = process.platform, arch: string = process.arch): string {
  return `@foundry-rs/cast-${platform}-${arch === 'x64' ? 'amd64' : arch}`
}

/** @example spawn(resolveCastBinary(env), ['--version']) */
export function resolveCastBinary(env: NodeJS.ProcessEnv): string {
  const exe = process.platform === 'win32' ? 'cast.exe' : 'cast'
  const singleExecutable = runsAsSingleExecutable()
  if (env.TNV_CAST_BINARY) {
    if (!existsSync(env.TNV_CAST_BINARY))
      throw new CastNotFoundError(`TNV_CAST_BINARY=${env.TNV_CAST_BINARY}`, { singleExecutable })
    return env.TNV_CAST_BINARY
  }
  for (const dir of singleExecutable ? (env.PATH ?? '').split(delimiter) : [])
    if (dir && existsSync(join(dir, exe))) return join(dir, exe)
  // the single executable carries no node_modules: only TNV_CAST_BINARY and PATH can name a cast
  if (singleExecutable) throw new CastNotFoundError('TNV_CAST_BINARY is not set, no cast on PATH', { singleExecutable })
  const pkg = castPackageName()
  try {
    const binary = join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), 'bin', exe)
    if (existsSync(binary)) return binary
  } catch {
    // not installed: PATH next
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, exe))) return join(dir, exe)
  throw new CastNotFoundError(`${pkg}, then cast on PATH`)
}

/** Whether tnv runs as its single executable (Node's `node:sea`; false on a Node.js without it). */
function runsAsSingleExecutable(): boolean {
  try {
    return (createRequire(import.meta.url)('node:sea') as { isSea: () => boolean }).isSea()
  } catch {
    return false
  }
}

export type CastRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Runs cast with these arguments; a device prompt can take a while, hence the long default. */
export function runCast(
  args: readonly string[],
  { timeoutMs = 120_000, env }: { timeoutMs?: number; env: NodeJS.ProcessEnv },
): Promise<CastRun> {
  const binary = resolveCastBinary(env)
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // tnv's secrets are never handed on (cast talks to the device only); plain errors: no
      // colours, no backtrace, so the one line that matters can be quoted
      env: { ...childEnv(env), NO_COLOR: '1', RUST_BACKTRACE: '0', COLORBT_SHOW_HIDDEN: '0' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  })
}

/** The line of cast's output that says what went wrong (its panic "Message:", else its last "Error:" line). */
export function castComplaint(run: CastRun): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
  const text = `${run.stderr}\n${run.stdout}`.replace(/\u001b\[[0-9;]*m/g, '')
  const message = /Message:\s+(.+)/.exec(text)?.[1]
  if (message) return message.trim()
  const error = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^Error/i.test(l))
    .at(-1)
  if (error) return error.replace(/^Error:?\s*/i, '')
  return run.signal ? `killed by ${run.signal}` : `exit code ${run.code}`
}
