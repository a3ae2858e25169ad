/**
 * `tnv node start --check`: every refusal of the start has already run (./start-plan.ts); this says
 * whether the node runs for the data directory and, when it does not, that its ports are free and
 * what would start (the JWT secret redacted). Starts nothing and writes nothing.
 */
import { redactNodeFlags } from '../rpc/format-plan.js'
import type { RpcPlan } from '../rpc/types.js'
import { checkNodeRun, type NodeRunCheckReturnType } from './run-check.js'
import { assertPortsFree } from './start.js'

export type CheckNodeStartRunParameters = {
  datadir: string
  /** The node binary's path, as reported. */
  binary: string
  /** The flags the node would be started with (./start-plan.ts). */
  nodeFlags: string[]
  plan: RpcPlan
}

/** The outcome, and what would run (the JWT secret redacted). */
export type CheckNodeStartRunReturnType = NodeRunCheckReturnType & { binary: string; args: string[] }

/**
 * @example const r = await checkNodeStartRun({ datadir, binary: '/usr/local/bin/telcoin-network', nodeFlags, plan })
 * @throws PortInUseError when the node does not run and another process holds one of its ports
 */
export async function checkNodeStartRun({
  datadir,
  binary,
  nodeFlags,
  plan,
}: CheckNodeStartRunParameters): Promise<CheckNodeStartRunReturnType> {
  const run = await checkNodeRun({ datadir, want: 'running' })
  if (!run.running) await assertPortsFree(plan)
  const args = ['node', '--datadir', datadir, ...redactNodeFlags(nodeFlags, plan)]
  return { ...run, binary, args }
}
