import { resolve } from 'node:path'
import { Flags, type Interfaces } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { DEFAULT_ENGINE_HISTORY_BLOCKS, MIN_ENGINE_HISTORY_BLOCKS } from '../../devnet/chain/engine-compaction.js'
import { devnetDirFlag } from '../../devnet/node/cli-flags.js'
import type { DevnetRuntimeInfo } from '../../devnet/paths.js'
import { defaultDevnetDir } from '../../lib/chain/devnet-dir.js'

const EXAMPLE = 'tnv devnet start -- --http --http.port 8545 --http.api eth,net,web3,rpc,tn'

export type DevnetStartResult = Omit<DevnetRuntimeInfo, 'engine' | 'governance'> & {
  datadir: string
  nodeArgs: string[]
  logFile: string | null
  keysNotice: string
  /** Things the operator should know (a real network's chain id, a deprecated flag). */
  warnings: string[]
}

export default class DevnetStart extends BaseCommand {
  static override summary = 'Start a local rehearsal of the network: the reference node on the real registry code.'
  static override description =
    `Runs the reference node on the devnet directory, in front of a chain that runs the REAL ConsensusRegistry code, in one of three ways:

By default, the embedded devnet: the next registry generation from the node's genesis (networks/next/genesis.yaml), its placeholder committee, and 10 funded dev accounts; 10-second epochs (a rehearsal setting).

With --genesis NAME, a node genesis: adiri (the registry live on the test network), next, or the path of a genesis.yaml; the registry's own epoch length unless --epoch-seconds.

With --fork-url URL, a local fork of a live chain (anvil fork mode, pinned at --fork-block or the latest block): today's committee and state; nothing is ever sent upstream, reads are few and cached in the devnet directory.

Every rehearsal runs under tnv's rehearsal chain id 911329 unless --chain-id says otherwise: transactions and signatures made under a real network's chain id (2017 adiri, 487 mainnet) are valid there too. The EVM BLS verifier is installed at 0x…b151 where the registry calls the node's precompile. Epochs end by time, as the node ends them (epoch start + epochDuration seconds), with the node's system calls. Governance is rehearsed by impersonating the registry's owner (\`tnv devnet governance …\`, REHEARSAL-ONLY). A directory that already holds a devnet resumes it.

The node's own flags go after \`--\`, exactly as the real node takes them. Without any, the devnet serves HTTP on 127.0.0.1:8545 and WS on 127.0.0.1:8546 (free ports when those are taken) and IPC at <datadir>/tn.ipc. Foreground by default (Ctrl-C stops it, chain saved); --detach keeps it running (log: <datadir>/node.log; stop with \`tnv devnet stop\`). The dev account keys are PUBLIC devnet keys.`
  static override examples = [
    {
      description: 'The embedded devnet in the background:',
      command: '<%= config.bin %> <%= command.id %> --detach',
    },
    {
      description: 'Rehearse on the registry live on the test network, with 30-second epochs:',
      command: '<%= config.bin %> <%= command.id %> --detach --genesis adiri --epoch-seconds 30',
    },
    {
      description: 'Fork the test network at a block (nothing is sent to it):',
      command: '<%= config.bin %> <%= command.id %> --detach --fork-url https://rpc.adiri.tel --fork-block 1200000',
    },
    {
      description: 'With node flags:',
      command: `<%= config.bin %> <%= command.id %> -- --http --http.port 9545 --ws --ws.port 9546 --workers 2`,
    },
  ]
  static override usage =
    '<%= command.id %> [--json] [--datadir <dir>] [--detach] [--genesis <adiri|next|file> | --fork-url <url> [--fork-block <n>]] [--chain-id <id|genesis>] [--epoch-seconds <s>] [--block-time <s>] [--history-blocks <n>] [--ready-timeout <s>] [-- <node flags>...]'
  static override strict = false
  static override flags = {
    ...devnetDirFlag,
    detach: Flags.boolean({ summary: 'Leave the devnet running in the background (log: <datadir>/node.log).' }),
    genesis: Flags.string({
      summary: 'Rehearse from a node genesis: adiri, next, or the path of a genesis.yaml.',
      helpValue: '<adiri|next|file>',
      defaultHelp: async () => 'the embedded devnet (next generation)',
      exclusive: ['fork-url'],
    }),
    'fork-url': Flags.string({
      summary: "Rehearse on a local fork of a live chain (its JSON-RPC endpoint; kept off the node's command line).",
      helpValue: '<url>',
      exclusive: ['genesis'],
    }),
    'fork-block': Flags.string({
      summary: 'The block to fork at (then kept when the devnet resumes).',
      helpValue: '<n>',
      defaultHelp: async () => 'the latest block',
      dependsOn: ['fork-url'],
    }),
    'chain-id': Flags.string({
      summary:
        "The rehearsal's chain id; `genesis` for the genesis file's or the forked chain's (a real network's id gets a warning).",
      helpValue: '<id|genesis>',
      defaultHelp: async () => '911329',
    }),
    'epoch-seconds': Flags.integer({
      summary: "REHEARSAL SETTING: epoch length in seconds instead of the registry's epochDuration.",
      min: 1,
      max: 4_294_967_295,
      helpValue: '<s>',
      defaultHelp: async () => "10 for the embedded devnet; the registry's epochDuration for --genesis and --fork-url",
    }),
    'block-time': Flags.integer({
      summary: 'Seconds without a block before an idle block is mined; 0 = blocks only for transactions.',
      min: 0,
      helpValue: '<s>',
      defaultHelp: async () => '1',
    }),
    'history-blocks': Flags.integer({
      summary:
        "Blocks the engine keeps: when it holds twice as many, it is restarted on its state with older blocks dropped (bounds the devnet's memory).",
      min: MIN_ENGINE_HISTORY_BLOCKS,
      helpValue: '<n>',
      defaultHelp: async () => String(DEFAULT_ENGINE_HISTORY_BLOCKS),
    }),
    'epoch-blocks': Flags.integer({
      summary: 'Deprecated: epochs end by time now. Taken as --epoch-seconds <n × block time>.',
      min: 1,
      hidden: true,
    }),
    'ready-timeout': Flags.integer({
      summary: 'Seconds to wait for the node to serve.',
      default: 90,
      min: 1,
      helpValue: '<s>',
    }),
  }

