import { datadirFlag, passphraseFlags, quietFlag } from '../../lib/flags.js'
import type { DescribeNodeReturnType } from '../../lib/keys/describe-node.js'
import { KeytoolCommand } from '../../lib/keys/keytool-command.js'

export default class Show extends KeytoolCommand {
  static override summary =
    "Show the node's public identity: name, BLS key, address, PoP validity, peer ids, addresses, RPC, key files."
  static override description =
    "Reads node-info.yaml and the key files' metadata only (never a secret): whether the proof of possession verifies, the peer ids, whether the key is encrypted, and the file modes (node-keys/ should be 0700, key files 0600)."
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir ./node1 --bls-passphrase-source no-passphrase',
    '<%= config.bin %> <%= command.id %> --json --bls-passphrase-source no-passphrase',
  ]
  static override flags = { ...datadirFlag, ...passphraseFlags, ...quietFlag }

  async run(): Promise<DescribeNodeReturnType> {
    const { flags } = await this.parse(Show)
    this.quiet = flags.quiet
    const { requirePassphraseSource } = await import('../../lib/passphrase/read-passphrase.js')
    requirePassphraseSource({ source: flags['bls-passphrase-source'] })
    const [{ describeNode }, { formatIdentity }] = await Promise.all([
      import('../../lib/keys/describe-node.js'),
      import('../../lib/keys/identity.js'),
    ])
    const d = await describeNode({ datadir: flags.datadir })
    this.logLine(`Node identity from ${d.nodeInfo}:`)
    this.out(
      formatIdentity(d, [
        [
          'PoP valid',
          d.proofOfPossessionValid
            ? `yes, for ${d.executionAddress}`
            : `NO: it does not verify for ${d.executionAddress} (run tnv keytool generate pop)`,
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
    if (d.legacyWorkerMap)
      this.logLine(
        'node-info.yaml uses the legacy worker: map; the next generate pop or set-rpc rewrites it as a workers: list.',
      )
    for (const w of d.warnings) this.warnLine(w)
    return d
  }
}
