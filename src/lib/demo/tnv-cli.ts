/** Runs tnv's own CLI as a child process (the demo shows the exact commands an operator types). */
import { spawn } from 'node:child_process'
import { TnvError } from '../errors.js'
import { findPackageFile } from '../package-file.js'

export function tnvBinPath(): string {
  const path = findPackageFile('bin/run.js')
  if (path) return path
  throw new TnvError('Cannot find bin/run.js next to the tnv build.', {
    fix: 'Run `npm run build` in the tnv checkout.',
  })
}

/** Runs `tnv <args> --json` and parses stdout; a non-zero exit becomes a TnvError carrying the step's own error. */
export async function runTnvJson<T>(args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  // --json is tnv's flag: it goes before `--`, after which everything is the node's
  const at = args.indexOf('--')
  const r = await runTnv(at === -1 ? [...args, '--json'] : [...args.slice(0, at), '--json', ...args.slice(at)], env)
  let parsed: unknown = null
  try {
    parsed = JSON.parse(r.stdout)
  } catch {
    // not JSON: handled below
  }
  if (r.code !== 0) {
    const err = (parsed as { error?: { message?: string; fix?: string } } | null)?.error
    throw new TnvError(
      `The demo step \`tnv ${args.join(' ')}\` failed (exit ${r.code}): ${err?.message ?? r.stderr.trim().split('\n').at(-1) ?? ''}`,
      {
        fix: err?.fix ?? 'Read the message above; run the step by hand to see its full output.',
        exitCode: r.code as TnvError['exitCode'],
      },
    )
  }
  return parsed as T
}

/** `env` is the child's whole environment (the demo builds it without tnv's secrets). */
export function runTnv(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tnvBinPath(), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
  })
}
