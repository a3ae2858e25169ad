import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { jwtSecretFlags, timeoutFlags } from '../../cli/flags/rpc.js'
import { ExitCode } from '../../lib/errors.js'
import type { RpcPlans } from '../../lib/rpc/behaviours.js'
import {
  ExpectFlagsError,
  InvalidRpcUrlError,
  NodeFlagsWithoutSeparatorError,
  NoRpcEndpointError,
} from '../../lib/rpc/errors.js'
import { splitNodeArgs, strayFlags } from '../../lib/rpc/node-args.js'
import type { RpcCheckReport } from '../../lib/rpc/types.js'

const EXAMPLE = 'tnv rpc check --http http://127.0.0.1:8545 --expect -- --http --http.api eth,net,web3,rpc,tn'

export default class RpcCheckCommand extends BaseCommand {
  static override summary = 'Check what a running node serves over HTTP, WebSocket and IPC.'
  static override description =
    `On each endpoint given: calls rpc_modules, probes one harmless method per namespace (any answer but -32601 means served; admin and txpool included), checks that eth_subscribe works on WS and IPC and not on HTTP, and, with a JWT secret, that requests without a token or with a token signed by another secret are refused.

It tells which namespace behaviour the node shows: the released node's (v0.14.0-adiri and main: tn_* answering where the flags select no tn, rpc_modules never listing tn and missing on default HTTP, IPC serving admin, txpool, debug and trace) or the specification's (rpc_modules listing tn), and judges everything under that behaviour. When the answers fit both, --behaviour decides (default: the released node's).

With --expect, compares everything with the plan of the node flags given after \`--\` under that behaviour (as \`tnv rpc plan\` shows it); without endpoint flags it then checks worker 0's endpoints of that plan.

Reports exposure when debug or trace answers without authentication on a non-loopback address, and notes an IPC socket that serves admin and txpool.

Exit codes: 0 all good; ${ExitCode.NodeConfig} a mismatch or an exposure; ${ExitCode.RpcUnreachable} an endpoint could not be checked (unreachable, token needed or refused).`
  static override examples = [
    {
      description: 'All three transports of a local node:',
      command:
        '<%= config.bin %> <%= command.id %> --http http://127.0.0.1:8545 --ws ws://127.0.0.1:8546 --ipc /tmp/tn.ipc',
    },
    {
      description: 'Against the flags the node was started with (JWT secret from a file):',
      command:
        '<%= config.bin %> <%= command.id %> --http http://10.0.0.5:8545 --jwt-secret @/etc/tn/jwt.hex --expect -- --http --http.addr 0.0.0.0 --http.api eth,net,web3,rpc,tn',
    },
    {
      description: 'Check the endpoints of a plan:',
      command: '<%= config.bin %> <%= command.id %> --expect -- --http --ws',
    },
  ]
  static override usage =
    '<%= command.id %> [--json] [--http URL] [--ws URL] [--ipc PATH] [--jwt-secret @FILE] [--behaviour released|spec] [--timeout <ms>] [--expect -- <node flags>...]'
  static override strict = false
  static override flags = {
    http: Flags.string({ summary: 'HTTP endpoint to check.', helpValue: 'URL' }),
    ws: Flags.string({ summary: 'WebSocket endpoint to check.', helpValue: 'URL' }),
    ipc: Flags.string({ summary: 'IPC socket path to check.', helpValue: 'PATH' }),
    ...jwtSecretFlags,
    expect: Flags.boolean({
      summary: 'Compare with the plan of the node flags given after `--`.',
      description:
        'Write `--expect --` for a node started without RPC flags. A --rpc.jwtsecret among them is used as the JWT secret when --jwt-secret is not given.',
    }),
    behaviour: Flags.option({
      options: ['released', 'spec'] as const,
      summary: "Rules to judge by when the answers fit both releases (default: the released node's).",
    })(),
    ...timeoutFlags,
  }

  async run(): Promise<RpcCheckReport> {
    const { own, node } = splitNodeArgs(this.argv)
    const stray = strayFlags(own, RpcCheckCommand.flags)
    if (stray.length > 0) throw new NodeFlagsWithoutSeparatorError('rpc check', stray, EXAMPLE)
    const { flags, argv } = await this.parse(RpcCheckCommand, own)
    if (argv.length > 0) throw new NodeFlagsWithoutSeparatorError('rpc check', argv.map(String), EXAMPLE)
    if (node !== null && !flags.expect) {
      throw new ExpectFlagsError('Node flags after `--` are only read with --expect.', {
        fix: 'Add --expect to compare the node with them: tnv rpc check --http URL --expect -- <node flags>',
      })
    }
    if (flags.expect && node === null) {
      throw new ExpectFlagsError('--expect needs the node flags after `--`.', {
        fix: 'Write them after `--`, for example: tnv rpc check --http URL --expect -- --http --http.api eth,net,web3,rpc,tn (for a node started without RPC flags: --expect --).',
      })
    }
    for (const [flag, value, schemes] of [
      ['--http', flags.http, ['http:', 'https:']],
      ['--ws', flags.ws, ['ws:', 'wss:']],
    ] as const) {
      if (value !== undefined && !URL.canParse(value))
        throw new InvalidRpcUrlError(flag, value, schemes.map((s) => `${s}//`).join(' or '))
      if (value !== undefined && !(schemes as readonly string[]).includes(new URL(value).protocol)) {
        throw new InvalidRpcUrlError(flag, value, schemes.map((s) => `${s}//`).join(' or '))
      }
    }

    const { resolveRpcPlans } = await import('../../lib/rpc/behaviours.js')
    const { readJwtSecret } = await import('../../lib/rpc/jwt.js')
    const { checkRpcEndpoints, planTargets } = await import('../../lib/rpc/check.js')
    const { formatCheck } = await import('../../lib/rpc/format-check.js')

    const plans: RpcPlans | null = node === null ? null : resolveRpcPlans(node, { checkCommandLine: true })
    // endpoints and the JWT secret are the same under both behaviours (only namespaces differ)
    const plan = plans?.spec ?? null
    const given = flags.http !== undefined || flags.ws !== undefined || flags.ipc !== undefined
    const targets = given ? { http: flags.http, ws: flags.ws, ipc: flags.ipc } : plan ? planTargets(plan) : null
    if (!targets || (targets.http === undefined && targets.ws === undefined && targets.ipc === undefined))
      throw new NoRpcEndpointError()

    let jwtSecretHex: string | null = null
    let secretFromPlan = false
    if (flags['jwt-secret']) jwtSecretHex = await readJwtSecret(flags['jwt-secret'])
    else if (plan?.jwtSecret && plan.jwt.source === 'hex') {
      jwtSecretHex = await readJwtSecret(plan.jwtSecret)
      secretFromPlan = true
    }

    this.note(`Checking ${[targets.http, targets.ws, targets.ipc].filter(Boolean).join(', ')} ...`)
    const report = await checkRpcEndpoints({
      ...targets,
      jwtSecretHex,
      expect: plans,
      timeoutMs: flags.timeout,
      ...(flags.behaviour ? { behaviour: flags.behaviour } : {}),
    })
    if (secretFromPlan) report.notes.push('The JWT secret was taken from --rpc.jwtsecret of the expected flags.')
    if (!given)
      report.notes.push(
        "The endpoints checked are worker 0's of the expected flags (wildcard addresses dialled on loopback).",
      )
    this.out(formatCheck(report))
    if (report.mismatches.length || report.exposures.length) process.exitCode = ExitCode.NodeConfig
    else if (report.failures.length) process.exitCode = ExitCode.RpcUnreachable
    return report
  }
}
