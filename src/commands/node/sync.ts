import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { datadirFlag } from '../../cli/flags/common.js'
import { CHAIN_NAMES } from '../../lib/chain/presets.js'
import type { WaitForSyncReturnType } from '../../lib/node/sync.js'

export default class NodeSync extends BaseCommand {
  static override summary = 'Wait until the local node has caught up with the network.'
  static override description =
    `eth_syncing always returns false on this node, so tnv compares the local node with the network's public endpoint and waits until the two match and keep advancing together: by the latest consensus header number (tn_latestConsensusHeader, or the older alias tn_latestHeader) when both serve it, as the real tools do, else by eth_blockNumber. A local tn_nodeMode of CvvInactive (catching up) is never synced. The local endpoint is the node tnv started for --datadir unless --rpc-url is given; the network endpoint comes from --network-url, or from --chain (devnet, the default as everywhere in tnv: the running devnet; testnet/adiri: https://rpc.adiri.tel; mainnet: none is published, give --network-url). A failure names the end that failed: your node's endpoint, or the network's.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ./validator --chain testnet',
    '<%= config.bin %> <%= command.id %> --rpc-url http://127.0.0.1:8545 --network-url https://rpc.adiri.tel --timeout 3600',
  ]
  static override flags = {
    ...datadirFlag,
    'rpc-url': Flags.string({ summary: "The local node's HTTP endpoint or IPC path.", helpValue: '<url|path>' }),
    'network-url': Flags.string({
      summary: 'A public endpoint of the network to compare with.',
      env: 'TN_NETWORK_RPC_URL',
      helpValue: '<url>',
    }),
    chain: Flags.option({
      summary: 'Network whose public endpoint to compare with (devnet by default, like every tnv command).',
      options: CHAIN_NAMES,
      env: 'TN_CHAIN',
      default: 'devnet' as const,
    })(),
    timeout: Flags.integer({ summary: 'Seconds to wait before giving up.', default: 600, min: 1 }),
    tolerance: Flags.integer({
      summary: 'Blocks of difference still counted as matching (polls are not simultaneous).',
      default: 2,
      min: 0,
    }),
    interval: Flags.integer({ summary: 'Seconds between polls.', default: 2, min: 1 }),
  }

  async run(): Promise<WaitForSyncReturnType> {
    const { flags } = await this.parse(NodeSync)
    const { resolveSyncEndpoints } = await import('../../lib/node/status.js')
    const { waitForSync } = await import('../../lib/node/sync.js')
    const { defaultDevnetDir } = await import('../../lib/chain/devnet-runtime-file.js')
    const { localUrl, networkUrl, idleChain } = await resolveSyncEndpoints({
      datadir: flags.datadir,
      rpcUrl: flags['rpc-url'],
      networkUrl: flags['network-url'],
      chain: flags.chain,
      devnetDir: defaultDevnetDir(this.session.env),
    })
    this.note(`comparing ${localUrl} with ${networkUrl}`)
    const result = await waitForSync({
      localUrl,
      networkUrl,
      tolerance: BigInt(flags.tolerance),
      intervalMs: flags.interval * 1000,
      timeoutMs: flags.timeout * 1000,
      allowIdleChain: idleChain,
      onProgress: (p) => {
        if (this.jsonEnabled()) return
        this.note(
          `local ${p.local}  network ${p.network}  behind ${p.behind}  matching ${p.matching}/${p.needed}  (${p.method}${p.nodeMode ? `, mode ${p.nodeMode}` : ''})`,
        )
      },
    })
    this.out(
      `synced at ${result.method === 'eth_blockNumber' ? 'block' : 'consensus header'} ${result.local} (network ${result.network}; ${result.method}${result.nodeMode ? `, mode ${result.nodeMode}` : ''})`,
    )
    return result
  }
}
