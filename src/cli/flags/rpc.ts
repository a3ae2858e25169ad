/**
 * Flag groups of the rpc commands, defined once and spread into each command. Light: only
 * @oclif/core. A JWT secret is taken on the command line only as @FILE; its hex comes through
 * TNV_JWT_SECRET (src/cli/secret-argv.ts refuses a hex value in the arguments).
 */
import { Flags } from '@oclif/core'

const jwtSecretOption = (summary: string) =>
  Flags.string({
    summary,
    description:
      '@FILE: a file holding the 32-byte secret as 64 hex digits (0x optional), as the node reads --rpc.jwtsecret. TNV_JWT_SECRET may hold the hex itself or @FILE. A hex value on the command line is refused (exit 2): every local user could read it.',
    helpValue: '@FILE',
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
