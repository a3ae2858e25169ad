import { constants } from 'node:os'
import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { datadirFlag } from '../../cli/flags/common.js'
import { guardKey, keyGuardFlags } from '../../cli/flags/key-guard.js'
import { UsageError } from '../../lib/errors.js'
import type { NodeRunCheckReturnType } from '../../lib/node/run-check.js'
import type { DoppelgangerOutcome } from '../../lib/node/start-guard.js'
import type { NodeState } from '../../lib/node/state.js'
import type { RpcPlan } from '../../lib/rpc/types.js'

/** --check's result: the outcome, and what would run (the JWT secret redacted). */
type NodeRunCheck = NodeRunCheckReturnType & { binary: string; args: string[] }

export default class NodeStart extends BaseCommand {
  static override summary = 'Start the node with checked flags and wait until its RPC answers.'
  static override description =
    `The node's own flags go after \`--\`. tnv first checks them the way the node will read them and refuses what it would refuse: with a real node binary (--node-binary, TN_NODE_BINARY) the released node's command line (v0.14.0-adiri and main: no --workers, --chain adiri|test-net|main-net, --rpc.jwtsecret in hex only) and its namespace rules; with tnv's reference node (the default) the specification's rules plus the reference node's devnet flags. \`all\` as a namespace selection is refused everywhere (its meaning differs between the releases; name the namespaces), and other selections whose meaning differs are reported.

A JWT secret is never typed on tnv's command line: give --jwt-secret-file (or TNV_JWT_SECRET, hex or @file); tnv passes it to the node as --rpc.jwtsecret <hex>, the only form the node takes, and never prints or stores it.

The network is the node's own --chain: adiri, test-net or main-net with the real node binary; with tnv's reference node only --chain devnet (join the devnet \`tnv devnet start\` runs). A port the node is to listen on that another process holds is refused before anything starts, naming that process and the flag to change.

Then tnv starts the node, streams its logs to stderr, and waits until its RPC answers (from the process it started, not from whatever else listens there). Without --detach it runs in the foreground until Ctrl-C, which stops the node cleanly; with --restart on-failure it starts the node again when it crashes.

One key, one live node (docs/node.md, "One key, one node"): a data directory holding a validator key is refused while another node started by tnv on this host holds the same key (the local fence, keyed by the BLS public key, exit 29), and before starting, tnv watches the network's consensus headers (--network-url, else from --chain) for at least --doppelganger-window seconds for the key's authority: active there while not here means another copy runs, and the start is refused (exit 29). An unregistered key, one outside the committee and an observer are not watched (said so); --skip-doppelganger-check starts unchecked.

Every start and exit of a node tnv starts (pid, times, exit code or signal, clean or not) is recorded in <datadir>/tnv-node-runs.json; a detached node's exit is recorded by the next tnv command that finds it gone (tnv node check, status, start, stop). \`tnv node check\` reports the restarts.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ./validator -- --chain devnet --http --http.port 8555 --http.api eth,net,web3,rpc,tn',
    '<%= config.bin %> <%= command.id %> --detach --node-binary /usr/local/bin/telcoin-network -- --chain adiri --http --http.api eth,net,web3,rpc,tn',
    '<%= config.bin %> <%= command.id %> --detach --node-binary /usr/local/bin/telcoin-network --jwt-secret-file /etc/tn/jwt.hex -- --chain adiri --http --http.addr 0.0.0.0 --http.api eth,net,web3,rpc,tn',
  ]
  static override usage =
    '<%= command.id %> [--json] [--datadir <path>] [--node-binary <path>] [--jwt-secret-file <path>] [--detach | --restart on-failure|never [--restart-max <n>] [--restart-window <seconds>]] [--ready-timeout <value>] [--check] [-- <node flags>...]'
  static override strict = false
  static override flags = {
    ...datadirFlag,
    'node-binary': Flags.string({ summary: 'Path of the node binary.', env: 'TN_NODE_BINARY', helpValue: '<path>' }),
    'jwt-secret-file': Flags.string({
      summary: 'A file holding the hex JWT secret; tnv passes it to the node as --rpc.jwtsecret <hex>.',
      description:
        "Without it, TNV_JWT_SECRET is read (the hex secret, or @<file>). The node takes the secret only as hex on its command line; tnv reads it so it is never typed on tnv's own command line.",
      helpValue: '<path>',
    }),
    detach: Flags.boolean({ summary: 'Leave the node running in the background; logs go to <datadir>/logs/node.log.' }),
    restart: Flags.option({
      options: ['on-failure', 'never'] as const,
      default: 'never',
      summary: 'In the foreground: start the node again when it crashes (on-failure), or not (never).',
      description:
        "A crash is a non-zero exit code or a signal other than SIGTERM, SIGINT, SIGHUP and SIGPIPE (systemd's Restart=on-failure rule); a stop asked for (Ctrl-C, tnv node stop) is never restarted. Restarts wait 1 s, doubling up to 60 s; past --restart-max restarts in --restart-window seconds tnv gives up. Every start and exit is recorded in <datadir>/tnv-node-runs.json, which tnv node check reads.",
    })(),
    'restart-max': Flags.integer({
      default: 5,
      min: 0,
      helpValue: '<n>',
      summary: 'Restarts allowed in --restart-window before tnv gives up.',
    }),
    'restart-window': Flags.integer({
      default: 600,
      min: 1,
      helpValue: '<seconds>',
      summary: 'The window (seconds) --restart-max counts restarts in.',
    }),
    'ready-timeout': Flags.integer({ summary: "Seconds to wait for the node's RPC to answer.", default: 60, min: 1 }),
    check: Flags.boolean({
      default: false,
      summary:
        'Start nothing: run every check, then say what would start (outcome would-change) or that it runs (already-done).',
    }),
    ...keyGuardFlags,
  }

  /** Detached: the state, printed once (JSON with --json). Foreground: the state is printed as one JSON line as soon as the node answers, and nothing more at exit. */
  async run(): Promise<(NodeState & { keyGuard: KeyGuardSummary }) | NodeRunCheck | undefined> {
    const { splitNodeArgs } = await import('../../lib/rpc/node-args.js')
    const { own, node } = splitNodeArgs(this.argv)
    const { flags } = await this.parse(NodeStart, own)
    const nodeFlags = node ?? []
    const [{ checkNodeStart }, { resolveNodeBinary }, { startNode }, { assertNotRunning }, { resolveRpcPlan }] =
      await Promise.all([
        import('../../lib/node/plan.js'),
        import('../../lib/node/binary.js'),
        import('../../lib/node/start.js'),
        import('../../lib/node/status.js'),
        import('../../lib/rpc/resolve.js'),
      ])

    const binary = resolveNodeBinary({ flag: flags['node-binary'], env: this.session.env })
    const kind = (await import('../../lib/node/binary-kind.js')).nodeBinaryKind(binary, this.session.env)
    const { warnings } = checkNodeStart(nodeFlags, kind)
    if (kind === 'reference') assertReferenceChain(nodeFlags)
    if (flags.detach && flags.restart === 'on-failure')
      throw new UsageError(
        '--restart on-failure needs tnv in the foreground to watch the node, and --detach leaves it.',
        {
          fix: 'Drop --detach (run tnv node start --restart on-failure under your service manager or in tmux), or keep --detach and let the service manager restart the node (systemd: Restart=on-failure).',
        },
      )
    if (flags.restart === 'on-failure' && (await import('../../cli/session.js')).serviceManager() === 'systemd')
      throw new UsageError('--restart on-failure would make two supervisors: this tnv already runs under systemd.', {
        fix: "Use --restart never and the unit's Restart=on-failure (the units of `tnv node unit` do), or run tnv outside systemd.",
      })
    const secret = await this.jwtSecret(flags['jwt-secret-file'])
    const finalFlags = secret ? [...nodeFlags, '--rpc.jwtsecret', secret] : nodeFlags
    const plan = resolveRpcPlan(finalFlags, { behaviour: kind === 'released' ? 'released' : 'spec' })
    for (const w of warnings) this.note(`warning: ${w}`)
    if (flags.check) return this.check(flags.datadir, binary.path, finalFlags, plan)
    if (secret && kind === 'released') {
      const { JWT_ON_NODE_ARGV_WARNING } = await import('../../lib/rpc/jwt-warnings.js')
      process.stderr.write(`warning: ${JWT_ON_NODE_ARGV_WARNING}\n`)
    }
    await assertNotRunning(flags.datadir)
    // a taken port is named before anything is started (startNode checks again, just before spawning)
    const { assertPortsFree } = await import('../../lib/node/start.js')
    await assertPortsFree(plan)
    // one live copy of a validator key: the local fence, then the network (docs/node.md)
    const guard = await guardKey((t) => this.note(t), flags, nodeFlags, this.session.env)
    const { redactNodeFlags } = await import('../../lib/rpc/format-plan.js')
    this.note(`starting ${binary.path} node --datadir ${flags.datadir} ${redactNodeFlags(finalFlags, plan).join(' ')}`)
    const startParameters = {
      binary,
      datadir: flags.datadir,
      nodeFlags: finalFlags,
      plan,
      detach: flags.detach,
      readyTimeoutMs: flags['ready-timeout'] * 1000,
      onLog: (line: string) => this.note(`  node | ${line}`),
      env: this.session.env,
    }
    // foreground: a stop asked for (Ctrl-C, SIGTERM from a service manager) is caught from before the
    // start, so one arriving while the node starts still stops it cleanly once it runs. `on`, not
    // `once`: the listener stays during the signal's dispatch, so signal-exit (proper-lockfile's lock
    // release) sees another listener and does not re-raise the signal to kill tnv; a second signal
    // only aborts again.
    const aborter = new AbortController()
    const stop = () => aborter.abort()
    if (!flags.detach) {
      process.on('SIGINT', stop)
      process.on('SIGTERM', stop)
    }
    const unhook = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
    const started = await startNode(startParameters).catch(async (err: unknown) => {
      unhook()
      await guard.fence?.release().catch(() => {})
      throw err
    })
    const { state } = started
    const { success } = await import('../../cli/color.js')
    this.out(success(`node running (pid ${state.pid})`))
    for (const [k, v] of Object.entries(state.rpc)) if (v) this.out(`  ${k.padEnd(4)} ${v}`)
    if (state.workerEndpoints.length) this.out(`  workers: ${state.workerEndpoints.join(', ')}`)
    if (state.logFile) this.out(`  log  ${state.logFile}`)
    // what the fence holds and what the network check saw (or why it did not run), in the JSON too
    const keyGuard: KeyGuardSummary = { fence: guard.identities.map((i) => i.id), doppelganger: guard.doppelganger }
    if (flags.detach || !started.child) {
      unhook()
      return { ...state, keyGuard }
    }

    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify({ ...state, keyGuard })}\n`)
    // the foreground: until Ctrl-C / SIGTERM (the node is stopped, not restarted) or the node ends
    const [{ superviseNode }, { removeNodeState }] = await Promise.all([
      import('../../lib/node/supervise.js'),
      import('../../lib/node/state.js'),
    ])
    const policy = {
      mode: flags.restart,
      maxRestarts: flags['restart-max'],
      windowSeconds: flags['restart-window'],
    }
    const result = await superviseNode({
      first: started,
      startParameters,
      policy,
      signal: aborter.signal,
      onEvent: (e) => {
        if (e.event === 'exited')
          this.note(
            `node exited (${e.exit.signal ?? `code ${e.exit.code}`})${e.exit.recorded ? `: ${e.exit.recorded.how}${e.exit.recorded.clean ? '' : ', not clean'}` : ''}`,
          )
        else if (e.event === 'restarting')
          this.note(
            `restarting the node in ${e.inMs / 1000} s (restart ${e.restartsInWindow} of at most ${policy.maxRestarts} in ${policy.windowSeconds} s)`,
          )
        else if (e.event === 'start-failed') this.note(`the restart failed: ${e.error}`)
        else if (e.event === 'gave-up')
          this.note(
            `not restarting again: ${e.restartsInWindow} restarts in the last ${policy.windowSeconds} s. The node keeps crashing; read its output above for the cause.`,
          )
        else if (e.event === 'ready') {
          this.note(`node running again (pid ${e.state.pid}, restart ${e.restart})`)
          if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify(e.state)}\n`)
        }
      },
    })
    unhook()
    await removeNodeState(flags.datadir)
    await guard.fence?.release().catch(() => {})
    const exit = result.exit
    // the node's own exit code when it ended by itself; 128 + the signal's number when a signal ended it uncleanly
    if (!result.stopped && exit && exit.recorded?.clean !== true) {
      const code =
        exit.code !== null && exit.code !== 0
          ? exit.code
          : exit.signal
            ? 128 + (constants.signals[exit.signal] ?? 0)
            : 1
      this.exit(code)
    }
    if (!result.stopped && !exit) this.exit(1)
    return undefined
  }

  /** --check: every refusal above already ran; nothing is started, and no file is written. */
  private async check(datadir: string, binary: string, nodeFlags: string[], plan: RpcPlan): Promise<NodeRunCheck> {
    const [{ checkNodeRun }, { assertPortsFree }, { redactNodeFlags }] = await Promise.all([
      import('../../lib/node/run-check.js'),
      import('../../lib/node/start.js'),
      import('../../lib/rpc/format-plan.js'),
    ])
    const run = await checkNodeRun({ datadir, want: 'running' })
    if (!run.running) await assertPortsFree(plan)
    const args = ['node', '--datadir', datadir, ...redactNodeFlags(nodeFlags, plan)]
    this.out(
      run.running ? `already-done: node ${run.pid} runs for ${datadir}` : `would start ${binary} ${args.join(' ')}`,
    )
    return { ...run, binary, args }
  }

  /** The JWT secret as the node takes it (64 hex digits), from --jwt-secret-file or TNV_JWT_SECRET; null without either. */
  private async jwtSecret(file: string | undefined): Promise<string | null> {
    const { readJwtSecret } = await import('../../lib/rpc/jwt.js')
    if (file !== undefined) return readJwtSecret(`@${file}`)
    const env = process.env.TNV_JWT_SECRET
    return env ? readJwtSecret(env) : null
  }
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

/** `keyGuard` in the JSON result: the fence's identities (empty: no validator key) and the doppelganger check. */
type KeyGuardSummary = { fence: string[]; doppelganger: DoppelgangerOutcome }
