/**
 * node-info.yaml in the node's own layout, read without the YAML library. The node writes the
 * file with serde_yaml (and tnv writes it the same way, ./serialize.ts), so almost every file a
 * command reads is in that layout; the YAML library (docs/decisions.md, "node-info.yaml is written
 * byte for byte as the node writes it") is then needed only for a file someone edited by hand.
 *
 * The reading is accepted only when writing what was read gives back the very same text
 * (`renderNodeInfoDoc(doc) === text`): the text is then exactly what ./serialize.ts writes for
 * `doc`, which the YAML library reads as `doc` (test/keytool/nodeinfo-canonical.test.ts holds the
 * two readers to each other, on written files and on random values of every kind). Anything
 * else (comments, other spacing or quoting, CRLF, another order, escapes, text outside printable
 * ASCII) gives undefined, and the caller reads the file with the library, which also reports
 * what is wrong with it.
 */
import { type NodeInfoDoc, type PeerDoc, renderNodeInfoDoc } from './serialize.js'

/** A line this reader does not take (the library reads the file instead). */
const NO = Symbol('not the node layout')
/** `key:` with nothing after it: a nested map follows. */
const NESTED = Symbol('nested')

/** A value as written in the node layout: `~`, a bare word, or a double-quoted string without escapes. */
function scalarValue(text: string): string | null | typeof NO {
  if (text === '~') return null
  if (/^[A-Za-z0-9/._-]+$/.test(text)) return text
  if (/^"[\x20-\x21\x23-\x5b\x5d-\x7e]*"$/.test(text)) return text.slice(1, -1)
  return NO
}

/** The document of `text` when the text is exactly the node's layout of it, else undefined. */
export function readCanonicalNodeInfo(text: string): NodeInfoDoc | undefined {
  if (!text.startsWith('---\n') || !text.endsWith('\n')) return undefined
  const r = new LayoutLines(text.slice(4, -1).split('\n'))
  const name = r.leaf('', 'name')
  const bls = r.leaf('', 'bls_public_key')
  if (name === NO || bls === NO || r.entry('', 'p2p_info') !== NESTED || r.entry('  ', 'primary') !== NESTED)
    return undefined
  const primary = r.peer('    ', '    ')
  if (primary === NO) return undefined
  const p2p = readWorkers(r, primary)
  if (p2p === NO) return undefined
  const address = r.leaf('', 'execution_address')
  const pop = r.leaf('', 'proof_of_possession')
  if (address === NO || pop === NO || !r.atEnd()) return undefined
  const doc: NodeInfoDoc = {
    name,
    bls_public_key: bls,
    p2p_info: p2p,
    execution_address: address,
    proof_of_possession: pop,
  }
  return renderNodeInfoDoc(doc) === text ? doc : undefined
}

/** The file's lines, read in order: each read takes the next line when it is the one expected. */
class LayoutLines {
  private i = 0
  constructor(private readonly lines: string[]) {}

  atEnd(): boolean {
    return this.i === this.lines.length
  }

  /** The next line is exactly `line`: taken. */
  take(line: string): boolean {
    if (this.lines[this.i] !== line) return false
    this.i++
    return true
  }

  /** The next line starts with `prefix`. */
  startsWith(prefix: string): boolean {
    return this.lines[this.i]?.startsWith(prefix) === true
  }

  /** `<prefix><key>: <value>` (its scalar) or `<prefix><key>:` (NESTED); NO for anything else. */
  entry(prefix: string, key: string): string | null | typeof NO | typeof NESTED {
    const line = this.lines[this.i]
    const head = `${prefix}${key}:`
    if (line === undefined || !line.startsWith(head)) return NO
    this.i++
    if (line.length === head.length) return NESTED
    return line[head.length] === ' ' ? scalarValue(line.slice(head.length + 1)) : NO
  }

  /** An entry with a scalar value. */
  leaf(prefix: string, key: string): string | null | typeof NO {
    const v = this.entry(prefix, key)
    return v === NESTED ? NO : v
  }

  /** A peer: network_address (after `first`), network_key, and rpc (`~`, or http and ws nested). */
  peer(first: string, indent: string): PeerDoc | typeof NO {
    const address = this.leaf(first, 'network_address')
    const key = this.leaf(indent, 'network_key')
    const rpc = this.entry(indent, 'rpc')
    if (address === NO || key === NO || rpc === NO || (rpc !== null && rpc !== NESTED)) return NO
    if (rpc === null) return { network_address: address, network_key: key, rpc: null }
    const http = this.leaf(`${indent}  `, 'http')
    const ws = this.leaf(`${indent}  `, 'ws')
    if (http === NO || ws === NO) return NO
    return { network_address: address, network_key: key, rpc: { http, ws } }
  }
}

/** p2p_info after its primary: `worker:` with one peer, or `workers:` with a non-empty list. */
function readWorkers(r: LayoutLines, primary: PeerDoc): NodeInfoDoc['p2p_info'] | typeof NO {
  if (r.take('  worker:')) {
    const worker = r.peer('    ', '    ')
    return worker === NO ? NO : { primary, worker }
  }
  if (!r.take('  workers:')) return NO
  const workers: PeerDoc[] = []
  while (r.startsWith('    - ')) {
    const w = r.peer('    - ', '      ')
    if (w === NO) return NO
    workers.push(w)
  }
  // `workers:` with no item is read as null, not as an empty list: the library reports it
  if (workers.length === 0) return NO
  return { primary, workers }
}
