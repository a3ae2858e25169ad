/**
 * The node check before `activate` (issue 16): the validator's node must be running and synced
 * before it joins committees, as the stake wizard checks it. The node is --node-rpc-url, else
 * the node `tnv node start` runs for the data directory. Skipped only when the operator says so
 * (--skip-node-check), e.g. when the node runs on another host and tnv cannot reach its RPC.
 */
import type { ChainTarget } from '../chain/resolve-target.js'
import { ExitCode, TnvError } from '../errors.js'

export type AssertNodeSyncedParameters = {
  datadir: string
  target: ChainTarget
  nodeRpcUrl?: string | undefined
  timeoutMs: number
  /** Progress lines for people (stderr). */
  note?: (line: string) => void
}

export type AssertNodeSyncedReturnType = { rpcUrl: string; local: string; network: string }

/** No node to check: neither --node-rpc-url nor a node tnv started for the data directory. */
export class NoNodeToCheckError extends TnvError {
  override readonly code: string = 'NoNodeToCheck'
  constructor(datadir: string) {
    super(
      `tnv checks that your node is running and synced before it activates the validator, and no node runs for ${datadir}. An active validator whose node is down misses its committee duties.`,
      {
        fix: `Start it (\`tnv node start --detach --datadir ${datadir} -- <node flags>\`) and wait for \`tnv node sync\`, or name a node you run elsewhere with --node-rpc-url <url>; --skip-node-check sends without checking.`,
        exitCode: ExitCode.NodeNotSynced,
      },
    )
  }
}

export async function assertNodeSynced({
  datadir,
  target,
  nodeRpcUrl,
  timeoutMs,
  note = () => {},
}: AssertNodeSyncedParameters): Promise<AssertNodeSyncedReturnType> {
  let rpcUrl = nodeRpcUrl
  if (rpcUrl === undefined) {
    const { nodeStatus } = await import('../node/status.js')
    const status = await nodeStatus(datadir)
    rpcUrl = status.running ? (status.rpc?.http ?? status.rpc?.ipc ?? undefined) : undefined
    if (rpcUrl === undefined) throw new NoNodeToCheckError(datadir)
  }
  const { waitForSync } = await import('../node/sync.js')
  note(
    `Checking that the node at ${rpcUrl} is synced with ${target.rpcUrl} (at most ${Math.round(timeoutMs / 1000)} s)`,
  )
  const r = await waitForSync({
    localUrl: rpcUrl,
    networkUrl: target.rpcUrl,
    // the devnet mines on demand when idle; its blocks need not advance between polls
    allowIdleChain: target.name === 'devnet',
    timeoutMs,
  })
  note(`Node synced: local ${r.local}, network ${r.network} (${r.method})`)
  return { rpcUrl, local: r.local, network: r.network }
}
