/**
 * What stands between `tnv node start` (and upgrade, restart, migrate) and a second live copy of
 * a validator key: the local fence (./fence.ts), taken first, then the doppelganger check
 * (./doppelganger.ts) against the network's endpoint. The fence is held from before the check
 * until the caller releases it, so no other start on this host can pass while this one watches.
 * A node without a validator key (no node-info.yaml, no key file) and an observer (`--observer`)
 * are not checked, and the result says so.
 */
import { type CheckDoppelgangerReturnType, checkDoppelganger, type DoppelgangerEvent } from './doppelganger.js'
import { type KeyFence, type KeyIdentity, keyIdentities, takeKeyFence } from './fence.js'
import { DoppelgangerDetectedError, DoppelgangerInconclusiveError } from './fence-errors.js'
import { RECENT_STOP_GRACE_MS } from './guard-types.js'

export type DoppelgangerOutcome =
  | ({ status: 'checked' } & CheckDoppelgangerReturnType)
  | { status: 'skipped'; reason: string }

export type GuardStartParameters = {
  stateDir: string
  datadir: string
  nodeFlags: readonly string[]
  /** The devnet directory (`--chain devnet` joins the devnet there): part of the fence's network. */
  devnetDir: string
  /** The network's endpoint for the check; null when none is known (then the check refuses unless skipped). */
  networkUrl: string | null
  /** --skip-doppelganger-check: the operator accepts starting unchecked. */
  skipDoppelganger: boolean
  /** Why the check is not run when the caller knows better (an upgrade of the node that held the key here). */
  skipReason?: string
  windowSeconds?: number
  pollMs?: number
  command: string
  onEvent?: (e: DoppelgangerEvent) => void
}

export type GuardStartReturnType = {
  identities: KeyIdentity[]
  /** Held: release it when the node has stopped (or the start failed). Null without a validator key. */
  fence: KeyFence | null
  doppelganger: DoppelgangerOutcome
}

export function nodeChainFlag(nodeFlags: readonly string[]): string | null {
  let chain: string | null = null
  for (let i = 0; i < nodeFlags.length; i++) {
    const f = nodeFlags[i] as string
    if (f === '--chain') chain = nodeFlags[i + 1] ?? null
    else if (f.startsWith('--chain=')) chain = f.slice('--chain='.length)
  }
  return chain
}

/** The network the local fence keys a start by: its --chain (`devnet:<dir>` for the devnet), else `datadir-genesis`. */
export function fenceNetwork(nodeFlags: readonly string[], devnetDir: string): string {
  const chain = nodeChainFlag(nodeFlags)
  return chain === 'devnet' ? `devnet:${devnetDir}` : (chain ?? 'datadir-genesis')
}

/**
 * @example
 * const guard = await guardValidatorStart({ stateDir, datadir, nodeFlags, networkUrl, skipDoppelganger: false, command: 'tnv node start' })
 * try { await startNode(…) } catch (e) { await guard.fence?.release(); throw e }
 */
export async function guardValidatorStart(p: GuardStartParameters): Promise<GuardStartReturnType> {
  const { movedOutAt } = await import('./migrate.js')
  const moved = movedOutAt(p.datadir)
  if (moved !== null) {
    const { KeyMovedOutError } = await import('./migrate-errors.js')
    throw new KeyMovedOutError(p.datadir, moved)
  }
  const identities = await keyIdentities(p.datadir)
  if (!identities.length)
    return {
      identities,
      fence: null,
      doppelganger: { status: 'skipped', reason: 'no validator key in the data directory (an observer without keys)' },
    }
  const network = fenceNetwork(p.nodeFlags, p.devnetDir)
  const fence = await takeKeyFence({
    stateDir: p.stateDir,
    datadir: p.datadir,
    identities,
    network,
    command: p.command,
  })
  try {
    const doppelganger = await runCheck(p, identities)
    return { identities, fence, doppelganger }
  } catch (err) {
    await fence.release().catch(() => {})
    throw err
  }
}

