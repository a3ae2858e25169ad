/**
 * Writes node-info.yaml byte for byte as the node writes it (real-network/node.md §3): the node
 * serialises its `NodeInfo` with serde_yaml 0.8.26, whose emitter is yaml-rust 0.4.5
 * (`YamlEmitter::dump`), and serde_yaml adds a final newline. So:
 *
 * - the document starts with `---` and ends with a newline; two-space indentation; a list item
 *   is `- ` followed by its first key on the same line (compact form);
 * - field order: name, bls_public_key, p2p_info {primary, worker | workers}, execution_address,
 *   proof_of_possession; every P2pNode has network_address, network_key, rpc; an unset `rpc`
 *   (and an unset `ws`) is `~`;
 * - a string is double-quoted exactly when yaml-rust's `need_quotes` says so (empty; leading or
 *   trailing space; a first character among `&*?|-<>=!%@`; any of `:{}[],#\`"'\\` or a control
 *   character; a YAML 1.1 bool/null word; a leading `.`; a leading `0x`; anything Rust parses as
 *   i64 or f64), with yaml-rust's `escape_str` escapes. Hence `execution_address: "0x…"`
 *   (written lower-case, as alloy formats an Address) and quoted URLs, while base58 values and
 *   `/ip4/…` multiaddrs stay bare.
 *
 * The form decides the workers' key: `worker:` (one map, what the released node reads) or
 * `workers:` (the specification's list). The text is built directly, without the YAML library,
 * so `keytool generate` pays no library start-up while PBKDF2 runs. Reading a file in this
 * layout needs no library either (./read-canonical.ts, which proves each reading by writing it
 * back with `renderNodeInfoDoc`); any other text goes through the library, and tests read every
 * written file back with it.
 */
import { encodeBase58 } from './base58.js'
import type { NodeInfo, NodeInfoForm, PeerInfo } from './types.js'

/** A P2pNode as the file's text holds it: text, `null` where the file has `~`. */
export type PeerDoc = {
  network_address: string | null
  network_key: string | null
  rpc: { http: string | null; ws: string | null } | null
}

/**
 * node-info.yaml as the file's text holds it, in the node's field order: what the YAML library
 * reads from a file in the node's own layout (text values; `null` for `~`).
 */
export type NodeInfoDoc = {
  name: string | null
  bls_public_key: string | null
  p2p_info: { primary: PeerDoc; worker: PeerDoc } | { primary: PeerDoc; workers: PeerDoc[] }
  execution_address: string | null
  proof_of_possession: string | null
}

/**
 * @param form defaults to `info.form`; `worker` needs exactly one worker
 * @example await writeFile(p, formatNodeInfo(info))
 */
export function formatNodeInfo(info: NodeInfo, form: NodeInfoForm = formOf(info)): string {
  if (form === 'worker' && info.workers.length !== 1)
    throw new RangeError(`node-info.yaml with ${info.workers.length} workers cannot be written as one worker: map`)
  const peer = (p: PeerInfo): PeerDoc => ({
    network_address: p.networkAddress,
    network_key: p.networkKey,
    rpc: p.rpc ? { http: p.rpc.http, ws: p.rpc.ws ?? null } : null,
  })
  const primary = peer(info.primary)
  return renderNodeInfoDoc({
    name: info.name,
    bls_public_key: encodeBase58(info.blsPublicKey),
    p2p_info:
      form === 'worker'
        ? { primary, worker: peer(info.workers[0] as PeerInfo) }
        : { primary, workers: info.workers.map(peer) },
    execution_address: info.executionAddress.toLowerCase(),
    proof_of_possession: encodeBase58(info.proofOfPossession),
  })
}

