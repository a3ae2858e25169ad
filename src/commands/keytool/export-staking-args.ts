import { Flags } from '@oclif/core'
import { UsageError } from '../../lib/errors.js'
import { datadirFlag, passphraseFlags, quietFlag } from '../../lib/flags.js'
import { KeytoolCommand } from '../../lib/keys/keytool-command.js'
import type { Hex } from '../../lib/nodeinfo/types.js'

export type ExportStakingArgsResult = {
  blsPubkey: Hex
  proofOfPossession: Hex
  calldata: Hex
  executionAddress: Hex
  nodeInfo: string
}

export default class ExportStakingArgs extends KeytoolCommand {
  static override summary = 'Print the two stake() arguments (BLS public key, proof of possession) from node-info.yaml.'
  static override description =
    "Reads only node-info.yaml, never the BLS key. Before printing, it checks that the proof of possession verifies for the file's public key and execution address (the registry rejects a stake whose proof does not). --calldata prints the complete calldata of stake(bytes,(bytes)) and nothing else; --json prints the arguments and the calldata as fields."
  static override examples = [
    '<%= config.bin %> <%= command.id %> --node-info ~/.local/share/telcoin-network --bls-passphrase-source no-passphrase',
    'cast send 0x07e17e17e17e17e17e17e17e17e17e17e17e17e1 --value 1000000ether "$(<%= config.bin %> <%= command.id %> --node-info ./node1 --calldata --bls-passphrase-source no-passphrase)"',
    '<%= config.bin %> <%= command.id %> --node-info ./node1/node-info.yaml --json --bls-passphrase-source no-passphrase',
  ]
  static override flags = {
    'node-info': Flags.string({
      summary: 'node-info.yaml, or the directory holding it (default: --datadir).',
      helpValue: '<path>',
    }),
    calldata: Flags.boolean({ summary: 'Print only the complete calldata of stake(bytes,(bytes)) (not with --json).' }),
    ...datadirFlag,
    ...passphraseFlags,
    ...quietFlag,
  }

  async run(): Promise<ExportStakingArgsResult> {
    const { flags } = await this.parse(ExportStakingArgs)
    this.quiet = flags.quiet || flags.calldata
    if (flags.calldata && flags.json)
      throw new UsageError(
        '--calldata and --json cannot be used together: --calldata prints only the calldata, --json prints all fields (the calldata included).',
        {
          fix: 'Pass one of them.',
        },
      )
    const [{ requirePassphraseSource }, { exportStakingArgs }] = await Promise.all([
      import('../../lib/passphrase/read-passphrase.js'),
      import('../../lib/keys/export-staking-args.js'),
    ])
    requirePassphraseSource({ source: flags['bls-passphrase-source'] })
    const r = await exportStakingArgs({ nodeInfo: flags['node-info'] ?? flags.datadir })
    if (flags.calldata) this.out(r.calldata)
    else {
      this.logLine(
        `Staking arguments for ConsensusRegistry.stake(bytes,(bytes)) from ${r.nodeInfo}; the proof of possession verifies for ${r.executionAddress}:`,
      )
      this.out(`blsPubkey: ${r.blsPubkey}\nproofOfPossession: ${r.proofOfPossession}`)
    }
    return {
      blsPubkey: r.blsPubkey,
      proofOfPossession: r.proofOfPossession,
      calldata: r.calldata,
      executionAddress: r.executionAddress,
      nodeInfo: r.nodeInfo,
    }
  }
}
