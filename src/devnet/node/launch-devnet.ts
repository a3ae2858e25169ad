/**
 * `tnv devnet start` as one operation: everything that can be checked is checked before anything
 * runs or is written (no devnet already in the directory, the genesis file, the directory's own
 * record, the chain to fork, the node flags the RPC resolver would refuse), then the node is
 * started (./start-devnet.ts). Ports tnv chose (no node flags given) were free when looked at, but
 * another process (a second devnet starting at the same moment) can take one before the node binds
 * it: they are chosen again, twice at most. Ports the operator gave are never changed.
 */
import { resolve } from 'node:path'
import { DEVNET_CHAIN_ID } from '../../lib/chain/addresses.js'
import { resolveRpcPlan } from '../../lib/rpc/resolve.js'
import { REAL_NETWORK_CHAIN_IDS } from '../chain/defaults.js'
import { checkForkUrl, probeForkSource, redactUrl } from '../chain/fork.js'
import { loadGenesis } from '../chain/genesis.js'
import { checkDevnetDirectory } from '../chain/start.js'
import { defaultDevnetNodeFlags, withDevnetIpcPath } from './default-node-flags.js'
import { DevnetAlreadyRunningError, DevnetStartFailedError, NodeStartRefusedError } from './errors.js'
import { findRunningDevnet } from './runtime-file.js'
import { type StartDevnetParameters, type StartedDevnet, startDevnet } from './start-devnet.js'

export type LaunchDevnetParameters = Omit<StartDevnetParameters, 'nodeFlags'> & {
  /** The node flags given after `--`; none: tnv's defaults, on free ports it chooses. */
  givenNodeFlags: readonly string[]
  /** Progress lines (the command prints them on stderr). */
  note: (line: string) => void
  /** Things the operator should know (a real network's chain id), for the result too. */
  warn: (warning: string) => void
}

export type LaunchDevnetReturnType = StartedDevnet & {
  /** The directory already held a devnet, which now runs again. */
  resumed: boolean
}

/** @example const started = await launchDevnet({ dir, givenNodeFlags: [], detach: true, note, warn }) */
export async function launchDevnet(p: LaunchDevnetParameters): Promise<LaunchDevnetReturnType> {
  const { dir, givenNodeFlags, note, warn, ...start } = p
  const running = await findRunningDevnet(dir)
  if (running.info) throw new DevnetAlreadyRunningError(dir, running.info.pid, running.info.rpcUrl)
  // a genesis file by path: absolute, so the node (and a resume from elsewhere) finds the same file
  const genesis =
    start.genesis !== undefined && start.genesis !== 'adiri' && start.genesis !== 'next'
      ? resolve(start.genesis)
      : start.genesis
  const { record } = await checkSource({ ...p, genesis })
  let nodeFlags =
    givenNodeFlags.length > 0 ? withDevnetIpcPath([...givenNodeFlags], dir) : await defaultDevnetNodeFlags(dir)
  checkNodePlan(nodeFlags, note)
  note(`${record ? 'resuming' : 'starting'} the devnet in ${dir}${start.detach ? '' : ' (Ctrl-C stops it)'}`)
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await startDevnet({ ...start, dir, genesis, nodeFlags })), resumed: Boolean(record) }
    } catch (err) {
      if (!(err instanceof DevnetStartFailedError && err.portInUse && givenNodeFlags.length === 0 && attempt < 3))
        throw err
      nodeFlags = await defaultDevnetNodeFlags(dir)
      note(`a port was taken while the devnet started; starting again on ${nodeFlags.join(' ')}`)
    }
  }
}

/**
 * The genesis file read, the directory's record agreeing with what is asked, the chain to fork
 * answering; a real network's chain id is warned about (signatures made under it are valid there).
 */
async function checkSource({
  dir,
  genesis,
  forkUrl,
  forkBlock,
  chainId,
  note,
  warn,
}: LaunchDevnetParameters): Promise<{ record: Awaited<ReturnType<typeof checkDevnetDirectory>> }> {
  const source =
    forkUrl !== undefined
      ? { kind: 'fork' as const, url: forkUrl, blockNumber: forkBlock }
      : genesis !== undefined
        ? { kind: 'genesis' as const, genesis }
        : undefined
  let sourceChainId: number | undefined
  if (genesis !== undefined) sourceChainId = loadGenesis(genesis).chainId
  if (forkUrl !== undefined) checkForkUrl(forkUrl)
  const record = await checkDevnetDirectory(dir, { source, chainId: chainId === 'genesis' ? 'source' : chainId })
  if (forkUrl !== undefined) {
    note(`checking the chain to fork (${redactUrl(forkUrl)})…`)
    const probe = await probeForkSource({
      url: forkUrl,
      blockNumber: forkBlock ?? (record?.source.fork ? BigInt(record.source.fork.blockNumber) : undefined),
    })
    sourceChainId = probe.upstreamChainId
    note(
      `  chain id ${probe.upstreamChainId}, block ${probe.blockNumber}, registry ${probe.registry.generation} generation (${probe.registry.match === 'exact' ? 'known code' : 'known interface'}, code hash ${probe.registry.codeHash})`,
    )
  }
  const effectiveChainId = record
    ? record.chainId
    : chainId === 'genesis'
      ? (sourceChainId ?? 487)
      : (chainId ?? DEVNET_CHAIN_ID)
  const real = REAL_NETWORK_CHAIN_IDS[effectiveChainId]
  if (real)
    warn(
      `the rehearsal runs under the chain id of ${real} (${effectiveChainId}): transactions and signatures made on it are valid there too. Keep it off real keys, or leave --chain-id out (tnv's rehearsal id 911329).`,
    )
  return { record }
}

/** The node would refuse these flags: said now, in the resolver's own words (its warnings as notes). */
function checkNodePlan(nodeFlags: string[], note: (line: string) => void): void {
  const plan = resolveRpcPlan(nodeFlags)
  if (!plan.ok) throw new NodeStartRefusedError(plan.errors)
  for (const w of plan.warnings) note(`warning: ${w}`)
}
