/**
 * Flag groups of the rpc commands, defined once and spread into each command. Light: only
 * @oclif/core. Secrets: a JWT secret is best given as @FILE or through TNV_JWT_SECRET; a hex
 * value on the command line ends up in shell history.
 */
import { Flags } from '@oclif/core'

const jwtSecretOption = (summary: string) =>
  Flags.string({
    summary,
    description:
      'HEX: the 32-byte secret as 64 hex digits (0x optional). @FILE: a file holding it (as the node reads --rpc.jwtsecret). Prefer @FILE or the TNV_JWT_SECRET variable: a value on the command line stays in shell history.',
    helpValue: 'HEX|@FILE',
    env: 'TNV_JWT_SECRET',
  })

/** `--jwt-secret` for commands that talk to a node started with --rpc.jwtsecret. */
export const jwtSecretFlags = {
  'jwt-secret': jwtSecretOption("The node's JWT secret (--rpc.jwtsecret): requests carry a fresh HS256 bearer token."),
}

/** `--secret` for `tnv rpc jwt`. */
export const secretFlags = {
  secret: jwtSecretOption("The node's JWT secret (--rpc.jwtsecret) to sign the token with."),
}

export const timeoutFlags = {
  timeout: Flags.integer({ summary: 'Per-call timeout in milliseconds.', default: 5000, min: 100, helpValue: '<ms>' }),
}
