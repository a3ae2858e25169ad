import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { ExitCode } from '../../lib/errors.js'
import type { PlanDifference, SelectionEquivalent } from '../../lib/rpc/behaviours.js'
import { NodeFlagsWithoutSeparatorError } from '../../lib/rpc/errors.js'
import { splitNodeArgs, strayFlags } from '../../lib/rpc/node-args.js'
import type { RpcPlan } from '../../lib/rpc/types.js'

const EXAMPLE = 'tnv rpc plan -- --http --http.api eth,net,web3,rpc,tn'

/** `tnv rpc plan --json`: the specification's plan (the top-level fields) plus the released node's and where they differ. */
export type RpcPlanResult = RpcPlan & {
  /** The same flags under the released node's rules (v0.14.0-adiri and main). */
  released: RpcPlan
  /** Where the two releases differ (empty: the flags mean the same on both). */
  differences: PlanDifference[]
  /** For a selection whose meaning differs: lists that mean the same on both releases. */
  equivalents: SelectionEquivalent[]
}

export default class RpcPlanCommand extends BaseCommand {
  static override summary =
    "Show what the node's JSON-RPC would serve with the given node flags, on the released node and in the specification's release."
  static override description =
    `Put the node's own flags after \`--\`. The node operators run today (v0.14.0-adiri and main) follows the specification's "earlier releases" rules: tn is served on every transport even with none or a list without tn, all adds debug and trace, HTTP/WS serve eth, net, web3 (no rpc) by default, IPC serves every reth module, only admin and txpool are warned about, and there is no --workers flag. tnv shows both, side by side where they differ, and for a selection that means different things the list that means the same on both. Also: where each transport listens, rpc_modules, the limits, the errors that make the node refuse to start (including flags the node does not know and --chain values it refuses), the warnings it logs and tnv's advice. Nothing is started or contacted.

Exit code 0 when the node would start (on both releases, or on the one --behaviour names), ${ExitCode.NodeConfig} when it would refuse. With --json: the specification's plan as one object (docs/rpc-plan.md) with the released node's plan under "released" and the differences; a hex --rpc.jwtsecret is shown as "<redacted>".`
  static override examples = [
    { description: 'Default flags (IPC only):', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'HTTP with a list without tn (the released node serves tn anyway; the specification does not):',
      command: '<%= config.bin %> <%= command.id %> -- --http --http.api eth,net,web3',
    },
    {
      description: 'Only the released node:',
      command: '<%= config.bin %> <%= command.id %> --behaviour released -- --http --http.api all',
    },
    {
      description: 'As JSON, two workers (the specification only; the released node has no --workers):',
      command: '<%= config.bin %> <%= command.id %> --json -- --http --ws --workers 2',
    },
  ]
  static override usage = '<%= command.id %> [--json] [--behaviour both|released|spec] [-- <node flags>...]'
  static override strict = false
  static override flags = {
    behaviour: Flags.option({
      options: ['both', 'released', 'spec'] as const,
      default: 'both' as const,
      summary: "Whose rules to show: both (default), the released node's, or the specification's.",
    })(),
  }

  async run(): Promise<RpcPlanResult> {
    const { own, node } = splitNodeArgs(this.argv)
    const stray = strayFlags(own, RpcPlanCommand.flags)
    if (stray.length > 0) throw new NodeFlagsWithoutSeparatorError('rpc plan', stray, EXAMPLE)
    const { argv, flags } = await this.parse(RpcPlanCommand, own)
    if (argv.length > 0) throw new NodeFlagsWithoutSeparatorError('rpc plan', argv.map(String), EXAMPLE)
    const { resolveRpcPlans } = await import('../../lib/rpc/behaviours.js')
    const { formatPlan, formatPlans, redactPlan } = await import('../../lib/rpc/format-plan.js')
    const plans = resolveRpcPlans(node ?? [], { checkCommandLine: true })
    const released = redactPlan(plans.released)
    const spec = redactPlan(plans.spec)
    const shown = flags.behaviour
    if (shown === 'both') this.out(formatPlans({ ...plans, released, spec }))
    else {
      this.out(formatPlan(shown === 'released' ? released : spec))
      if (plans.differences.length > 0)
        this.out(
          `\n${BEHAVIOUR_OTHER[shown]} reads these flags differently (${plans.differences.map((d) => d.topic).join(', ')}): \`tnv rpc plan -- …\` without --behaviour shows both.`,
        )
    }
    const ok = shown === 'both' ? released.ok && spec.ok : (shown === 'released' ? released : spec).ok
    if (!ok) process.exitCode = ExitCode.NodeConfig
    return { ...spec, released, differences: plans.differences, equivalents: plans.equivalents }
  }
}

const BEHAVIOUR_OTHER = {
  released: "The specification's release",
  spec: 'The released node (v0.14.0-adiri and main)',
} as const
