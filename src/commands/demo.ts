import { Flags } from '@oclif/core'
import { BaseCommand } from '../lib/base-command.js'
import type { Hex } from '../lib/nodeinfo/types.js'

export type DemoResult = {
  /** Kept only with --keep. */
  dir: string | null
  blsPubkey: Hex
  proofOfPossession: Hex
  calldata: Hex
  verified: boolean
}

export default class Demo extends BaseCommand {
  static override summary =
    'Demonstrate tnv: validator keys made, shown, verified and exported in a temporary directory.'
  static override description =
    'Runs the keytool steps an operator takes, with real keys in a temporary directory that is removed afterwards (keep it with --keep): generate validator keys (passphrase through the env source), show them, verify them with the key, export the staking arguments and the stake() calldata.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --keep']
  static override flags = {
    keep: Flags.boolean({ summary: 'Keep the temporary directory and print where it is.' }),
  }

  async run(): Promise<DemoResult> {
    const { flags } = await this.parse(Demo)
    const [{ mkdtemp, rm }, { tmpdir }, { join }, { runKeysDemo }] = await Promise.all([
      import('node:fs/promises'),
      import('node:os'),
      import('node:path'),
      import('../lib/keys/demo-keys.js'),
    ])
    const dir = await mkdtemp(join(tmpdir(), 'tnv-demo-'))
    try {
      const r = await runKeysDemo({
        dir,
        address: '0x1111111111111111111111111111111111111111',
        log: (line) => this.out(line),
      })
      const verified = r.verification.ok && r.identity.proofOfPossessionValid
      this.out(verified ? 'Keys made, shown, verified and exported.' : 'The keys did not verify.')
      if (flags.keep) this.out(`Kept ${dir}`)
      return {
        dir: flags.keep ? dir : null,
        blsPubkey: r.staking.blsPubkey,
        proofOfPossession: r.staking.proofOfPossession,
        calldata: r.staking.calldata,
        verified,
      }
    } finally {
      if (!flags.keep) await rm(dir, { recursive: true, force: true })
    }
  }
}
