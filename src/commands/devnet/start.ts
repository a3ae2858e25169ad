import { Flags } from '@oclif/core'
import { devnetDirFlag } from '../../devnet/node/cli-flags.js'
import type { DevnetRuntimeInfo } from '../../devnet/paths.js'
import { BaseCommand } from '../../lib/base-command.js'

const EXAMPLE = 'tnv devnet start -- --http --http.port 8545 --http.api eth,net,web3,rpc,tn'

export type DevnetStartResult = DevnetRuntimeInfo & {
  datadir: string
  nodeArgs: string[]
  logFile: string | null
  keysNotice: string
}

export default class DevnetStart extends BaseCommand {
  static override summary = 'Start the local devnet: the reference node on an embedded chain.'
  static override description =
    `Runs the reference node (the devnet chain: anvil with the registry, the BLS verifier and the protocol loop, behind the node's JSON-RPC server) on the devnet directory. A directory that already holds a devnet resumes it.

The node's own flags go after \`--\`, exactly as the real node takes them. Without any, the devnet serves HTTP on 127.0.0.1:8545 and WS on 127.0.0.1:8546 (free ports when those are taken) and IPC at <datadir>/tn.ipc (not the node's default /tmp/tn.ipc, so it never takes a real node's socket). Node flags without --ipcpath get that same IPC path.

Foreground by default: logs on stderr, Ctrl-C stops the node cleanly with the chain saved. With --detach the node keeps running in the background (log: <datadir>/node.log); stop it with \`tnv devnet stop\`. The dev accounts and governance key printed are PUBLIC devnet keys.`
  static override examples = [
    {
      description: 'Start in the background with the default endpoints:',
      command: '<%= config.bin %> <%= command.id %> --detach',
    },
    {
      description: 'Short epochs, blocks only on demand:',
      command: '<%= config.bin %> <%= command.id %> --detach --epoch-blocks 5 --block-time 0',
    },
    {
      description: 'With node flags:',
      command: `<%= config.bin %> <%= command.id %> -- --http --http.port 9545 --ws --ws.port 9546 --workers 2`,
    },
  ]
  static override usage =
    '<%= command.id %> [--json] [--datadir <dir>] [--detach] [--epoch-blocks <n>] [--block-time <s>] [--ready-timeout <value>] [-- <node flags>...]'
  static override strict = false
  static override flags = {
    ...devnetDirFlag,
    detach: Flags.boolean({ summary: 'Leave the devnet running in the background (log: <datadir>/node.log).' }),
    'epoch-blocks': Flags.integer({
      summary: 'Blocks per epoch (a resumed devnet changes it from the next epoch).',
      min: 2,
      helpValue: '<n>',
    }),
    'block-time': Flags.integer({
      summary: 'Seconds between idle blocks; 0 = blocks only for transactions and on demand.',
      min: 0,
      helpValue: '<s>',
    }),
    'ready-timeout': Flags.integer({ summary: 'Seconds to wait for the node to serve.', default: 90, min: 1 }),
  }

  async run(): Promise<DevnetStartResult | undefined> {
    const { splitNodeArgs, strayFlags } = await import('../../lib/rpc/node-args.js')
    const { NodeFlagsWithoutSeparatorError } = await import('../../lib/rpc/errors.js')
    const { own, node } = splitNodeArgs(this.argv)
    const stray = strayFlags(own, DevnetStart.flags)
    if (stray.length > 0) throw new NodeFlagsWithoutSeparatorError('devnet start', stray, EXAMPLE)
    const { flags, argv } = await this.parse(DevnetStart, own)
    if (argv.length > 0) throw new NodeFlagsWithoutSeparatorError('devnet start', argv.map(String), EXAMPLE)
    const dir = flags.datadir

    const { UsageError } = await import('../../lib/errors.js')
    const given = node ?? []
    const named = given.map((f) => f.split('=')[0])
    for (const own of ['--datadir', '--chain']) {
      if (named.includes(own)) {
        throw new UsageError(`${own} is set by \`tnv devnet start\` itself and cannot be given after \`--\`.`, {
          fix:
            own === '--datadir'
              ? 'Give the devnet directory as --datadir before `--`.'
              : 'Remove it: the devnet is always --chain dev.',
        })
      }
    }
    const { defaultDevnetNodeFlags, withDevnetIpcPath } = await import('../../devnet/node/default-node-flags.js')
    const nodeFlags = given.length > 0 ? withDevnetIpcPath(given, dir) : await defaultDevnetNodeFlags(dir)

    // The node would refuse these flags: say so now, with the resolver's own words.
    const { resolveRpcPlan } = await import('../../lib/rpc/resolve.js')
    const plan = resolveRpcPlan(nodeFlags)
    if (!plan.ok) {
      const { NodeStartRefusedError } = await import('../../devnet/node/errors.js')
      throw new NodeStartRefusedError(plan.errors)
    }
    for (const w of plan.warnings) this.note(`warning: ${w}`)

    const { startDevnet } = await import('../../devnet/node/start-devnet.js')
    const { PUBLIC_KEYS_NOTICE } = await import('../../devnet/node/devnet-status.js')
    const { findRunningDevnet } = await import('../../devnet/node/runtime-file.js')
    const running = await findRunningDevnet(dir)
    if (running.info) {
      const { DevnetAlreadyRunningError } = await import('../../devnet/node/errors.js')
      throw new DevnetAlreadyRunningError(dir, running.info.pid, running.info.rpcUrl)
    }
    this.note(`starting the devnet in ${dir}${flags.detach ? '' : ' (Ctrl-C stops it)'}`)
    const started = await startDevnet({
      dir,
      nodeFlags,
      epochBlocks: flags['epoch-blocks'],
      blockTime: flags['block-time'],
      detach: flags.detach,
      readyTimeoutMs: flags['ready-timeout'] * 1000,
      onLog: (line) => this.note(`  node | ${line}`),
    })
    const { engine: _internal, ...info } = started.info
    const result: DevnetStartResult = {
      ...info,
      datadir: dir,
      nodeArgs: started.args,
      logFile: started.logFile,
      keysNotice: PUBLIC_KEYS_NOTICE,
    }
    this.printReady(result)
    if (!started.child || !started.exited) return result

    // Foreground: stay until the node stops (Ctrl-C reaches it directly; SIGTERM is passed on).
    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    const child = started.child
    const forward = () => child.kill('SIGTERM')
    process.on('SIGINT', forward)
    process.on('SIGTERM', forward)
    const { code, signal } = await started.exited
    this.note(`devnet node exited (${signal ?? `exit code ${code}`})`)
    if (code) process.exitCode = code
    return undefined
  }

  private printReady(r: DevnetStartResult): void {
    this.out(`devnet running (pid ${r.pid}) in ${r.datadir}`)
    this.out(`  chain id  ${r.chainId}`)
    if (r.rpcUrl) this.out(`  http      ${r.rpcUrl}`)
    if (r.wsUrl) this.out(`  ws        ${r.wsUrl}`)
    if (r.ipcPath) this.out(`  ipc       ${r.ipcPath}`)
    if (r.logFile) this.out(`  log       ${r.logFile}`)
    this.out(`  governance ${r.governance.address}`)
    this.out(`  ${r.accounts.length} funded dev accounts; keys: \`tnv devnet status\` (PUBLIC devnet keys)`)
    this.out(r.logFile ? 'Stop it with `tnv devnet stop`.' : 'Ctrl-C stops it.')
  }
}
