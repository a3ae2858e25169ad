/**
 * Writes node-info.yaml text in the reference node's field order: name, bls_public_key,
 * p2p_info {primary, workers}, execution_address, proof_of_possession. The workers are always
 * a `workers:` list (a legacy `worker:` map read from disk becomes a list here).
 *
 * The document has one fixed shape of string scalars, so it is emitted directly: a scalar is
 * written plain only when it is unambiguously a string (conservative character set, no
 * keyword, not number-like), otherwise double-quoted with JSON escapes, which YAML's
 * double-quoted style accepts. This keeps the YAML library's cold start (~40 ms of first-use
 * work) out of `keytool generate`, whose time the KDF must dominate; reading still goes
 * through the library, and tests parse what is written with it. Unknown top-level fields kept
 * from a read are appended with the library.
 */
import { encodeBase58 } from './base58.js'
import type { NodeInfo, PeerInfo, WorkerInfo } from './types.js'

/** @example await writeFile(p, await formatNodeInfo(info)) */
export async function formatNodeInfo(info: NodeInfo): Promise<string> {
  const lines = [
    `name: ${scalar(info.name)}`,
    `bls_public_key: ${scalar(encodeBase58(info.blsPublicKey))}`,
    'p2p_info:',
    '  primary:',
    ...peer(info.primary, '    '),
    '  workers:',
    ...info.workers.flatMap(worker),
    `execution_address: ${scalar(info.executionAddress)}`,
    `proof_of_possession: ${scalar(encodeBase58(info.proofOfPossession))}`,
  ]
  let text = `${lines.join('\n')}\n`
  if (info.extra && Object.keys(info.extra).length > 0) {
    const { stringify } = await import('yaml')
    text += stringify(info.extra, { lineWidth: 0 })
  }
  return text
}

function peer(p: PeerInfo, indent: string): string[] {
  return [`${indent}network_address: ${scalar(p.networkAddress)}`, `${indent}network_key: ${scalar(p.networkKey)}`]
}

function worker(w: WorkerInfo): string[] {
  const [first, ...rest] = peer(w, '      ')
  const lines = [`    - ${(first ?? '').trimStart()}`, ...rest]
  if (w.rpc) {
    lines.push('      rpc:', `        http: ${scalar(w.rpc.http)}`)
    if (w.rpc.ws !== undefined) lines.push(`        ws: ${scalar(w.rpc.ws)}`)
  }
  return lines
}

/** Starts with a letter, digit or `/`, then only characters that are never YAML syntax inside a plain scalar. */
const SAFE_PLAIN = /^[A-Za-z0-9/][A-Za-z0-9_./:=?&%~@+-]*$/
/** Words YAML 1.1 or 1.2 resolves to booleans or null. */
const KEYWORDS = /^(y|n|yes|no|on|off|true|false|null)$/i
/** What YAML 1.1 or 1.2 could read as a number (decimal, exponent, sexagesimal, 0x/0o/0b), e.g. a 0x… address. */
const NUMBER_LIKE = /^[-+]?[0-9][0-9_:.]*([eE][-+]?[0-9]+)?$|^0[xXoObB][0-9a-fA-F_]*$/

/** A string scalar: plain when unambiguous, else double-quoted (JSON escapes are valid YAML escapes). */
export function scalar(value: string): string {
  const plain = SAFE_PLAIN.test(value) && !value.endsWith(':') && !KEYWORDS.test(value) && !NUMBER_LIKE.test(value)
  return plain ? value : JSON.stringify(value)
}
