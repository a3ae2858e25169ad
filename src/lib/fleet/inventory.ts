/**
 * The validators of an inventory, for `tnv fleet status`: an Ansible inventory (INI or YAML) whose
 * hosts carry tnv's variables, or tnv's own small YAML list. Variables (host vars win over group
 * vars, which win over `all` vars; a child group's vars over its parent's):
 * - `tnv_datadir`: the data directory on this machine (node-info.yaml, the node tnv started);
 * - `tnv_node_rpc_url`: the node's RPC endpoint (for a node on another host, or not started by tnv);
 * - `tnv_address`: the validator address (default: node-info.yaml's execution_address);
 * - `tnv_chain`, `tnv_rpc_url`, `tnv_chain_id`: the network, as `--chain`, `--rpc-url`, `--chain-id`.
 * A host with neither `tnv_datadir` nor `tnv_node_rpc_url` is not a validator and is left out.
 *
 * tnv's own form:
 *   validators:
 *     - { name: v1, datadir: /var/lib/tnv/v1, chain: testnet }
 *     - { name: v2, node_rpc_url: http://10.0.0.2:8545, address: 0x…, chain: testnet }
 *
 * Only what these forms need is read: INI `[group]`, `[group:vars]`, `[group:children]` and
 * `key=value` words (quoted values unquoted); YAML `hosts`, `vars`, `children`. Jinja templates
 * and dynamic inventory scripts are not evaluated, nor INI host ranges (`v[01:50]`):
 * `ansible-inventory -i … --list --yaml` turns those into a static YAML inventory this reads.
 */
import { parse as parseYaml } from 'yaml'
import { BadInputError } from '../errors.js'
import { readSmallFile } from '../fs/read-small-file.js'

export type InventoryValidator = {
  name: string
  datadir: string | null
  nodeRpcUrl: string | null
  address: string | null
  chain: string | null
  rpcUrl: string | null
  chainId: number | null
}

type Vars = Record<string, unknown>

function fromVars(name: string, vars: Vars): InventoryValidator | null {
  const str = (k: string) => {
    const v = vars[k]
    return v === undefined || v === null || v === '' ? null : String(v)
  }
  const datadir = str('tnv_datadir') ?? str('datadir')
  const nodeRpcUrl = str('tnv_node_rpc_url') ?? str('node_rpc_url')
  if (datadir === null && nodeRpcUrl === null) return null
  const chainId = str('tnv_chain_id') ?? str('chain_id')
  return {
    name,
    datadir,
    nodeRpcUrl,
    address: str('tnv_address') ?? str('address'),
    chain: str('tnv_chain') ?? str('chain'),
    rpcUrl: str('tnv_rpc_url') ?? str('rpc_url'),
    chainId: chainId === null ? null : Number(chainId),
  }
}

function unquote(v: string): string {
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))))
    return v.slice(1, -1)
  return v
}

/** `key=value` words of an INI host or vars line (values may be quoted, with spaces inside the quotes). */
function iniWords(line: string): string[] {
  return line.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? []
}

function parseIni(text: string, file: string): InventoryValidator[] {
  const hosts = new Map<string, { groups: Set<string>; vars: Vars }>()
  const groupVars = new Map<string, Vars>()
  const children = new Map<string, string[]>()
  let section: { group: string; kind: 'hosts' | 'vars' | 'children' } = { group: 'ungrouped', kind: 'hosts' }
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/^\s+|\s+$/g, '')
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = /^\[([^\]:]+)(?::(vars|children))?\]$/.exec(line)
    if (header) {
      section = { group: header[1] as string, kind: (header[2] as 'vars' | 'children' | undefined) ?? 'hosts' }
      continue
    }
    if (section.kind === 'children') {
      children.set(section.group, [...(children.get(section.group) ?? []), line])
      continue
    }
    if (section.kind === 'vars') {
      const at = line.indexOf('=')
      if (at < 1) throw new BadInputError(`${file}:${i + 1}: expected key=value in [${section.group}:vars].`)
      const vars = groupVars.get(section.group) ?? {}
      vars[line.slice(0, at).trim()] = unquote(line.slice(at + 1).trim())
      groupVars.set(section.group, vars)
      continue
    }
    const [name, ...words] = iniWords(line)
    if (!name) continue
    const host = hosts.get(name) ?? { groups: new Set<string>(), vars: {} }
    host.groups.add(section.group)
    for (const w of words) {
      const at = w.indexOf('=')
      if (at < 1) throw new BadInputError(`${file}:${i + 1}: expected key=value after the host name, found ${w}.`)
      host.vars[w.slice(0, at)] = unquote(w.slice(at + 1))
    }
    hosts.set(name, host)
  }
  // a group's ancestors (parents first), through [parent:children]
  const parents = (group: string, seen = new Set<string>()): string[] => {
    const out: string[] = []
    for (const [parent, kids] of children)
      if (kids.includes(group) && !seen.has(parent)) {
        seen.add(parent)
        out.push(...parents(parent, seen), parent)
      }
    return out
  }
  const validators: InventoryValidator[] = []
  for (const [name, host] of hosts) {
    const vars: Vars = { ...groupVars.get('all') }
    for (const g of host.groups) for (const p of [...parents(g), g]) Object.assign(vars, groupVars.get(p))
    Object.assign(vars, host.vars)
    const v = fromVars(name, vars)
    if (v) validators.push(v)
  }
  return validators
}

