/**
 * Parses node-info.yaml text in either form (real-network/node.md §3): the released node's
 * `p2p_info.worker:` map or the specification's `p2p_info.workers:` list, with the YAML library,
 * then checks its fields (./from-doc.ts). Scalars are read as text (YAML failsafe schema) with
 * only `~`, `null` and an empty value read as null, so an unquoted `0x…` address stays text; a
 * YAML tag, an alias bomb or a syntax error is a NodeInfoSyntaxError. ./read.ts reads a file in
 * the node's own layout without the library (./read-canonical.ts) and comes here for any other.
 *
 * A command that rewrites some fields (generate pop, set-rpc) can ask for problems in exactly
 * those fields to be tolerated (`replacing`), so the command that repairs a field can read the
 * file; the values returned for them are then placeholders the command overwrites.
 */
import { parseDocument, visit } from 'yaml'
import { remoteText } from '../io/remote-text.js'
import { NodeInfoSyntaxError } from './errors.js'
import { nodeInfoFromDoc, type ParseNodeInfoOptions } from './from-doc.js'
import type { NodeInfo } from './types.js'

export type { ParseNodeInfoOptions }

/** The tags a node-info.yaml may carry (written out or implied): text, null, maps and lists. */
const PLAIN_TAGS = new Set([
  'tag:yaml.org,2002:str',
  'tag:yaml.org,2002:null',
  'tag:yaml.org,2002:map',
  'tag:yaml.org,2002:seq',
])

/**
 * @param text the file's content
 * @param path where it came from (used in every error message)
 * @example const info = parseNodeInfo(await readFile(p, 'utf8'), p)
 */
export function parseNodeInfo(text: string, path: string, options: ParseNodeInfoOptions = {}): NodeInfo {
  let doc: unknown
  // the library's warnings (an unknown tag such as !!js/function) are errors here, and are
  // never printed by the library itself (logLevel silent)
  const parsed = parseDocument(text, {
    schema: 'failsafe',
    customTags: ['null'],
    uniqueKeys: true,
    prettyErrors: false,
    logLevel: 'silent',
  })
  // an explicit tag the library does know (!!binary, !!int, !!timestamp) is refused too: the
  // file holds text, maps and lists only
  let foreignTag: string | undefined
  visit(parsed, {
    Node(_, node) {
      if (node.tag && !PLAIN_TAGS.has(node.tag)) {
        foreignTag = node.tag
        return visit.BREAK
      }
      return undefined
    },
  })
  if (foreignTag && parsed.errors.length === 0 && parsed.warnings.length === 0)
    throw new NodeInfoSyntaxError(
      path,
      `the tag ${remoteText(foreignTag, 80)}: node-info.yaml holds only plain text values, and tnv refuses every YAML tag it does not know (such as !!js/function)`,
    )
  const problem = parsed.errors[0] ?? parsed.warnings[0]
  if (problem) {
    const tag = problem.code === 'TAG_RESOLVE_FAILED'
    throw new NodeInfoSyntaxError(
      path,
      tag
        ? `${remoteText(problem.message.split('\n')[0], 120)}: node-info.yaml holds only plain text values, and tnv refuses every YAML tag it does not know (such as !!js/function)`
        : remoteText(problem.message.split('\n')[0] ?? 'parse error', 200),
    )
  }
  try {
    doc = parsed.toJS({ maxAliasCount: 100 })
  } catch (err) {
    throw new NodeInfoSyntaxError(path, remoteText(err instanceof Error ? err.message.split('\n')[0] : err, 200))
  }
  return nodeInfoFromDoc(doc, path, options)
}
