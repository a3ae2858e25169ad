import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { datadirFlag } from '../../cli/flags/common.js'
import { keyGuardFlags } from '../../cli/flags/key-guard.js'
import { UsageError } from '../../lib/errors.js'
import type { MigrateReturnType } from '../../lib/node/migrate.js'
import type { CheckMigrateReturnType } from '../../lib/node/migrate-check.js'

export default class NodeMigrate extends BaseCommand {
  static override summary =
    'Move a validator to another host with its key never live twice: `out` on the old host, then `in` on the new.'
  static override description =
    `out (old host): stop the node, prove the key silent in the network's consensus headers over --doppelganger-window seconds (a copy active elsewhere is refused, exit 29), and mark the data directory moved out (tnv node start then refuses it here).

in (new host, with the data directory copied over): prove the key silent over the window (the old host stopped), start the node detached under the local fence with the node flags after --, and confirm the authority active again in the headers (--confirm-timeout), exit 23 when it does not show.

JSON lines with --json; each side is resumable after a kill (<datadir>/tnv-migrate.json): run the same command again. docs/node.md, "Migrate".

--check stops, starts and writes nothing: it reads the side's journal, the node of the data directory and the network's endpoint once (an endpoint that fails exits as the run would), checks for in what the start checks (the node binary, an RPC endpoint, free ports, the local fence), and lists the steps the run would take (outcome would-change), or says already-done when the journal records the side finished (out: the node stopped; in: it runs). The proof of silence itself (the window of headers) is the run's.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> out --datadir /var/lib/tn --json',
    '<%= config.bin %> <%= command.id %> out --datadir /var/lib/tn --check --json   # what out would do',
    '<%= config.bin %> <%= command.id %> in --datadir /var/lib/tn --node-binary /usr/local/bin/telcoin-network -- --chain adiri --http --http.api eth,net,web3,rpc,tn',
  ]
  static override usage =
    '<%= command.id %> out|in [--json] [--datadir <path>] [--network-url <url>] [--doppelganger-window <seconds>] [--node-binary <path>] [--confirm-timeout <seconds>] [--check] [-- <node flags>...]'
  static override strict = false
  static override args = {
    side: Args.string({
      options: ['out', 'in'],
      required: true,
      description: 'out on the old host, in on the new one',
    }),
  }
  static override flags = {
    ...datadirFlag,
    // the proof of silence is the point of a migration: it cannot be skipped
    'network-url': keyGuardFlags['network-url'],
    'doppelganger-window': keyGuardFlags['doppelganger-window'],
    'node-binary': Flags.string({
      summary: 'in: path of the node binary.',
      env: 'TN_NODE_BINARY',
      helpValue: '<path>',
    }),
    'confirm-timeout': Flags.integer({
      default: 120,
      min: 1,
      helpValue: '<seconds>',
      summary: 'in: how long to wait for the authority to show active again.',
    }),
    check: Flags.boolean({
      summary:
        'Do nothing: run every precondition, then list the steps it would take (outcome would-change) or say it is done.',
    }),
  }

  async run(): Promise<MigrateReturnType | CheckMigrateReturnType> {
    this.jsonLines = true
    const { splitNodeArgs } = await import('../../lib/rpc/node-args.js')
    const { own, node } = splitNodeArgs(this.argv)
    const { args, flags } = await this.parse(NodeMigrate, own)
    const side = args.side as 'out' | 'in'
    const [{ migrateNode }, { keyIdentities }, { resolveNetworkUrl }, { defaultDevnetDir }, { readNodeState }] =
      await Promise.all([
        import('../../lib/node/migrate.js'),
        import('../../lib/node/fence.js'),
        import('../../lib/node/start-guard.js'),
        import('../../lib/chain/devnet-runtime-file.js'),
        import('../../lib/node/state.js'),
      ])
    const key = (await keyIdentities(flags.datadir)).find((i) => i.blsPublicKey)?.blsPublicKey
    if (!key)
      throw new UsageError(
        `${flags.datadir} holds no validator key tnv can read (node-info.yaml), so there is nothing to migrate.`,
        {
          fix: 'Give the data directory of the validator (--datadir).',
        },
      )
    // out: the flags the node ran with tell the network; in: the flags given after --
    const running = await readNodeState(flags.datadir)
    const nodeFlags = node ?? (running?.args[0] === 'node' ? running.args.slice(1) : [])
    if (side === 'in' && !node)
      throw new UsageError('`migrate in` starts the node: give its flags after `--`.', {
        fix: 'For example: tnv node migrate in --datadir <dir> -- --chain adiri --http --http.api eth,net,web3,rpc,tn',
      })
    const { readMigrateJournal } = await import('../../lib/node/migrate.js')
    // this side's journal names the network it watched: a rerun after the node stopped (unfinished, or
    // finished and run again) watches the same one
    const journal = readMigrateJournal(flags.datadir)
    const networkUrl =
      flags['network-url'] ??
      (journal?.side === side ? journal.networkUrl : undefined) ??
      (await resolveNetworkUrl({ flag: undefined, nodeFlags, devnetDir: defaultDevnetDir(this.session.env) }))
    if (!networkUrl) {
      const { DoppelgangerNoEndpointError } = await import('../../lib/node/fence-errors.js')
      throw new DoppelgangerNoEndpointError(null)
    }
    if (flags.check) return this.check(side, flags, networkUrl, key, node ?? [])
    const { upgradeHooks } = await import('../../cli/node-upgrade.js')
    const result = await migrateNode({
      side,
      datadir: flags.datadir,
      networkUrl,
      blsPublicKey: key,
      windowSeconds: flags['doppelganger-window'],
      confirmSeconds: flags['confirm-timeout'],
      stop: async () => {
        const { stopNode } = await import('../../lib/node/stop.js')
        await stopNode({ datadir: flags.datadir })
      },
      start: async () => {
        const { resolveNodeBinary } = await import('../../lib/node/binary.js')
        const hooks = upgradeHooks(
          flags.datadir,
          60_000,
          (t) => this.note(t),
          this.session.env,
          'tnv node migrate in',
          'proved silent by this migrate over the window just before',
        )
        return hooks.supervisor.start(
          resolveNodeBinary({ flag: flags['node-binary'], env: this.session.env }),
          node ?? [],
        )
      },
      onEvent: (e) => (this.jsonEnabled() ? this.logJson(e) : this.note(JSON.stringify(e))),
    })
    const done = result.outcome === 'already-done'
    this.out(
      side === 'out'
        ? done
          ? `already-done: ${flags.datadir} moved out before and its node is stopped; nothing was run`
          : `moved out: ${flags.datadir} stopped, the key silent; now run \`tnv node migrate in\` on the new host`
        : done
          ? `already-done: moved in before, the node runs (pid ${result.state?.pid}); nothing was run`
          : `moved in: the node runs (pid ${result.state?.pid})`,
    )
    return result
  }

  /** --check: the side's preconditions and plan (src/lib/node/migrate-check.ts); nothing stopped, started or written. */
  private async check(
    side: 'out' | 'in',
    flags: {
      datadir: string
      'node-binary'?: string | undefined
      'doppelganger-window': number
      'confirm-timeout': number
    },
    networkUrl: string,
    blsPublicKey: `0x${string}`,
    nodeFlags: string[],
  ): Promise<CheckMigrateReturnType> {
    const { checkMigrate } = await import('../../lib/node/migrate-check.js')
    const common = {
      datadir: flags.datadir,
      networkUrl,
      blsPublicKey,
      windowSeconds: flags['doppelganger-window'],
      confirmSeconds: flags['confirm-timeout'],
    }
    const r =
      side === 'out'
        ? await checkMigrate({ ...common, side })
        : await checkMigrate({ ...common, side, start: await this.startPlan(flags, nodeFlags) })
    this.out(`${r.outcome}: migrate ${side} of ${flags.datadir} (check: nothing was stopped, started or written)`)
    for (const s of r.steps) this.out(`  ${s.step.padEnd(7)} ${s.action.padEnd(9)} ${s.detail}`)
    return r
  }

  /** What `in` would start, resolved as its start resolves it (the binary, the node's RPC plan, the fence's inputs). */
  private async startPlan(flags: { datadir: string; 'node-binary'?: string | undefined }, nodeFlags: string[]) {
    const [{ resolveNodeBinary }, { nodeBinaryKind }, { resolveRpcPlan }, { keyIdentities }, { fenceNetwork }] =
      await Promise.all([
        import('../../lib/node/binary.js'),
        import('../../lib/node/binary-kind.js'),
        import('../../lib/rpc/resolve.js'),
        import('../../lib/node/fence.js'),
        import('../../lib/node/start-guard.js'),
      ])
    const [{ tnvStateDir }, { defaultDevnetDir }, { resolve }] = await Promise.all([
      import('../../lib/tx/journal.js'),
      import('../../lib/chain/devnet-runtime-file.js'),
      import('node:path'),
    ])
    const { env } = this.session
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
}
