/**
 * Which rules a node binary's command line follows. tnv's reference node (the default, or any
 * binary that answers `--version` with `tnv-reference-node/…`: a wrapper script around it, as the
 * upgrade rehearsals use) takes the specification's flags plus its devnet ones; every other
 * binary is judged as the released node.
 */
import { spawnSync } from 'node:child_process'
import type { NodeBinary } from './binary.js'
import type { NodeBinaryKind } from './plan.js'

export const REFERENCE_VERSION_PREFIX = 'tnv-reference-node/'

/** The first line `<binary> --version` prints, or null when it does not run or says nothing (5 s at most). */
export function nodeBinaryVersion(binary: NodeBinary, env: NodeJS.ProcessEnv, timeoutMs = 5_000): string | null {
  const r = spawnSync(binary.command, [...binary.prefix, '--version'], {
    encoding: 'utf8',
    timeout: timeoutMs,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (r.error || r.status !== 0) return null
  const line = (r.stdout ?? '').split('\n').find((l) => l.trim() !== '')
  return line ? line.trim().slice(0, 200) : null
}

export function nodeBinaryKind(binary: NodeBinary, env: NodeJS.ProcessEnv): NodeBinaryKind {
  if (binary.origin === 'reference') return 'reference'
  return nodeBinaryVersion(binary, env)?.startsWith(REFERENCE_VERSION_PREFIX) ? 'reference' : 'released'
}
