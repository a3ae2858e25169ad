/**
 * Warnings about where a JWT secret can be read by others. The released node takes the secret
 * only as hex on its command line (`--rpc.jwtsecret <HEX>`, real-network/node.md §1), so for as
 * long as it runs any local user can read it from the process list; tnv says so and what limits
 * it. A secret typed as `tnv rpc jwt --secret HEX` lands in the shell history, as
 * `--private-key` does.
 */

/** `tnv node start` with a real node binary and a JWT secret. */
export const JWT_ON_NODE_ARGV_WARNING =
  'the released node takes its JWT secret only as hex on its command line (--rpc.jwtsecret), so any local user can read it from the process list (ps, /proc/<pid>/cmdline) while the node runs. What limits it: run the node on a host or in a container with no other users, mount /proc with hidepid=2 (users then see only their own processes), keep the authenticated port on 127.0.0.1 or behind a firewall, and make a new secret if another user could have read it. tnv itself never prints or stores it.'

/** `tnv rpc jwt --secret HEX` (a literal secret on tnv's own command line). */
export const JWT_SECRET_FLAG_WARNING =
  'Warning: a JWT secret given as --secret HEX is kept in your shell history and visible in the process list while tnv runs; prefer --secret @FILE or TNV_JWT_SECRET=@FILE.'

/**
 * Whether the command line gives the secret literally (`--secret HEX`, `--secret=HEX`), not as @FILE.
 * @example literalSecretOnArgv(['--secret', 'ab…'], '--secret') // true
 */
export function literalSecretOnArgv(argv: readonly string[], flag: string): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    if (a === '--') return false
    const value = a === flag ? argv[i + 1] : a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : undefined
    if (value !== undefined && !value.startsWith('@')) return true
  }
  return false
}