async function runCheck(p: GuardStartParameters, identities: KeyIdentity[]): Promise<DoppelgangerOutcome> {
  if (p.nodeFlags.includes('--observer'))
    return { status: 'skipped', reason: 'an observer (--observer) takes no part in consensus: no check' }
  if (p.skipReason) return { status: 'skipped', reason: p.skipReason }
  if (p.skipDoppelganger)
    return {
      status: 'skipped',
      reason:
        '--skip-doppelganger-check: the operator accepts that another copy of this key may be live elsewhere; two live copies sign twice, which the network punishes',
    }
  const key = identities.find((i) => i.blsPublicKey !== null)?.blsPublicKey
  if (!key)
    return {
      status: 'skipped',
      reason: 'the public key of bls.kw is unknown without its passphrase and there is no node-info.yaml: no check',
    }
  // no network to watch (a node run from a genesis in its data directory, or main-net with no public
  // RPC): the start goes on and says, in words and in the JSON, that nothing was watched
  if (!p.networkUrl)
    return {
      status: 'skipped',
      reason: `no network endpoint is known for ${nodeChainFlag(p.nodeFlags) ? `--chain ${nodeChainFlag(p.nodeFlags)}` : 'a node without --chain'}, so the network was not watched for this key; give --network-url <url> to have it checked`,
    }
  // this host's own node, stopped a moment ago, can still land its last certificates in the next
  // commits: the watch begins RECENT_STOP_GRACE_MS after its exit
  const { readRunLog } = await import('./run-log.js')
  const exits = ((await readRunLog(p.datadir).catch(() => null))?.runs ?? [])
    .map((r) => (r.exit ? Date.parse(r.exit.at) : Number.NaN))
    .filter((t) => Number.isFinite(t))
  const lastExit = exits.length ? Math.max(...exits) : null
  const wait = lastExit === null ? 0 : lastExit + RECENT_STOP_GRACE_MS - Date.now()
  if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  const r = await checkDoppelganger({
    endpoint: p.networkUrl,
    blsPublicKey: key,
    ...(p.windowSeconds !== undefined ? { windowSeconds: p.windowSeconds } : {}),
    ...(p.pollMs !== undefined ? { pollMs: p.pollMs } : {}),
    ...(p.onEvent ? { onEvent: p.onEvent } : {}),
  })
  if (r.verdict === 'active') throw new DoppelgangerDetectedError(r)
  if (r.verdict === 'inconclusive') throw new DoppelgangerInconclusiveError(r)
  return { status: 'checked', ...r }
}

/** One line for people: what the check saw (or why there was none). */
export function describeDoppelganger(d: DoppelgangerOutcome): string {
  if (d.status === 'skipped') return `doppelganger check: not run (${d.reason})`
  switch (d.verdict) {
    case 'not-registered':
      return `doppelganger check: the key is not registered on ${d.endpoint}; no authority to watch (nothing can be seen for an unregistered key)`
    case 'not-in-committee':
      return `doppelganger check: authority ${d.authorityId} is not in the committee of epoch ${d.epoch} (${d.endpoint}); it leads and scores nothing, so the check cannot see a copy: it did not wait${d.seatedNext ? `. It sits in the committee of epoch ${(d.epoch ?? 0) + 1}: a copy elsewhere would show from then (\`tnv node check\` after that boundary)` : ''}`
    default:
      return `doppelganger check: authority ${d.authorityId} silent over ${d.headersSeen} consensus headers in ${Math.round(d.waitedMs / 1000)} s (${d.endpoint}, epoch ${d.epoch})`
  }
}

/**
 * The network endpoint the check watches: --network-url, else the node's --chain: adiri/test-net →
 * the published public RPC; devnet → the running devnet's RPC; main-net and others → none.
 */
export async function resolveNetworkUrl({
  flag,
  nodeFlags,
  devnetDir,
}: {
  flag: string | undefined
  nodeFlags: readonly string[]
  devnetDir: string
}): Promise<string | null> {
  if (flag) return flag
  const chain = nodeChainFlag(nodeFlags)
  if (chain === 'devnet') {
    const { readRuntimeInfo } = await import('../chain/devnet-runtime-file.js')
    return (await readRuntimeInfo(devnetDir))?.rpcUrl ?? null
  }
  const { nodeNetworkPreset } = await import('./networks.js')
  return chain ? (nodeNetworkPreset(chain)?.publicRpc ?? null) : null
}
