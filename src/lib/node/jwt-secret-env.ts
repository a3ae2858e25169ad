/**
 * A JWT secret off the node's command line. The reference node (bin/tnv-node.js) takes it from
 * its own environment, TNV_NODE_JWT_SECRET, so `ps` never shows it; the released node takes it
 * only as a hex `--rpc.jwtsecret` argument (real-network/node.md), where `tnv node start` warns.
 */

export const NODE_JWT_SECRET_ENV = 'TNV_NODE_JWT_SECRET'

const JWT_FLAG = '--rpc.jwtsecret'
const HEX_SECRET = /^(0x)?[0-9a-fA-F]+$/

/**
 * Takes a hex `--rpc.jwtsecret` out of the node's flags: the node gets it in its own
 * environment (TNV_NODE_JWT_SECRET), never on its command line, which every local user can read.
 * @example splitJwtSecret(['--http', '--rpc.jwtsecret', 'ab…']) // { flags: ['--http'], secret: 'ab…' }
 */
export function splitJwtSecret(flags: readonly string[]): { flags: string[]; secret: string | null } {
  const out: string[] = []
  let secret: string | null = null
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] as string
    if (flag === '--') {
      out.push(...flags.slice(i))
      break
    }
    const inline = flag.startsWith(`${JWT_FLAG}=`) ? flag.slice(JWT_FLAG.length + 1) : null
    const value = inline ?? (flag === JWT_FLAG ? flags[i + 1] : undefined)
    if (secret === null && value !== undefined && HEX_SECRET.test(value)) {
      secret = value
      if (inline === null) i++
      continue
    }
    out.push(flag)
  }
  return { flags: out, secret }
}