/** The text the node writes for `doc` (the layout of this file's header). */
export function renderNodeInfoDoc(doc: NodeInfoDoc): string {
  const lines = [
    '---',
    `name: ${value(doc.name)}`,
    `bls_public_key: ${value(doc.bls_public_key)}`,
    'p2p_info:',
    '  primary:',
    ...p2pNode(doc.p2p_info.primary, '    ', '    '),
  ]
  if ('worker' in doc.p2p_info) lines.push('  worker:', ...p2pNode(doc.p2p_info.worker, '    ', '    '))
  else {
    lines.push('  workers:')
    for (const w of doc.p2p_info.workers) lines.push(...p2pNode(w, '    - ', '      '))
  }
  lines.push(
    `execution_address: ${value(doc.execution_address)}`,
    `proof_of_possession: ${value(doc.proof_of_possession)}`,
  )
  return `${lines.join('\n')}\n`
}

/** The form of `info`: its own, else the released node's for one worker and the list for several. */
export function formOf(info: NodeInfo): NodeInfoForm {
  return info.form ?? (info.workers.length > 1 ? 'workers' : 'worker')
}

/** One P2pNode: `first` prefixes its first line (indent, or `- ` of a list item), `indent` the others. */
function p2pNode(p: PeerDoc, first: string, indent: string): string[] {
  const lines = [
    `${first}network_address: ${value(p.network_address)}`,
    `${indent}network_key: ${value(p.network_key)}`,
  ]
  if (p.rpc === null) lines.push(`${indent}rpc: ~`)
  else lines.push(`${indent}rpc:`, `${indent}  http: ${value(p.rpc.http)}`, `${indent}  ws: ${value(p.rpc.ws)}`)
  return lines
}

/** A value as serde_yaml writes it: `~` for none, else the string scalar. */
function value(v: string | null): string {
  return v === null ? '~' : scalar(v)
}

/** YAML 1.1 words yaml-rust quotes (bool and null); `y`/`n` deliberately stay plain, as in yaml-rust. */
const QUOTED_WORDS = new Set([
  'yes',
  'Yes',
  'YES',
  'no',
  'No',
  'NO',
  'True',
  'TRUE',
  'true',
  'False',
  'FALSE',
  'false',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  'null',
  'Null',
  'NULL',
  '~',
])
const QUOTED_FIRST = /^[&*?|\-<>=!%@]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters yaml-rust quotes
const QUOTED_ANYWHERE = /[:{}[\],#`"'\\\u0000-\u0006\t\n\r\u000e-\u001a\u001c-\u001f]/
/** What Rust's `str::parse::<i64>()` accepts (a value out of range falls to the f64 test, which accepts it). */
const RUST_INT = /^[+-]?[0-9]+$/
/** What Rust's `str::parse::<f64>()` accepts: decimal with optional fraction and exponent, inf, infinity, nan. */
const RUST_FLOAT = /^[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)$/i

/** yaml-rust 0.4.5 `need_quotes`. */
export function needsQuotes(value: string): boolean {
  return (
    value === '' ||
    value.startsWith(' ') ||
    value.endsWith(' ') ||
    QUOTED_FIRST.test(value) ||
    QUOTED_ANYWHERE.test(value) ||
    QUOTED_WORDS.has(value) ||
    value.startsWith('.') ||
    value.startsWith('0x') ||
    RUST_INT.test(value) ||
    RUST_FLOAT.test(value)
  )
}

/** yaml-rust 0.4.5 `escape_str`: `"` and `\` escaped, control characters as \b \t \n \f \r or \u00XX, DEL as \u007f. */
export function escapeString(value: string): string {
  let out = '"'
  for (const ch of value) {
    const c = ch.codePointAt(0) as number
    if (ch === '"') out += '\\"'
    else if (ch === '\\') out += '\\\\'
    else if (c === 0x08) out += '\\b'
    else if (c === 0x09) out += '\\t'
    else if (c === 0x0a) out += '\\n'
    else if (c === 0x0c) out += '\\f'
    else if (c === 0x0d) out += '\\r'
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`
    else out += ch
  }
  return `${out}"`
}

/** A string scalar as yaml-rust writes it. */
export function scalar(value: string): string {
  return needsQuotes(value) ? escapeString(value) : value
}
