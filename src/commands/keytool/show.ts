import { datadirFlag, passphraseFlags, quietFlag } from '../../cli/flags/common.js'
import { KeytoolCommand } from '../../cli/keytool-command.js'
import type { DescribeNodeReturnType } from '../../lib/keys/describe-node.js'

export default class Show extends KeytoolCommand {
  static override summary =
    "(tnv extra) Show the node's public identity, node-info.yaml's form and which node releases read it, and the key files."
  static override description =
    "Reads node-info.yaml and the key files' metadata only (never a secret): name, keys, address, whether the proof of possession verifies, peer ids, addresses, RPC endpoints, the node-info.yaml form (the released node's worker: map or the specification's workers: list) and which node releases read it, whether the file is byte for byte what the node writes, whether the key is encrypted, and the file modes (node-keys/ should be 0700, key files 0600). It reads no key, so it needs no passphrase: --bls-passphrase-source is accepted and ignored (the node's keytool has no show command)."
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ./node1',
    '<%= config.bin %> <%= command.id %> --json',
  ]
  static override flags = { ...datadirFlag, ...passphraseFlags, ...quietFlag }

  async run(): Promise<DescribeNodeReturnType> {
    const { flags } = await this.parse(Show)
    this.quiet = flags.quiet
    const [{ describeNode }, { formatIdentity }] = await Promise.all([
      import('../../lib/keys/describe-node.js'),
      import('../../lib/keys/identity.js'),
    ])
    await this.lockDatadir(flags.datadir)
    const d = await describeNode({ datadir: flags.datadir })
    const form = d.nodeInfoForm
    this.logLine(`Node identity from ${d.nodeInfo}:`)
    this.out(
      formatIdentity(d, [
        [
          'PoP valid',
          d.proofOfPossessionValid
            ? `yes, for ${d.executionAddress}`
            : `NO: it does not verify for ${d.executionAddress} (run tnv keytool generate pop)`,
        ],
        ['node-info form', `${form.summary}`],
        [
          'node-info layout',
          form.writtenAsNodeWrites
            ? 'byte for byte as the node writes it'
            : 'readable by the node, but not byte for byte what it writes (the next rewrite normalises it)',
        ],
        [
          'key file',
          d.keyFile
            ? `${d.keyFile.path} (${d.keyFile.encrypted ? 'encrypted' : 'NOT encrypted'}, mode ${d.keyFile.mode})`
            : 'none',
        ],
        ['node-keys/', d.nodeKeysDir ? `mode ${d.nodeKeysDir.mode}` : 'missing'],
        ...d.seedFiles.map((f): [string, string] => [f.path.slice(f.path.lastIndexOf('/') + 1), `mode ${f.mode}`]),
      ]).join('\n'),
    )
    if (!form.readBy.releasedNode)
      this.warnLine(
        `${d.nodeInfo} is in the specification's form (p2p_info.workers: a list), which the released node (v0.14.0-adiri and main) cannot read ("missing field \`worker\`").${d.workers.length === 1 ? ` Convert it for that node: tnv keytool convert --to worker --datadir ${flags.datadir}` : ' It lists several workers; the released node runs one worker only.'}`,
      )
    for (const w of d.warnings) this.warnLine(w)
    return d
  }
}
