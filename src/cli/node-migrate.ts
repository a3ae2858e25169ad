/**
 * The session side of `tnv node migrate`: the validator key of the data directory, the node flags
 * (given after `--`, or those the running node was started with), the network endpoint whose
 * headers prove the key silent (--network-url, this side's journal on a rerun, else the node's
 * chain), and for `in` the start the run would make. The migration itself is the library's
 * (src/lib/node/migrate.ts; --check: src/lib/node/migrate-check.ts).
 */
import { UsageError } from '../lib/errors.js'
import type { MigrateEvent, MigrateReturnType } from '../lib/node/migrate.js'
import type { CheckMigrateReturnType } from '../lib/node/migrate-check.js'
import type { Session } from './session.js'

type MigrateFlags = {
  datadir: string
  'network-url'?: string | undefined
  'node-binary'?: string | undefined
  'doppelganger-window': number
  'confirm-timeout': number
}

export type MigrateInputs = {
  side: 'out' | 'in'
  blsPublicKey: `0x${string}`
  networkUrl: string
  /** The node flags given after `--` (in: what it starts with). */
  nodeFlags: string[]
}

/** The key, the network and the node flags of a side, with the refusals the run and its check share. */
export async function migrateInputs(
  session: Session,
  flags: MigrateFlags,
  side: 'out' | 'in',
  node: string[] | null,
): Promise<MigrateInputs> {
  const [{ keyIdentities }, { resolveNetworkUrl }, { defaultDevnetDir }, { readNodeState }, { readMigrateJournal }] =
    await Promise.all([
      import('../lib/node/fence.js'),
      import('../lib/node/start-guard.js'),
      import('../lib/chain/devnet-runtime-file.js'),
      import('../lib/node/state.js'),
      import('../lib/node/migrate.js'),
    ])
  const key = (await keyIdentities(flags.datadir)).find((i) => i.blsPublicKey)?.blsPublicKey
  if (!key)
    throw new UsageError(
      `${flags.datadir} holds no validator key tnv can read (node-info.yaml), so there is nothing to migrate.`,
      { fix: 'Give the data directory of the validator (--datadir).' },
    )
  if (side === 'in' && !node)
    throw new UsageError('`migrate in` starts the node: give its flags after `--`.', {
      fix: 'For example: tnv node migrate in --datadir <dir> -- --chain adiri --http --http.api eth,net,web3,rpc,tn',
    })
  // out: the flags the node ran with tell the network; in: the flags given after --
  const running = await readNodeState(flags.datadir)
  const nodeFlags = node ?? (running?.args[0] === 'node' ? running.args.slice(1) : [])
  // this side's journal names the network it watched: a rerun after the node stopped (unfinished, or
  // finished and run again) watches the same one
  const journal = readMigrateJournal(flags.datadir)
  const networkUrl =
    flags['network-url'] ??
    (journal?.side === side ? journal.networkUrl : undefined) ??
    (await resolveNetworkUrl({ flag: undefined, nodeFlags, devnetDir: defaultDevnetDir(session.env) }))
  if (!networkUrl) {
    const { DoppelgangerNoEndpointError } = await import('../lib/node/fence-errors.js')
    throw new DoppelgangerNoEndpointError(null)
  }
  return { side, blsPublicKey: key, networkUrl, nodeFlags: node ?? [] }
}

/** The side run: stop (out) or start (in) through the session's supervisor hooks. */
export async function runMigrate(
  session: Session,
  flags: MigrateFlags,
  { side, blsPublicKey, networkUrl, nodeFlags }: MigrateInputs,
  { note, onEvent }: { note: (line: string) => void; onEvent: (e: MigrateEvent) => void },
): Promise<MigrateReturnType> {
  const [{ migrateNode }, { upgradeHooks }] = await Promise.all([
    import('../lib/node/migrate.js'),
    import('./node-upgrade.js'),
  ])
  return migrateNode({
    side,
    datadir: flags.datadir,
    networkUrl,
    blsPublicKey,
    windowSeconds: flags['doppelganger-window'],
    confirmSeconds: flags['confirm-timeout'],
    stop: async () => {
      const { stopNode } = await import('../lib/node/stop.js')
      await stopNode({ datadir: flags.datadir })
    },
    start: async () => {
      const { resolveNodeBinary } = await import('../lib/node/binary.js')
      const hooks = upgradeHooks(
        flags.datadir,
        60_000,
        note,
        session.env,
        'tnv node migrate in',
        'proved silent by this migrate over the window just before',
      )
      return hooks.supervisor.start(resolveNodeBinary({ flag: flags['node-binary'], env: session.env }), nodeFlags)
    },
    onEvent,
  })
}

/** --check: the side's preconditions and plan; nothing stopped, started or written. */
export async function checkMigrateSide(
  session: Session,
  flags: MigrateFlags,
  { side, blsPublicKey, networkUrl, nodeFlags }: MigrateInputs,
): Promise<CheckMigrateReturnType> {
  const { checkMigrate } = await import('../lib/node/migrate-check.js')
  const common = {
    datadir: flags.datadir,
    networkUrl,
    blsPublicKey,
    windowSeconds: flags['doppelganger-window'],
    confirmSeconds: flags['confirm-timeout'],
  }
  return side === 'out'
    ? checkMigrate({ ...common, side })
    : checkMigrate({ ...common, side, start: await startPlan(session, flags, nodeFlags) })
}

/** What `in` would start, resolved as its start resolves it (the binary, the node's RPC plan, the fence's inputs). */
async function startPlan(session: Session, flags: MigrateFlags, nodeFlags: string[]) {
  const [
    { resolveNodeBinary },
    { nodeBinaryKind },
    { resolveRpcPlan },
    { keyIdentities },
    { fenceNetwork },
    { tnvStateDir },
    { defaultDevnetDir },
    { resolve },
  ] = await Promise.all([
    import('../lib/node/binary.js'),
    import('../lib/node/binary-kind.js'),
    import('../lib/rpc/resolve.js'),
    import('../lib/node/fence.js'),
    import('../lib/node/start-guard.js'),
    import('../lib/tx/journal.js'),
    import('../lib/chain/devnet-runtime-file.js'),
    import('node:path'),
  ])
  const { env } = session
  const binary = resolveNodeBinary({ flag: flags['node-binary'], env })
  const kind = nodeBinaryKind(binary, env)
  return {
    binary: binary.path,
    nodeFlags,
    plan: resolveRpcPlan(nodeFlags, { behaviour: kind === 'released' ? ('released' as const) : ('spec' as const) }),
    fence: {
      stateDir: tnvStateDir(env),
      identities: await keyIdentities(flags.datadir),
      network: fenceNetwork(nodeFlags, resolve(defaultDevnetDir(env))),
    },
  }
}