  async run(): Promise<DevnetStartResult | undefined> {
    const { flags, given } = await this.parseArgs()
    const warnings: string[] = []
    const warn = (w: string) => {
      warnings.push(w)
      this.note(`warning: ${w}`)
    }
    const [{ devnetStartOptions }, { launchDevnet }, { PUBLIC_KEYS_NOTICE }] = await Promise.all([
      import('../../devnet/node/start-options.js'),
      import('../../devnet/node/launch-devnet.js'),
      import('../../devnet/node/devnet-status.js'),
    ])
    const values = devnetStartOptions(
      {
        givenNodeFlags: given,
        chainId: flags['chain-id'],
        forkBlock: flags['fork-block'],
        epochSeconds: flags['epoch-seconds'],
        epochBlocks: flags['epoch-blocks'],
        blockTime: flags['block-time'],
      },
      warn,
    )
    const started = await launchDevnet({
      dir: flags.datadir,
      givenNodeFlags: given,
      genesis: flags.genesis,
      forkUrl: flags['fork-url'],
      forkBlock: values.forkBlock,
      chainId: values.chainId,
      epochSeconds: values.epochSeconds,
      blockTime: flags['block-time'],
      historyBlocks: flags['history-blocks'],
      detach: flags.detach,
      readyTimeoutMs: flags['ready-timeout'] * 1000,
      onLog: (line) => this.note(`  node | ${line}`),
      note: (line) => this.note(line),
      warn,
    })
    const { engine: _internal, governance: _none, ...info } = started.info
    const result: DevnetStartResult = {
      ...info,
      datadir: flags.datadir,
      nodeArgs: started.args,
      logFile: started.logFile,
      keysNotice: PUBLIC_KEYS_NOTICE,
      warnings,
    }
    this.printReady(result)
    if (!started.child || !started.exited) return result
    // the foreground: stay until the node stops
    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    const { waitForDevnetNode } = await import('../../cli/devnet-foreground.js')
    const code = await waitForDevnetNode(started.child, started.exited, (line) => this.note(line))
    if (code) process.exitCode = code
    return undefined
  }

