import { Flags } from '@oclif/core'
import { checkFlag } from '../../cli/flags/check.js'
import { datadirFlag, passphraseFlags, quietFlag } from '../../cli/flags/common.js'
import { nodeInfoFormFlag } from '../../cli/flags/keytool.js'
import type { KeytoolCheckResult } from '../../cli/keytool-check.js'
import { KeytoolCommand } from '../../cli/keytool-command.js'
import { UsageError } from '../../lib/errors.js'
import type { NodeInfoForm, RpcEndpoints } from '../../lib/nodeinfo/types.js'

export type SetRpcResult = {
  nodeInfo: string
  worker: number
  rpc: RpcEndpoints | null
  previous: RpcEndpoints | null
  changed: boolean
  /** The node-info.yaml form before and after (they differ only with --node-info-form). */
  previousNodeInfoForm: NodeInfoForm
  nodeInfoForm: NodeInfoForm
  /** A damaged rpc entry this rewrite replaced. */
  repaired: string[]
  backupDir?: string
}

export default class SetRpc extends KeytoolCommand {
  static override summary = 'Set or clear the RPC endpoints the worker advertises in node-info.yaml.'
  static override description =
    "As the node's keytool: edits p2p_info.worker.rpc only, needs no key and no passphrase. --http takes an http:// or https:// URL, --ws a ws:// or wss:// URL and needs --http; URLs are stored normalised as the node stores them (a bare host gets a trailing /), at most 2048 bytes each. --clear removes them and conflicts with both. The file keeps its form (the released node's worker: map stays a map). tnv extras: --worker N for the specification's workers: list, --node-info-form, the backup-<time>/ copy of the old file, and repairing a damaged rpc entry."
  static override examples = [
    '<%= config.bin %> <%= command.id %> --http https://rpc.example.org --ws wss://rpc.example.org/ws --datadir ./node1',
    '<%= config.bin %> <%= command.id %> --clear --datadir ./node1',
  ]
  static override flags = {
    http: Flags.string({ summary: 'HTTP(S) RPC URL to advertise.', helpValue: '<url>' }),
    ws: Flags.string({ summary: 'WebSocket RPC URL to advertise (needs --http).', helpValue: '<url>' }),
    clear: Flags.boolean({ summary: 'Remove the advertised RPC endpoints.' }),
    worker: Flags.integer({
      summary: '(tnv extra) Which worker of a workers: list (0 is the first; the released node has only 0).',
      default: 0,
      min: 0,
    }),
    ...nodeInfoFormFlag,
    ...datadirFlag,
    // the node's global flag: accepted (scripts pass it to every keytool command) and ignored
    ...passphraseFlags,
    ...quietFlag,
    ...checkFlag,
  }

  async run(): Promise<SetRpcResult | KeytoolCheckResult> {
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
    const [{ checkRpcEndpoints }, { setWorkerRpc }, { describeForm }] = await Promise.all([
      import('../../lib/nodeinfo/rpc-url.js'),
      import('../../lib/keys/set-rpc.js'),
      import('../../lib/nodeinfo/forms.js'),
    ])
    const rpc = flags.clear
      ? null
      : (checkRpcEndpoints({ http: flags.http, ws: flags.ws }, { http: '--http', ws: '--ws' }) ?? null)
    if (flags.check) {
      const check = await import('../../cli/keytool-check.js')
      const r = await setWorkerRpc({
        datadir: flags.datadir,
        worker: flags.worker,
        rpc,
        ...(flags['node-info-form'] ? { form: flags['node-info-form'] } : {}),
        check: true,
      })
      const who = r.worker === 0 ? 'worker' : `worker ${r.worker}`
      const what = rpc ? `${who} rpc ${describe(rpc)}` : `no ${who} rpc`
      const result = r.changed
        ? check.checkResult(
            await check.planFiles([{ path: r.nodeInfo, mode: 0o644 }]),
            `would write ${what} to ${r.nodeInfo} (the old file kept in backup-<time>/)`,
          )
        : check.checkResult([], `${r.nodeInfo} already has ${what}`)
      for (const line of check.checkLines(result)) this.out(line)
      return result
    }
    await this.lockDatadir(flags.datadir)
    const r = await setWorkerRpc({
      datadir: flags.datadir,
      worker: flags.worker,
      rpc,
      ...(flags['node-info-form'] ? { form: flags['node-info-form'] } : {}),
    })
    const who = r.worker === 0 ? 'worker' : `worker ${r.worker}`
    if (r.repaired.length > 0)
      this.warnLine(`${r.nodeInfo} had a damaged ${r.repaired.join(', ')}; it is replaced now.`)
    else if (r.previous && rpc) this.warnLine(`overwriting existing ${who} RPC endpoint (${describe(r.previous)}).`)
    else if (r.previous) this.warnLine(`cleared existing ${who} RPC endpoint (${describe(r.previous)}).`)
    if (r.form !== r.previousForm)
      this.warnLine(`node-info.yaml changes form as asked: now ${describeForm(r.form).summary}.`)
    else if (r.form === 'workers') this.warnLine(`node-info.yaml keeps its form: ${describeForm(r.form).summary}.`)
    if (!r.changed) {
      this.out(
        `${r.nodeInfo} already has ${rpc ? `${who} rpc ${describe(rpc)}` : `no ${who} rpc`}; nothing was changed.`,
      )
    } else {
      const lines = [`OK  node-info.yaml updated: ${r.nodeInfo}`]
      if (r.rpc) {
        lines.push(`    ${who} rpc http: ${r.rpc.http}`)
        if (r.rpc.ws) lines.push(`    ${who} rpc ws:   ${r.rpc.ws}`)
      } else lines.push(`    ${who} rpc: cleared`)
      this.out(lines.join('\n'))
      if (r.backupDir) this.logLine(`The previous file is kept in ${r.backupDir}.`)
    }
    return {
      nodeInfo: r.nodeInfo,
      worker: r.worker,
      rpc: r.rpc,
      previous: r.previous,
      changed: r.changed,
      previousNodeInfoForm: r.previousForm,
      nodeInfoForm: r.form,
      repaired: r.repaired,
      ...(r.backupDir ? { backupDir: r.backupDir } : {}),
    }
  }
}

function describe(e: RpcEndpoints): string {
  return e.ws ? `http ${e.http}, ws ${e.ws}` : `http ${e.http}`
}
