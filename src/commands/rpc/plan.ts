import { BaseCommand } from '../../lib/base-command.js'
import { ExitCode } from '../../lib/errors.js'
import { NodeFlagsWithoutSeparatorError } from '../../lib/rpc/errors.js'
import { splitNodeArgs, strayFlags } from '../../lib/rpc/node-args.js'
import type { RpcPlan } from '../../lib/rpc/types.js'

const EXAMPLE = 'tnv rpc plan -- --http --http.api eth,net,web3,rpc,tn'

export default class RpcPlanCommand extends BaseCommand {
  static override summary =
    "Show what the node's JSON-RPC would serve with the given node flags, per transport and worker."
  static override description =
    `Put the node's own flags after \`--\`. Prints, for HTTP, WebSocket and IPC of every worker: on or off, where it listens, the namespaces served and what rpc_modules returns; then the limits, the errors that make the node refuse to start, the warnings the node logs at startup, and tnv's safety advice. Nothing is started or contacted.

Exit code 0 when the node would start, ${ExitCode.NodeConfig} when it would refuse. With --json the plan is printed as one object (docs/rpc-plan.md); a hex --rpc.jwtsecret is shown as "<redacted>".`
  static override examples = [
    { description: 'Default flags (IPC only):', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'HTTP with a list (no tn: tn_* answer -32601):',
      command: '<%= config.bin %> <%= command.id %> -- --http --http.api eth,net,web3',
    },
    {
      description: 'HTTP and WS sharing a port:',
      command: '<%= config.bin %> <%= command.id %> -- --http --ws --ws.port 8545 --http.api eth,tn --ws.api eth,tn',
    },
    {
      description: 'As JSON, two workers:',
      command: '<%= config.bin %> <%= command.id %> --json -- --http --ws --workers 2',
    },
  ]
  static override usage = '<%= command.id %> [--json] [-- <node flags>...]'
  static override strict = false
  static override flags = {}

  async run(): Promise<RpcPlan> {
    const { own, node } = splitNodeArgs(this.argv)
    const stray = strayFlags(own, RpcPlanCommand.flags)
    if (stray.length > 0) throw new NodeFlagsWithoutSeparatorError('rpc plan', stray, EXAMPLE)
    const { argv } = await this.parse(RpcPlanCommand, own)
    if (argv.length > 0) throw new NodeFlagsWithoutSeparatorError('rpc plan', argv.map(String), EXAMPLE)
    const { resolveRpcPlan } = await import('../../lib/rpc/resolve.js')
    const { formatPlan, redactPlan } = await import('../../lib/rpc/format-plan.js')
    const plan = redactPlan(resolveRpcPlan(node ?? []))
    this.out(formatPlan(plan))
    if (!plan.ok) process.exitCode = ExitCode.NodeConfig
    return plan
  }
}
