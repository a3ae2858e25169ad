/**
 * The node driver's gate: resolve the node flags with the project's one RPC resolver and refuse
 * what the node would refuse. For the real node binary that is the released node's command
 * line and namespace rules (real-network/node.md §4); for tnv's reference node the
 * specification's, plus its devnet flags. Either way tnv refuses `all` as a namespace selection
 * (its meaning differs between the releases and an explicit list means the same on both), and
 * reports the other flags whose meaning differs between the releases.
 */
import { UsageError } from '../errors.js'
import { resolveRpcPlans } from '../rpc/behaviours.js'
import { resolveRpcPlan } from '../rpc/resolve.js'
import type { RpcPlan } from '../rpc/types.js'
import { NodeWouldRefuseError } from './errors.js'

/** The spec's plan of node flags, refusing what the node would refuse (the wizard's gate). */
export function checkedNodePlan(nodeFlags: string[]): RpcPlan {
  const plan = resolveRpcPlan(nodeFlags)
  if (!plan.ok) throw new NodeWouldRefuseError(plan.errors)
  return plan
}

/** Which node runs the flags: the real binary (the released node) or tnv's reference node. */
export type NodeBinaryKind = 'released' | 'reference'

export type CheckNodeStartReturnType = {
  /** The plan under the rules of the node that will run (its endpoints are what tnv dials). */
  plan: RpcPlan
  /** Things to tell the operator before starting (flags whose meaning differs between releases). */
  warnings: string[]
}

/**
 * @param nodeFlags the node's flags as the operator gave them (without the JWT tnv adds)
 * @throws UsageError for `--rpc.jwtsecret` typed on tnv's command line and for `all`;
 *   NodeWouldRefuseError for anything the node would refuse
 */
export function checkNodeStart(nodeFlags: string[], kind: NodeBinaryKind): CheckNodeStartReturnType {
  if (nodeFlags.some((f) => f === '--rpc.jwtsecret' || f.startsWith('--rpc.jwtsecret=')))
    throw new UsageError(
      "The JWT secret is not taken as a node flag on tnv's command line: it would land in your shell history (and in tnv's own process list).",
      {
        fix: 'Keep the hex secret in a file and pass --jwt-secret-file <file> (or set TNV_JWT_SECRET to the hex or to @<file>); tnv hands it to the node as --rpc.jwtsecret <hex>, the only form the node takes. Make one with `openssl rand -hex 32 > jwt.hex`.',
      },
    )
  const plans = resolveRpcPlans(nodeFlags, { checkCommandLine: kind === 'released' ? true : 'reference' })
  const plan = kind === 'released' ? plans.released : plans.spec
  if (!plan.ok) throw new NodeWouldRefuseError(plan.errors)
  for (const flag of ['--http.api', '--ws.api'] as const) {
    const value = flagValue(nodeFlags, flag)
    if (value === undefined || value.split(',')[0]?.trim().toLowerCase() !== 'all') continue
    const eq = plans.equivalents.find((e) => e.flag === flag)
    throw new UsageError(
      `${flag} ${value}: "all" means different things on the two node releases (the released node: eth, net, web3, debug, trace, rpc and tn; the specification's release: eth, net, web3, rpc, tn), so tnv does not pass it to the node.`,
      {
        fix: `Name the namespaces: ${flag} ${eq?.releasedMeaning ?? 'eth,net,web3,rpc,tn,debug,trace'} (what "all" serves on the released node) or ${flag} ${eq?.specMeaning ?? 'eth,net,web3,rpc,tn'} (what it serves in the specification); each list means the same on both releases. See \`tnv rpc plan -- <flags>\`.`,
      },
    )
  }
  const warnings: string[] = [...plan.warnings, ...plan.advice]
  const other = kind === 'released' ? plans.spec : plans.released
  if (!other.ok)
    warnings.push(
      `${kind === 'released' ? "The specification's release" : 'The released node (v0.14.0-adiri and main)'} would refuse these flags: ${other.errors.join(' ')}`,
    )
  for (const e of plans.equivalents)
    warnings.push(
      `${e.flag} (or its absence) means different things on the two node releases; to mean the same on both write ${e.flag} ${e.releasedMeaning}${e.specMeaning && e.specMeaning !== e.releasedMeaning ? ` (the released node's meaning) or ${e.flag} ${e.specMeaning} (the specification's)` : ''}. \`tnv rpc plan -- <flags>\` shows both.`,
    )
  return { plan, warnings }
}

function flagValue(flags: readonly string[], name: string): string | undefined {
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i] as string
    if (f === name) return flags[i + 1]
    if (f.startsWith(`${name}=`)) return f.slice(name.length + 1)
  }
  return undefined
}
