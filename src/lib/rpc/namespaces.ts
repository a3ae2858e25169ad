/**
 * One namespace-selection value (`--http.api`, `--ws.api`) read per the spec's values table
 * and rules 1-5 (node-rpc-namespaces.md, "Namespace selection values"). Pure.
 */
import { DEFAULT_NAMESPACES, NAMESPACES, type Namespace, PROBED_NAMESPACES, type ProbedNamespace } from './types.js'

export type NamespaceSelection = {
  /** `default`: flag not given; `all`/`none`: the first entry (any letter case); `list`: named namespaces. */
  kind: 'default' | 'all' | 'none' | 'list'
  /** What is served, in the spec's order (eth, net, web3, rpc, tn, debug, trace), each once. */
  namespaces: Namespace[]
  /** Entries dropped because the node does not serve them (rule 3: case-sensitive; rule 4), as written. */
  unsupported: string[]
  /** Entries after a leading `all` or `none`, which the node ignores (rule 5). */
  ignored: string[]
  /** Set when the value is malformed (empty, or an empty entry such as `eth,,net`): the node refuses it. */
  error: string | null
}

const isNamespace = (name: string): name is Namespace => (NAMESPACES as readonly string[]).includes(name)

/** Sorts into the spec's order and removes repeats. */
export function inSpecOrder(names: Iterable<Namespace>): Namespace[] {
  const set = new Set(names)
  return NAMESPACES.filter((n) => set.has(n))
}

/** The same for probed names: the spec's order, then admin and txpool. */
export function inProbeOrder(names: Iterable<ProbedNamespace>): ProbedNamespace[] {
  const set = new Set(names)
  return PROBED_NAMESPACES.filter((n) => set.has(n))
}

/**
 * @param value the flag's value as written, or undefined when the flag is not given
 * @param flag  the flag name, for the error text
 * @example
 * parseNamespaceSelection('all,debug', '--http.api').namespaces // ['eth','net','web3','rpc','tn'] (rule 5)
 * parseNamespaceSelection('eth,TN,admin', '--http.api')        // namespaces ['eth'], unsupported ['TN','admin']
 */
export function parseNamespaceSelection(value: string | undefined, flag: string): NamespaceSelection {
  const base = { unsupported: [], ignored: [], error: null }
  if (value === undefined) return { ...base, kind: 'default', namespaces: [...DEFAULT_NAMESPACES] }
  const entries = value.split(',').map((e) => e.trim())
  if (entries.some((e) => e === '')) {
    const error =
      value.trim() === ''
        ? `${flag} is empty. Write ${flag} none to serve nothing, or leave the flag out for the default set (eth,net,web3,rpc,tn).`
        : `${flag} "${value}" has an empty entry. Write the names separated by single commas, for example ${flag} eth,net,web3,rpc,tn.`
    return { ...base, kind: 'none', namespaces: [], error }
  }
  const [first, ...rest] = entries as [string, ...string[]]
  const lowered = first.toLowerCase()
  if (lowered === 'all') return { ...base, kind: 'all', namespaces: [...DEFAULT_NAMESPACES], ignored: rest }
  if (lowered === 'none') return { ...base, kind: 'none', namespaces: [], ignored: rest }
  const unsupported: string[] = []
  const named: Namespace[] = []
  for (const entry of entries) {
    if (isNamespace(entry)) named.push(entry)
    else if (!unsupported.includes(entry)) unsupported.push(entry)
  }
  return { ...base, kind: 'list', namespaces: inSpecOrder(named), unsupported }
}

/** For a name the node did not recognise, the supported name it was probably meant to be (`TN` → `tn`). */
export function suggestNamespace(name: string): Namespace | null {
  const lowered = name.toLowerCase()
  return isNamespace(lowered) ? lowered : null
}

/** The modules the released node keeps from a selection (TN `validate_rpc_modules`, ALL_MODULES). */
const RELEASED_ALLOWED: readonly Namespace[] = ['eth', 'net', 'web3', 'rpc', 'debug', 'trace']
/** The names the released node warns about when dropped (the others are dropped silently). */
export const RELEASED_WARNED = ['admin', 'txpool'] as const

/**
 * One selection value read as the released node reads it (real-network/node.md §4; reth
 * `RpcModuleSelection::from_str` and TN `validate_rpc_modules`): an empty value or a first
 * entry `none` (any case) selects nothing; a first entry `all` (any case) selects eth, net,
 * web3, debug, trace and rpc; a list keeps the exact, case-sensitive names among those six
 * (duplicates and empty entries dropped, never an error); a missing flag is eth, net, web3.
 * Then `tn` is added on every enabled transport, whatever the selection. Pure.
 * @example parseReleasedSelection('none', '--http.api').namespaces // ['tn']
 */
export function parseReleasedSelection(value: string | undefined, _flag: string): NamespaceSelection {
  const base = { unsupported: [] as string[], ignored: [] as string[], error: null }
  const withTn = (names: Namespace[]) => inSpecOrder([...names, 'tn'])
  if (value === undefined) return { ...base, kind: 'default', namespaces: withTn(['eth', 'net', 'web3']) }
  if (value === '') return { ...base, kind: 'none', namespaces: withTn([]) }
  const entries = value.split(',').map((e) => e.trim())
  const [first, ...rest] = entries as [string, ...string[]]
  const lowered = first.toLowerCase()
  if (lowered === 'all') return { ...base, kind: 'all', namespaces: withTn([...RELEASED_ALLOWED]), ignored: rest }
  if (lowered === 'none') return { ...base, kind: 'none', namespaces: withTn([]), ignored: rest }
  const unsupported: string[] = []
  const named: Namespace[] = []
  for (const entry of entries) {
    if ((RELEASED_ALLOWED as readonly string[]).includes(entry)) named.push(entry as Namespace)
    else if (entry !== 'tn' && entry !== '' && !unsupported.includes(entry)) unsupported.push(entry)
  }
  return { ...base, kind: 'list', namespaces: withTn(named), unsupported }
}
