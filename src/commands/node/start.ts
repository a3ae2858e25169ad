import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/base-command.js'
import { datadirFlag } from '../../lib/flags.js'
import type { NodeState } from '../../lib/node/state.js'

export default class NodeStart extends BaseCommand {
  static override summary = 'Start the node with checked flags and wait until its RPC answers.'
  static override description =
    `The node's own flags go after \`--\`. tnv first resolves them with the same rules the node uses (\`tnv rpc plan\`) and refuses what the node would refuse, then starts the node binary (--node-binary, TN_NODE_BINARY, or tnv's reference node), streams its logs to stderr, waits until its RPC answers and reports the worker endpoints the node logs. Without --detach it runs in the foreground until Ctrl-C, which stops the node cleanly.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ./validator -- --chain dev --http --http.api eth,net,web3,rpc,tn',
    '<%= config.bin %> <%= command.id %> --detach --node-binary /usr/local/bin/telcoin-network -- --chain testnet --http',
  ]
  static override usage =
    '<%= command.id %> [--json] [--datadir <path>] [--node-binary <path>] [--detach] [--ready-timeout <value>] [-- <node flags>...]'
  static override strict = false
  static override flags = {
    ...datadirFlag,
    'node-binary': Flags.string({ summary: 'Path of the node binary.', env: 'TN_NODE_BINARY', helpValue: '<path>' }),
    detach: Flags.boolean({ summary: 'Leave the node running in the background; logs go to <datadir>/logs/node.log.' }),
    'ready-timeout': Flags.integer({ summary: "Seconds to wait for the node's RPC to answer.", default: 60, min: 1 }),
  }

  /** Detached: the state, printed once (JSON with --json). Foreground: the state is printed as one JSON line as soon as the node answers, and nothing more at exit. */
  async run(): Promise<NodeState | undefined> {
    const { splitNodeArgs } = await import('../../lib/rpc/node-args.js')
    const { own, node } = splitNodeArgs(this.argv)
    const { flags } = await this.parse(NodeStart, own)
    const nodeFlags = node ?? []
    const { checkedNodePlan } = await import('../../lib/node/plan.js')
    const { resolveNodeBinary } = await import('../../lib/node/binary.js')
    const { startNode } = await import('../../lib/node/start.js')
    const { assertNotRunning } = await import('../../lib/node/status.js')

    const plan = checkedNodePlan(nodeFlags)
    for (const w of [...plan.warnings, ...plan.advice]) this.note(`warning: ${w}`)
    await assertNotRunning(flags.datadir)
    const binary = resolveNodeBinary({ flag: flags['node-binary'] })
    const { redactNodeFlags } = await import('../../lib/rpc/format-plan.js')
    this.note(`starting ${binary.path} node --datadir ${flags.datadir} ${redactNodeFlags(nodeFlags, plan).join(' ')}`)
    const started = await startNode({
      binary,
      datadir: flags.datadir,
      nodeFlags,
      plan,
      detach: flags.detach,
      readyTimeoutMs: flags['ready-timeout'] * 1000,
      onLog: (line) => this.note(`  node | ${line}`),
    })
    const { state } = started
    this.out(`node running (pid ${state.pid})`)
    for (const [k, v] of Object.entries(state.rpc)) if (v) this.out(`  ${k.padEnd(4)} ${v}`)
    if (state.workerEndpoints.length) this.out(`  workers: ${state.workerEndpoints.join(', ')}`)
    if (state.logFile) this.out(`  log  ${state.logFile}`)
    if (flags.detach || !started.child) return state

    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify(state)}\n`)
    const child = started.child
    const stop = () => child.kill('SIGTERM')
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    const { code, signal } = await started.exited
    const { removeNodeState } = await import('../../lib/node/state.js')
    await removeNodeState(flags.datadir)
    this.note(`node exited (${signal ?? `code ${code}`})`)
    if (code && code !== 0) this.exit(code)
    return undefined
  }
}
