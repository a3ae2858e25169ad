/**
 * Warnings about where a JWT secret can be read by others. The released node takes the secret
 * only as hex on its command line (`--rpc.jwtsecret <HEX>`, real-network/node.md §1), so for as
 * long as it runs any local user can read it from the process list; tnv says so and what limits
 * it.
 */

/** `tnv node start` with a real node binary and a JWT secret. */
export const JWT_ON_NODE_ARGV_WARNING =
  'the released node takes its JWT secret only as hex on its command line (--rpc.jwtsecret), so any local user can read it from the process list (ps, /proc/<pid>/cmdline) while the node runs. What limits it: run the node on a host or in a container with no other users, mount /proc with hidepid=2 (users then see only their own processes), keep the authenticated port on 127.0.0.1 or behind a firewall, and make a new secret if another user could have read it. tnv itself never prints or stores it.'