  /** tnv's own flags before `--`, the node's after it; a node flag before `--` is refused with the example. */
  private async parseArgs(): Promise<{ flags: DevnetStartFlags; given: string[] }> {
    const [{ splitNodeArgs, strayFlags }, { NodeFlagsWithoutSeparatorError }] = await Promise.all([
      import('../../lib/rpc/node-args.js'),
      import('../../lib/rpc/errors.js'),
    ])
    const { own, node } = splitNodeArgs(this.argv)
    const stray = strayFlags(own, DevnetStart.flags)
    if (stray.length > 0) throw new NodeFlagsWithoutSeparatorError('devnet start', stray, EXAMPLE)
    const { flags, argv } = await this.parse(DevnetStart, own)
    if (argv.length > 0) throw new NodeFlagsWithoutSeparatorError('devnet start', argv.map(String), EXAMPLE)
    const given = node ?? []
    return { flags, given }
  }

  private printReady(r: DevnetStartResult): void {
    const what =
      r.source.kind === 'fork' && r.source.fork
        ? `fork of ${r.source.fork.url} (chain id ${r.source.fork.upstreamChainId}) at block ${r.source.fork.blockNumber}`
        : r.source.kind === 'embedded'
          ? `embedded (${r.source.genesis?.path})`
          : `genesis ${r.source.genesis?.name ?? r.source.genesis?.path}`
    this.out(`devnet running (pid ${r.pid}) in ${r.datadir}`)
    this.out(`  runs        ${what}`)
    this.out(`  registry    ${r.generation} generation, code hash ${r.registryCodeHash} (${r.registryCodeMatch})`)
    if (r.blsVerifier) this.out(`  BLS verify  EVM verifier at ${r.blsVerifier} (stands in for the node's precompile)`)
    this.out(`  chain id    ${r.chainId}${r.chainId === 911329 ? ' (tnv rehearsal id)' : ''}`)
    this.out(
      `  epochs      ${r.epochSeconds === null ? "the registry's epochDuration (seconds)" : `${r.epochSeconds} s (REHEARSAL setting)`}`,
    )
    if (r.rpcUrl) this.out(`  http        ${r.rpcUrl}`)
    if (r.wsUrl) this.out(`  ws          ${r.wsUrl}`)
    if (r.ipcPath) this.out(`  ipc         ${r.ipcPath}`)
    if (r.logFile) this.out(`  log         ${r.logFile}`)
    this.out(`  governance  owner ${r.owner}: REHEARSAL-ONLY by impersonation (\`tnv devnet governance --help\`)`)
    this.out(`  ${r.accounts.length} funded dev accounts; keys: \`tnv devnet status\` (PUBLIC devnet keys)`)
    // a devnet outside the default directory is found by the other commands only through TNV_DEVNET_DIR
    const elsewhere = resolve(r.datadir) !== resolve(defaultDevnetDir(process.env))
    if (elsewhere) this.out(`Other tnv commands find this devnet with: export TNV_DEVNET_DIR=${r.datadir}`)
    if (!r.logFile) this.out('Ctrl-C stops it.')
    else
      this.out(
        elsewhere ? `Stop it with \`tnv devnet stop --datadir ${r.datadir}\`.` : 'Stop it with `tnv devnet stop`.',
      )
  }
}

type DevnetStartFlags = Interfaces.InferredFlags<typeof DevnetStart.flags>
