import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { secretFlags } from '../../cli/flags/rpc.js'
import { MissingInputError } from '../../lib/errors.js'

export type RpcJwtResult = {
  /** The HS256 JWT. */
  token: string
  /** Its issued-at claim, seconds since the epoch. */
  iat: number
  /** The header value to send: `Bearer <token>`. */
  authorization: string
}

export default class RpcJwtCommand extends BaseCommand {
  static override summary = 'Print a bearer token for a node started with --rpc.jwtsecret.'
  static override description =
    `The token is an HS256 JWT whose iat claim is now; the node accepts it while its clock is within 60 seconds of iat, so make a fresh one for each use. Only the token is printed (stdout), ready for curl.`
  static override examples = [
    {
      description: 'Call a node that requires JWT:',
      command:
        'curl -s -H "Authorization: Bearer $(<%= config.bin %> <%= command.id %> --secret @/etc/tn/jwt.hex)" -H "Content-Type: application/json" -d \'{"jsonrpc":"2.0","id":1,"method":"rpc_modules","params":[]}\' http://127.0.0.1:8545',
    },
    {
      description: 'Secret from the environment:',
      command: 'TNV_JWT_SECRET=@/etc/tn/jwt.hex <%= config.bin %> <%= command.id %>',
    },
  ]
  static override flags = {
    ...secretFlags,
    iat: Flags.integer({
      summary: "Issued-at time in seconds since the epoch (default: now). For testing a node's 60-second window.",
      min: 0,
    }),
  }

  async run(): Promise<RpcJwtResult> {
    const { flags } = await this.parse(RpcJwtCommand)
    if (!flags.secret)
      throw new MissingInputError('The JWT secret', '--secret @FILE (or set TNV_JWT_SECRET to the hex or @FILE)')
    const { createJwt, readJwtSecret } = await import('../../lib/rpc/jwt.js')
    const secret = await readJwtSecret(flags.secret)
    const iat = flags.iat ?? Math.floor(Date.now() / 1000)
    const token = await createJwt(secret, { iat })
    this.out(token)
    return { token, iat, authorization: `Bearer ${token}` }
  }
}
