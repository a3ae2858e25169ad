import { Flags } from '@oclif/core'
import { UsageError } from '../../lib/errors.js'
import { datadirFlag, quietFlag } from '../../lib/flags.js'
import { KeytoolCommand } from '../../lib/keys/keytool-command.js'
import type { RpcEndpoints } from '../../lib/nodeinfo/types.js'

export type SetRpcResult = {
  nodeInfo: string
  worker: number
  rpc: RpcEndpoints | null
  previous: RpcEndpoints | null
  changed: boolean
  backupDir?: string
}

export default class SetRpc extends KeytoolCommand {
  static override summary = 'Set or clear the RPC endpoints a worker advertises in node-info.yaml.'
  static override description =
    'The only keytool command that needs no passphrase source: it reads and rewrites node-info.yaml only (the old file is kept in a backup-<time>/ directory). --http takes an http:// or https:// URL, --ws a ws:// or wss:// URL and needs --http; at most 2048 characters each. --clear removes them and conflicts with both.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --http https://rpc.example.org --ws wss://rpc.example.org/ws --datadir ./node1',
    '<%= config.bin %> <%= command.id %> --clear --datadir ./node1',
  ]
  static override flags = {
    http: Flags.string({ summary: 'HTTP(S) RPC URL to advertise.', helpValue: '<url>' }),
    ws: Flags.string({ summary: 'WebSocket RPC URL to advertise (needs --http).', helpValue: '<url>' }),
    clear: Flags.boolean({ summary: 'Remove the advertised RPC endpoints.' }),
    worker: Flags.integer({ summary: 'Which worker (0 is the first).', default: 0, min: 0 }),
    ...datadirFlag,
    ...quietFlag,
  }

  async run(): Promise<SetRpcResult> {
    const { flags } = await this.parse(SetRpc)
    this.quiet = flags.quiet
    if (flags.clear && (flags.http !== undefined || flags.ws !== undefined))
      throw new UsageError('--clear conflicts with --http and --ws: it removes the endpoints.', {
        fix: 'Pass either --clear, or --http [--ws].',
      })
    if (!flags.clear && flags.http === undefined && flags.ws === undefined)
      throw new UsageError('set-rpc needs --http <url> (optionally with --ws <url>), or --clear.', {
        fix: 'e.g. `tnv keytool set-rpc --http https://rpc.example.org`, or `tnv keytool set-rpc --clear`.',
      })
    const [{ checkRpcEndpoints }, { setWorkerRpc }] = await Promise.all([
      import('../../lib/nodeinfo/rpc-url.js'),
      import('../../lib/keys/set-rpc.js'),
    ])
    const rpc = flags.clear
      ? null
      : (checkRpcEndpoints({ http: flags.http, ws: flags.ws }, { http: '--http', ws: '--ws' }) ?? null)
    const r = await setWorkerRpc({ datadir: flags.datadir, worker: flags.worker, rpc })
    const describe = (e: RpcEndpoints | null) => (e ? (e.ws ? `http ${e.http}, ws ${e.ws}` : `http ${e.http}`) : 'none')
    if (!r.changed) this.logLine(`Worker ${r.worker} already advertises ${describe(r.rpc)}; nothing was changed.`)
    else this.logLine(`Updated ${r.nodeInfo}${r.backupDir ? ` (previous file kept in ${r.backupDir})` : ''}.`)
    this.out(`worker ${r.worker} rpc: ${describe(r.rpc)}`)
    return {
      nodeInfo: r.nodeInfo,
      worker: r.worker,
      rpc: r.rpc,
      previous: r.previous,
      changed: r.changed,
      ...(r.backupDir ? { backupDir: r.backupDir } : {}),
    }
  }
}
