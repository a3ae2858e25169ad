/** Runs the built CLI (bin/run.js, after `npm run build`) as a user would, without a TTY. */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const BIN = join(ROOT, 'bin', 'run.js')

/**
 * tnv's state directory for this test process (the journals of commands without a data
 * directory): never the developer's own ~/.local/state/tnv.
 */
let stateDir: string | undefined
export function testStateDir(): string {
  stateDir ??= mkdtempSync(join(tmpdir(), 'tnv-state-'))
  return stateDir
}
process.once('exit', () => {
  if (stateDir) rmSync(stateDir, { recursive: true, force: true })
})

export type CliResult = { code: number; stdout: string; stderr: string }

/** An environment without its unset (undefined) entries, for a child given exactly this environment. */
export function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
}

export type RunCliOptions = {
  env?: Record<string, string | undefined>
  /** Written to stdin, then stdin is closed. Without it stdin is closed at once. */
  input?: string
  cwd?: string
  timeoutMs?: number
}

export function runCli(
  args: string[],
  { env = {}, input, cwd, timeoutMs = 120_000 }: RunCliOptions = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const merged: Record<string, string> = {}
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) merged[k] = v
    // never let the developer's own secrets leak into a test
    if (!('TN_BLS_PASSPHRASE' in env)) delete merged.TN_BLS_PASSPHRASE
    if (!('TN_PRIVATE_KEY' in env)) delete merged.TN_PRIVATE_KEY
    if (!('TNV_STATE_DIR' in env)) merged.TNV_STATE_DIR = testStateDir()
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: cwd ?? ROOT,
      env: merged,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`tnv ${args.join(' ')} timed out after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code: code ?? -1, stdout, stderr })
    })
    // a command that exits without reading its stdin is no failure: EPIPE on it is ignored
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err)
    })
    if (input !== undefined) child.stdin.end(input)
    else child.stdin.end()
  })
}

/**
 * `tnv keytool generate validator` for `address` into `datadir`, the BLS key unencrypted unless
 * another passphrase source is given: the key pair a test needs before it stakes or checks.
 */
export function generateKeysArgs(datadir: string, address: string, passphraseSource = 'no-passphrase'): string[] {
  return [
    'keytool',
    'generate',
    'validator',
    '--datadir',
    datadir,
    '--address',
    address,
    '--bls-passphrase-source',
    passphraseSource,
  ]
}

/** Parses stdout as the single JSON document --json promises. */
export function parseJson<T = unknown>(r: CliResult): T {
  try {
    return JSON.parse(r.stdout) as T
  } catch {
    throw new Error(`stdout is not JSON (exit ${r.code}):\n${r.stdout}\nstderr:\n${r.stderr}`)
  }
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'tnv-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}
