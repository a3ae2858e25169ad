/**
 * `tnv node start`'s gate before anything runs: the node's flags checked the way the node that
 * will run them reads them (./plan.ts), tnv's reference node kept to the devnet, the restart
 * policy checked against how tnv runs, and the JWT secret added as the node takes it
 * (`--rpc.jwtsecret <hex>`, real-network/node.md §1). Starts nothing and writes nothing.
 */
import { UsageError } from '../errors.js'
import { readJwtSecret } from '../rpc/jwt.js'
import { resolveRpcPlan } from '../rpc/resolve.js'
import type { RpcPlan } from '../rpc/types.js'
import { checkNodeStart, type NodeBinaryKind } from './plan.js'

export type PlanNodeStartParameters = {
  /** The node's flags as the operator gave them (after `--`). */
  nodeFlags: string[]
  kind: NodeBinaryKind
  /** Where the JWT secret comes from: a file (--jwt-secret-file), a value as TNV_JWT_SECRET holds it (hex or @file), or none. */
  jwtSecret: { file: string } | { value: string } | null
  detach: boolean
  restart: 'on-failure' | 'never'
  /** The service manager tnv runs under, as the session finds it. */
  serviceManager: 'systemd' | null
}

export type PlanNodeStartReturnType = {
  /** The flags the node is started with: the operator's, then `--rpc.jwtsecret <hex>` when a secret was given. */
  nodeFlags: string[]
  plan: RpcPlan
  /** Flags whose meaning differs between the releases (./plan.ts), to tell the operator. */
  warnings: string[]
  /** A JWT secret is on the released node's command line (jwt-warnings.ts says what that means). */
  jwtOnNodeArgv: boolean
}

/**
 * @example const { nodeFlags, plan } = await planNodeStart({ nodeFlags: ['--chain', 'devnet'], kind: 'reference', jwtSecret: null, detach: true, restart: 'never', serviceManager: null })
 * @throws UsageError (or NodeWouldRefuseError) for what the node would refuse or a policy that cannot hold
 */
export async function planNodeStart({
  nodeFlags,
  kind,
  jwtSecret,
  detach,
  restart,
  serviceManager,
}: PlanNodeStartParameters): Promise<PlanNodeStartReturnType> {
  const { warnings } = checkNodeStart(nodeFlags, kind)
  if (kind === 'reference') assertReferenceChain(nodeFlags)
  if (detach && restart === 'on-failure')
    throw new UsageError(
      '--restart on-failure needs tnv in the foreground to watch the node, and --detach leaves it.',
      {
        fix: 'Drop --detach (run tnv node start --restart on-failure under your service manager or in tmux), or keep --detach and let the service manager restart the node (systemd: Restart=on-failure).',
      },
    )
  if (restart === 'on-failure' && serviceManager === 'systemd')
    throw new UsageError('--restart on-failure would make two supervisors: this tnv already runs under systemd.', {
      fix: "Use --restart never and the unit's Restart=on-failure (the units of `tnv node unit` do), or run tnv outside systemd.",
    })
  const secret =
    jwtSecret === null ? null : await readJwtSecret('file' in jwtSecret ? `@${jwtSecret.file}` : jwtSecret.value)
  const finalFlags = secret ? [...nodeFlags, '--rpc.jwtsecret', secret] : nodeFlags
  const plan = resolveRpcPlan(finalFlags, { behaviour: kind === 'released' ? 'released' : 'spec' })
  return { nodeFlags: finalFlags, plan, warnings, jwtOnNodeArgv: secret !== null && kind === 'released' }
}

/**
 * tnv's reference node joins the local devnet (--chain devnet). Its `--chain dev` (also what it
 * runs without --chain) is the private chain `tnv devnet start` runs inside its own directory: in a
 * validator's data directory it would start another chain under the devnet's chain id and write
 * devnet files next to the keys, so `tnv node start` refuses it.
 */
function assertReferenceChain(nodeFlags: readonly string[]): void {
  let chain: string | undefined
  for (let i = 0; i < nodeFlags.length; i++) {
    const f = nodeFlags[i] as string
    if (f === '--chain') chain = nodeFlags[i + 1]
    else if (f.startsWith('--chain=')) chain = f.slice('--chain='.length)
  }
  // other values are judged by the node's own rules (checkNodeStart), which name the one to write
  if (chain !== undefined && chain !== 'dev') return
  throw new UsageError(
    chain === undefined
      ? "No --chain was given to the node: tnv's reference node would run a private chain of its own in the data directory, not a network."
      : `--chain ${chain} is not a network: for tnv's reference node it is the private chain \`tnv devnet start\` runs in its own directory, which would write devnet files into this data directory under the devnet's chain id.`,
    {
      fix: 'Join the running devnet with `-- --chain devnet …` (start it first with `tnv devnet start --detach`), or run the real node binary (--node-binary or TN_NODE_BINARY) with --chain adiri, test-net or main-net.',
    },
  )
}
