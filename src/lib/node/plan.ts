/** The node driver's gate: resolve the node flags with the project's one RPC resolver and refuse what the node would refuse. */
import { resolveRpcPlan } from '../rpc/resolve.js'
import type { RpcPlan } from '../rpc/types.js'
import { NodeWouldRefuseError } from './errors.js'

export function checkedNodePlan(nodeFlags: string[]): RpcPlan {
  const plan = resolveRpcPlan(nodeFlags)
  if (!plan.ok) throw new NodeWouldRefuseError(plan.errors)
  return plan
}
