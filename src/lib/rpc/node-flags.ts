/**
 * The node's own argument list, read the way the node reads it (a clap-style parser):
 * `--flag value` and `--flag=value` both work, switches take no value, each flag may be
 * given once, and `--` ends the flags. Only the RPC flags of the spec (and the reference's
 * `--rpc.max-request-size`) are interpreted; every other token passes through untouched,
 * in order, so the node driver can hand the same list to the node.
 *
 * Pure: no I/O. Problems the node would refuse to start with are returned as `errors`
 * (strings that say what is wrong and what to write instead), never thrown.
 */

/** Interpreted flags: `switch` takes no value, `value` takes exactly one. */
export const RPC_NODE_FLAGS = {
  '--http': 'switch',
  '--http.addr': 'value',
  '--http.port': 'value',
  '--http.api': 'value',
  '--http.corsdomain': 'value',
  '--ws': 'switch',
  '--ws.addr': 'value',
  '--ws.port': 'value',
  '--ws.api': 'value',
  '--ws.origins': 'value',
  '--ipcdisable': 'switch',
  '--ipcpath': 'value',
  '--rpc.jwtsecret': 'value',
  '--rpc.gascap': 'value',
  '--rpc.max-blocks-per-filter': 'value',
  '--rpc.max-logs-per-response': 'value',
  '--rpc.max-trace-filter-blocks': 'value',
  '--rpc.max-tracing-requests': 'value',
  '--rpc.max-response-size': 'value',
  '--rpc.max-connections': 'value',
  '--rpc.max-request-size': 'value',
  '--workers': 'value',
} as const satisfies Record<string, 'switch' | 'value'>

export type RpcNodeFlag = keyof typeof RPC_NODE_FLAGS
export type RpcSwitchFlag = { [K in RpcNodeFlag]: (typeof RPC_NODE_FLAGS)[K] extends 'switch' ? K : never }[RpcNodeFlag]
export type RpcValueFlag = Exclude<RpcNodeFlag, RpcSwitchFlag>

/** Flags whose value is a secret: never echoed in an error. */
const SECRET_FLAGS: ReadonlySet<RpcNodeFlag> = new Set(['--rpc.jwtsecret'])

export type ParsedNodeFlags = {
  /** Each interpreted value flag that was given, with its value as written (`--http.api ""` gives ""). */
  values: Partial<Record<RpcValueFlag, string>>
  /** The switches that were given. */
  switches: Partial<Record<RpcSwitchFlag, true>>
  /** Every token not interpreted here (other flags, their values, positionals, everything after `--`), in order. */
  passthrough: string[]
  /** Reasons the node would refuse the list: a flag given twice, a missing value, a value on a switch. */
  errors: string[]
}

export function isRpcNodeFlag(name: string): name is RpcNodeFlag {
  return Object.hasOwn(RPC_NODE_FLAGS, name)
}

/**
 * Splits a node argument list into the RPC flags and the rest.
 *
 * @example
 * parseNodeFlags(['node', '--http', '--http.api=eth,tn', '--datadir', '/d'])
 * // { values: { '--http.api': 'eth,tn' }, switches: { '--http': true },
 * //   passthrough: ['node', '--datadir', '/d'], errors: [] }
 */
export function parseNodeFlags(argv: readonly string[]): ParsedNodeFlags {
  const values: ParsedNodeFlags['values'] = {}
  const switches: ParsedNodeFlags['switches'] = {}
  const passthrough: string[] = []
  const errors: string[] = []
  const seen = new Map<RpcNodeFlag, string | undefined>()

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string
    if (token === '--') {
      passthrough.push(...argv.slice(i))
      break
    }
    const eq = token.indexOf('=')
    const name = token.startsWith('--') && eq !== -1 ? token.slice(0, eq) : token
    if (!isRpcNodeFlag(name)) {
      passthrough.push(token)
      continue
    }
    const inline = eq !== -1 && name !== token ? token.slice(eq + 1) : undefined
    const kind = RPC_NODE_FLAGS[name]
    let value: string | undefined
    if (kind === 'switch') {
      if (inline !== undefined) {
        errors.push(
          `${name} takes no value (got "${token}"). Write ${name} alone to turn it on, or leave it out to keep it off.`,
        )
        continue
      }
    } else if (inline !== undefined) {
      value = inline
    } else {
      const next = argv[i + 1]
      // a following flag is not a value; a negative number is (the value check then refuses it)
      if (next === undefined || (next.startsWith('-') && next.length > 1 && !/^-\d/.test(next))) {
        errors.push(`${name} needs a value (${flagExample(name)}).`)
        continue
      }
      value = next
      i++
    }
    if (seen.has(name)) {
      const before = seen.get(name)
      const shown = kind === 'value' && !SECRET_FLAGS.has(name) ? ` ("${before ?? ''}" and "${value ?? ''}")` : ''
      errors.push(`${name} is given more than once${shown}; the node takes each flag once. Keep one.`)
      continue
    }
    seen.set(name, value)
    if (kind === 'switch') switches[name as RpcSwitchFlag] = true
    else values[name as RpcValueFlag] = value as string
  }
  return { values, switches, passthrough, errors }
}

function flagExample(name: RpcNodeFlag): string {
  switch (name) {
    case '--http.api':
    case '--ws.api':
      return `for example ${name} eth,net,web3,rpc,tn`
    case '--http.addr':
    case '--ws.addr':
      return `for example ${name} 127.0.0.1`
    case '--http.port':
      return 'for example --http.port 8545'
    case '--ws.port':
      return 'for example --ws.port 8546'
    case '--ipcpath':
      return 'for example --ipcpath /tmp/tn.ipc'
    case '--rpc.jwtsecret':
      return 'a hex-encoded 32-byte secret or the path of a file holding it'
    case '--http.corsdomain':
    case '--ws.origins':
      return `for example ${name} https://app.example.org`
    default:
      return `for example ${name} 100`
  }
}
