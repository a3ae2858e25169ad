/**
 * The node step of the stake wizard: the node to wait for is --node-rpc-url, else the node
 * tnv started for the data directory (`tnv node start`), else, when allowed (asked on a
 * terminal; --start-node without one), a node started now with the node driver, detached so
 * it outlives tnv. Then the sync wait: the node's eth_blockNumber against the network's.
 */
import { resolve } from 'node:path'
import type { ChainTarget } from '../chain/resolve-target.js'
import { MissingInputError } from '../errors.js'
import type { WaitForSyncReturnType } from '../node/sync.js'
import type { WizardIo } from '../wizard/io.js'
import { NodeForCustomNetworkError } from './errors.js'

export type EnsureNodeParameters = {
  datadir: string
  target: ChainTarget
  nodeRpcUrl?: string | undefined
  /** --start-node: allowed to start one without a terminal. */
  start: boolean
  nodeBinary?: string | undefined
  /** Passphrase of keys created in this run, given to the node as TN_BLS_PASSPHRASE. */
  passphrase?: string | null | undefined
  /** tnv's environment as the session hands it (TN_NODE_BINARY; the node's environment is built from it). */
  env: NodeJS.ProcessEnv
}

export type EnsureNodeReturnType = {
  rpcUrl: string
  how: 'flag' | 'running' | 'started'
  pid: number | null
  logFile: string | null
}

/** The node's flags tnv uses when it starts the node for a network. */
export async function nodeFlagsFor(target: ChainTarget): Promise<string[]> {
  if (target.name === 'custom') throw new NodeForCustomNetworkError(target.rpcUrl)
  const { freeLoopbackPort } = await import('../net/free-port.js')
  const port = String(await freeLoopbackPort())
  // flags both node releases read the same way (the node's --chain value, a list naming tn);
  // --chain devnet: the reference node joins the running local devnet
  const { nodeStartFlags } = await import('../node/networks.js')
  return nodeStartFlags(target.name, Number(port))
}

export async function ensureNode(
  io: WizardIo,
  { datadir, target, nodeRpcUrl, start, nodeBinary, passphrase, env }: EnsureNodeParameters,
): Promise<EnsureNodeReturnType> {
  if (nodeRpcUrl !== undefined) return { rpcUrl: nodeRpcUrl, how: 'flag', pid: null, logFile: null }
  const { nodeStatus, assertNotRunning } = await import('../node/status.js')
  const status = await nodeStatus(datadir)
  const running = status.rpc?.http ?? status.rpc?.ipc
  if (status.running && running) return { rpcUrl: running, how: 'running', pid: status.pid, logFile: status.logFile }

  if (io.interactive) {
    if (
      !(await io.confirm(
        `No node runs for ${datadir}. Start one now (in the background, logs in ${datadir}/logs/node.log)?`,
        true,
      ))
    )
      throw new MissingInputError(
        'A running node',
        `--node-rpc-url <url> (or start it with \`tnv node start --detach --datadir ${datadir} -- <node flags>\`)`,
      )
  } else if (!start)
    throw new MissingInputError(
      `A synced node for ${datadir} (none runs)`,
      '--node-rpc-url <url> for a node you run, or --start-node to let tnv start one',
    )

  const [{ checkedNodePlan }, { resolveNodeBinary }, { startNode }] = await Promise.all([
    import('../node/plan.js'),
    import('../node/binary.js'),
    import('../node/start.js'),
  ])
  const nodeFlags = await nodeFlagsFor(target)
  const plan = checkedNodePlan(nodeFlags)
  await assertNotRunning(datadir)
  const binary = resolveNodeBinary({ flag: nodeBinary, env })
  const guard = await guardNodeKey(io, { datadir, nodeFlags, networkUrl: target.rpcUrl, env })
  const started = await io
    .wait(
      `Starting ${binary.path} node --datadir ${datadir} ${nodeFlags.join(' ')}`,
      () => startNode({ binary, datadir, nodeFlags, plan, detach: true, env, ...(passphrase ? { passphrase } : {}) }),
      (s) => `Node running (pid ${s.state.pid}), RPC ${s.state.rpc.http ?? s.state.rpc.ipc}; log ${s.state.logFile}`,
    )
    .catch(async (err) => {
      await guard.fence?.release().catch(() => {})
      throw err
    })
  const rpcUrl = started.state.rpc.http ?? started.state.rpc.ipc
  if (!rpcUrl) throw new MissingInputError('The node RPC URL', '--node-rpc-url <url>')
  io.emit({
    event: 'node-started',
    pid: started.state.pid,
    rpcUrl,
    logFile: started.state.logFile,
    args: started.state.args,
  })
  return { rpcUrl, how: 'started', pid: started.state.pid, logFile: started.state.logFile }
}

/** One live copy of the key (docs/node.md, "One key, one node"): the local fence, then the network's headers. */
async function guardNodeKey(
  io: WizardIo,
  p: { datadir: string; nodeFlags: string[]; networkUrl: string; env: NodeJS.ProcessEnv },
) {
  const [{ guardValidatorStart, describeDoppelganger }, { tnvStateDir }, { defaultDevnetDir }] = await Promise.all([
    import('../node/start-guard.js'),
    import('../tx/journal.js'),
    import('../chain/devnet-runtime-file.js'),
  ])
  return io.wait(
    `Checking that the key in ${p.datadir} runs nowhere else (this host, then the network's consensus headers)`,
    () =>
      guardValidatorStart({
        stateDir: tnvStateDir(p.env),
        datadir: p.datadir,
        devnetDir: resolve(defaultDevnetDir(p.env)),
        nodeFlags: p.nodeFlags,
        networkUrl: p.networkUrl,
        skipDoppelganger: false,
        command: 'tnv stake (node step)',
      }),
    (g) => describeDoppelganger(g.doppelganger),
  )
}

export async function waitForNodeSync(
  io: WizardIo,
  { localUrl, target, timeoutMs }: { localUrl: string; target: ChainTarget; timeoutMs: number },
): Promise<WaitForSyncReturnType> {
  const { waitForSync } = await import('../node/sync.js')
  return io.wait(
    `Waiting until the node at ${localUrl} is synced with ${target.rpcUrl}`,
    (spinner) =>
      waitForSync({
        localUrl,
        networkUrl: target.rpcUrl,
        // the devnet mines on demand when idle; its blocks need not advance between polls
        allowIdleChain: target.name === 'devnet',
        timeoutMs,
        onProgress: (p) => {
          spinner.update(
            `Syncing: local block ${p.local}, network block ${p.network}${p.behind > 0n ? ` (${p.behind} behind)` : ''}; matching ${p.matching}/${p.needed}`,
          )
          if (io.json)
            io.emit({
              event: 'sync-progress',
              local: p.local.toString(),
              network: p.network.toString(),
              matching: p.matching,
              needed: p.needed,
            })
        },
      }),
    (r) => `Node synced: local block ${r.local}, network block ${r.network}`,
  )
}
