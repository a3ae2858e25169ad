import { Flags } from '@oclif/core'
import { checkFlag } from '../../cli/flags/check.js'
import { datadirFlag, passphraseFlags, quietFlag } from '../../cli/flags/common.js'
import type { KeytoolCheckResult } from '../../cli/keytool-check.js'
import { KeytoolCommand } from '../../cli/keytool-command.js'
import type { ConvertNodeInfoReturnType } from '../../lib/keys/convert-node-info.js'
import { NODE_INFO_FORMS } from '../../lib/nodeinfo/types.js'

export default class Convert extends KeytoolCommand {
  static override summary =
    "(tnv extra) Rewrite node-info.yaml in the released node's worker: map or the specification's workers: list."
  static override description =
    'The released node (v0.14.0-adiri and main) reads only p2p_info.worker (one map) and refuses a workers: list ("missing field `worker`"); the specification\'s release reads both and writes the list. `--to worker` makes a one-worker file readable by both; `--to workers` writes the specification\'s list. Everything else is kept, byte for byte as the node writes it; the old file is kept in a backup-<time>/ directory. Needs no key and no passphrase. A file with several workers cannot become a worker: map.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --to worker --datadir ./node1',
    '<%= config.bin %> <%= command.id %> --to workers --datadir ./node1 --json',
  ]
  static override flags = {
    to: Flags.option({
      options: NODE_INFO_FORMS,
      required: true,
      summary: "Target form: worker (one map, read by both releases) or workers (the specification's list).",
    })(),
    ...datadirFlag,
    // accepted like the node's global flag, and ignored: no key is read
    ...passphraseFlags,
    ...quietFlag,
    ...checkFlag,
  }

  async run(): Promise<ConvertNodeInfoReturnType | KeytoolCheckResult> {
    const { flags } = await this.parse(Convert)
    this.quiet = flags.quiet
    const [{ convertNodeInfo }, { describeForm }] = await Promise.all([
      import('../../lib/keys/convert-node-info.js'),
      import('../../lib/nodeinfo/forms.js'),
    ])
    if (flags.check) {
      const check = await import('../../cli/keytool-check.js')
      const r = await convertNodeInfo({ datadir: flags.datadir, form: flags.to, check: true })
      const result = r.changed
        ? check.checkResult(
            await check.planFiles([{ path: r.nodeInfo, mode: 0o644 }]),
            `would rewrite ${r.nodeInfo} as ${r.form} (now ${r.previousForm}; the old file kept in backup-<time>/)`,
          )
        : check.checkResult([], `${r.nodeInfo} already is in the ${r.form} form, as the node writes it`)
      for (const line of check.checkLines(result)) this.out(line)
      return result
    }
    await this.lockDatadir(flags.datadir)
    const r = await convertNodeInfo({ datadir: flags.datadir, form: flags.to })
    if (!r.changed) this.out(`${r.nodeInfo} already is in this form, as the node writes it; nothing was changed.`)
    else
      this.out(
        `OK  node-info.yaml updated: ${r.nodeInfo}\n    form: ${r.previousForm === r.form ? `${r.form} (layout normalised)` : `${r.previousForm} -> ${r.form}`}`,
      )
    this.logLine(`Now ${describeForm(r.form).summary}.`)
    if (r.backupDir) this.logLine(`The previous file is kept in ${r.backupDir}.`)
    return r
  }
}
