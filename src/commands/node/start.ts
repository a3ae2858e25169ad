import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { datadirFlag } from '../../cli/flags/common.js'
import { keyGuardFlags } from '../../cli/flags/key-guard.js'
import type { CheckNodeStartRunReturnType } from '../../lib/node/start-check.js'
import type { DoppelgangerOutcome } from '../../lib/node/start-guard.js'
import type { NodeState } from '../../lib/node/state.js'

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
  async run(): Promise<(NodeState & { keyGuard: KeyGuardSummary }) | CheckNodeStartRunReturnType | undefined> {
    const { splitNodeArgs } = await import('../../lib/rpc/node-args.js')
    const { own, node } = splitNodeArgs(this.argv)
    const { flags } = await this.parse(NodeStart, own)
    const nodeFlags = node ?? []
    const [{ resolveNodeBinary }, { nodeBinaryKind }, { planNodeStart }, { serviceManager }, nodeStart] =
      await Promise.all([
        import('../../lib/node/binary.js'),
        import('../../lib/node/binary-kind.js'),
        import('../../lib/node/start-plan.js'),
        import('../../cli/session.js'),
        import('../../cli/node-start.js'),
      ])
    const binary = resolveNodeBinary({ flag: flags['node-binary'], env: this.session.env })
    const start = await planNodeStart({
      nodeFlags,
      kind: nodeBinaryKind(binary, this.session.env),
      jwtSecret: nodeStart.jwtSecretSource(flags['jwt-secret-file']),
      detach: flags.detach,
      restart: flags.restart,
      serviceManager: serviceManager(),
    })
    for (const w of start.warnings) this.note(`warning: ${w}`)
    if (flags.check) {
      const { checkNodeStartRun } = await import('../../lib/node/start-check.js')
      const r = await checkNodeStartRun({
        datadir: flags.datadir,
        binary: binary.path,
        nodeFlags: start.nodeFlags,
        plan: start.plan,
      })
      this.out(
        r.running
          ? `already-done: node ${r.pid} runs for ${flags.datadir}`
          : `would start ${binary.path} ${r.args.join(' ')}`,
      )
      return r
    }
    const note = (t: string) => this.note(t)
    const run = await nodeStart.startGuardedNode(note, flags, binary, nodeFlags, start, this.session.env)
    const { state } = run.started
    const { success } = await import('../../cli/color.js')
    this.out(success(`node running (pid ${state.pid})`))
    for (const [k, v] of Object.entries(state.rpc)) if (v) this.out(`  ${k.padEnd(4)} ${v}`)
    if (state.workerEndpoints.length) this.out(`  workers: ${state.workerEndpoints.join(', ')}`)
    if (state.logFile) this.out(`  log  ${state.logFile}`)
    // what the fence holds and what the network check saw (or why it did not run), in the JSON too
    const keyGuard: KeyGuardSummary = {
      fence: run.guard.identities.map((i) => i.id),
      doppelganger: run.guard.doppelganger,
    }
    if (flags.detach || !run.started.child) {
      run.unhook()
      return { ...state, keyGuard }
    }
    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify({ ...state, keyGuard })}\n`)
    const code = await nodeStart.superviseForeground(note, this.jsonEnabled(), flags, run)
    if (code !== undefined) this.exit(code)
    return undefined
  }
}

/** `keyGuard` in the JSON result: the fence's identities (empty: no validator key) and the doppelganger check. */
type KeyGuardSummary = { fence: string[]; doppelganger: DoppelgangerOutcome }
