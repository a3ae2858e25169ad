/**
 * The single executable under test: release/tnv-<version>-<platform>-<arch>, built by
 * `npm run package` (.ci/run builds it before the tests). Rebuilt here when it is missing or
 * older than the sources, under a lock so two test files never build it at once. Runs it with
 * ONLY the environment given: no PATH (so no Node.js), no inherited variables.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ROOT } from '../helpers/cli.js'

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
export const SEA_NAME = `tnv-${VERSION}-${process.platform}-${process.arch}`
export const SEA = join(ROOT, 'release', SEA_NAME)

function newestSource(dir: string): number {
  let newest = 0
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    const st = statSync(p)
    newest = Math.max(newest, st.isDirectory() ? newestSource(p) : st.mtimeMs)
  }
  return newest
}

function stale(): boolean {
  if (!existsSync(SEA) || !existsSync(`${SEA}.sha256`)) return true
  const sources = Math.max(
    newestSource(join(ROOT, 'src')),
    newestSource(join(ROOT, 'networks')),
    statSync(join(ROOT, 'package.json')).mtimeMs,
  )
  return statSync(SEA).mtimeMs < sources
}

/** The executable's path, after building it if it is missing or stale. */
export async function ensureSea(): Promise<string> {
  const lock = join(ROOT, 'release', '.test-build.lock')
  mkdirSync(join(ROOT, 'release'), { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // another test file is building it; a lock older than 10 minutes is left over from a crash
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 600_000) rmSync(lock, { recursive: true, force: true })
      await sleep(500)
    }
  }
  try {
    if (stale()) execFileSync(process.execPath, [join(ROOT, 'scripts/package.mjs'), '--no-build'], { stdio: 'ignore' })
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
  return SEA
}

export type Run = { code: number; stdout: string; stderr: string }

/** Runs `command` with exactly `env` (nothing inherited), stdin from `input`. */
export function runBare(
  command: string,
  args: string[],
  {
    env = {},
    input,
    cwd,
    timeoutMs = 120_000,
  }: { env?: Record<string, string>; input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd: cwd ?? '/', stdio: ['pipe', 'pipe', 'pipe'] })
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
      reject(new Error(`${command} ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code: code ?? -1, stdout, stderr })
    })
    // a child that exits without reading its stdin (which, npm) is no failure: EPIPE on it is ignored
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err)
    })
    if (input !== undefined) child.stdin.end(input)
    else child.stdin.end()
  })
}

/** Removes a test's directory; a node that was just stopped may still be closing files in it. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
}