type YamlGroup = { hosts?: Record<string, Vars | null>; vars?: Vars; children?: Record<string, YamlGroup | null> }

function parseAnsibleYaml(doc: Record<string, YamlGroup | null>): InventoryValidator[] {
  const hostVars = new Map<string, Vars>()
  const walk = (group: YamlGroup | null, inherited: Vars) => {
    if (!group) return
    const vars = { ...inherited, ...(group.vars ?? {}) }
    for (const [name, own] of Object.entries(group.hosts ?? {}))
      hostVars.set(name, { ...(hostVars.get(name) ?? {}), ...vars, ...(own ?? {}) })
    for (const child of Object.values(group.children ?? {})) walk(child, vars)
  }
  for (const group of Object.values(doc)) walk(group, {})
  return [...hostVars].flatMap(([name, vars]) => fromVars(name, vars) ?? [])
}

/**
 * @example const validators = parseInventory(await readFile('hosts.ini', 'utf8'), 'hosts.ini')
 */
export function parseInventory(text: string, file: string): InventoryValidator[] {
  // an INI inventory has [group] headers on lines of their own; YAML inventories never do
  const looksIni = /^\s*\[[^\]\s,]+\]\s*$/m.test(text)
  let validators: InventoryValidator[]
  if (looksIni) validators = parseIni(text, file)
  else {
    let doc: unknown
    try {
      doc = parseYaml(text)
    } catch (err) {
      throw new BadInputError(`${file} is neither an INI inventory nor valid YAML: ${(err as Error).message}`)
    }
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
      throw new BadInputError(`${file}: expected an inventory (a mapping of groups, or "validators:").`)
    const d = doc as Record<string, unknown>
    if (Array.isArray(d.validators))
      validators = d.validators.map((entry, i) => {
        const vars = (entry ?? {}) as Vars
        const name = String(vars.name ?? `validator-${i + 1}`)
        const v = fromVars(name, { ...((d.defaults as Vars | undefined) ?? {}), ...vars })
        if (!v) throw new BadInputError(`${file}: validator ${name} has neither datadir nor node_rpc_url.`)
        return v
      })
    else validators = parseAnsibleYaml(d as Record<string, YamlGroup | null>)
  }
  if (validators.length === 0)
    throw new BadInputError(`${file} names no validator: no host has tnv_datadir or tnv_node_rpc_url.`, {
      fix: 'Give each validator host tnv_datadir (its data directory) or tnv_node_rpc_url (its node) in the inventory.',
    })
  const names = new Set<string>()
  for (const v of validators) {
    if (names.has(v.name)) throw new BadInputError(`${file}: the validator ${v.name} is listed twice.`)
    names.add(v.name)
    if (v.chainId !== null && !Number.isInteger(v.chainId))
      throw new BadInputError(`${file}: ${v.name}'s chain id is not a number.`)
  }
  return validators
}

/** @example const validators = await readInventory('inventory/hosts.yml') */
export async function readInventory(path: string): Promise<InventoryValidator[]> {
  return parseInventory(
    await readSmallFile(path, { what: 'an inventory', maxBytes: 4 * 1024 * 1024, explainMissing: true }),
    path,
  )
}
