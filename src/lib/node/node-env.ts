/**
 * The environment of the node process `tnv node start` (and the wizard) starts: tnv's own
 * without any secret tnv reads (../child-env.ts), plus the BLS passphrase only where the node
 * needs it, set in the node's own environment as the real deployment does (systemd
 * LoadCredential or TPM unseal into TN_BLS_PASSPHRASE, Docker `-e TN_BLS_PASSPHRASE`;
 * real-network/node.md §8). The node needs it only when it is the real node (the reference
 * node reads no BLS key), its passphrase source is env (the default) and node-keys/bls.kw
 * exists (otherwise it reads bls.key and ignores a passphrase). Never on a command line, in a
 * file or in output; nothing else tnv spawns ever gets it.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { childEnv } from '../child-env.js'
import { PASSPHRASE_ENV } from '../passphrase/read-passphrase.js'
import type { NodeBinary } from './binary.js'

export type NodeChildEnvParameters = {
  binary: Pick<NodeBinary, 'origin'>
  /** The data directory the node runs on (its --datadir). */
  datadir: string
  /** The node's own flags (its --bls-passphrase-source is read from them). */
  nodeFlags: readonly string[]
  /** The passphrase tnv holds in memory (it created the keys in this run); else TN_BLS_PASSPHRASE is used. */
  passphrase?: string | undefined
  /** tnv's environment as the session hands it (the child's is built from it, secrets dropped). */
  env: NodeJS.ProcessEnv
}

export type NodeChildEnvReturnType = {
  env: NodeJS.ProcessEnv
  /** Whether the node was given the passphrase, and why (or why not), for tests and notes. */
  passphrase: 'given' | 'not-needed' | 'not-available'
}

/** The node's --bls-passphrase-source (default env), as the node parses it. */
export function nodePassphraseSource(nodeFlags: readonly string[]): string {
  let source = 'env'
  for (let i = 0; i < nodeFlags.length; i++) {
    const flag = nodeFlags[i] as string
    if (flag === '--bls-passphrase-source') source = nodeFlags[i + 1] ?? source
    else if (flag.startsWith('--bls-passphrase-source=')) source = flag.slice('--bls-passphrase-source='.length)
  }
  return source
}

/**
 * @example const { env } = nodeChildEnv({ binary, datadir, nodeFlags, env: session.env })
 */
export function nodeChildEnv({
  binary,
  datadir,
  nodeFlags,
  passphrase,
  env,
}: NodeChildEnvParameters): NodeChildEnvReturnType {
  const out = childEnv(env)
  if (binary.origin === 'reference') return { env: out, passphrase: 'not-needed' }
  if (nodePassphraseSource(nodeFlags) !== 'env') return { env: out, passphrase: 'not-needed' }
  const at = nodeFlags.indexOf('--datadir')
  const dir =
    at >= 0
      ? (nodeFlags[at + 1] ?? datadir)
      : (nodeFlags.find((f) => f.startsWith('--datadir='))?.slice('--datadir='.length) ?? datadir)
  if (!existsSync(join(dir, 'node-keys', 'bls.kw'))) return { env: out, passphrase: 'not-needed' }
  const value = passphrase ?? env[PASSPHRASE_ENV]
  if (value === undefined || value === '') return { env: out, passphrase: 'not-available' }
  out[PASSPHRASE_ENV] = value
  return { env: out, passphrase: 'given' }
}
