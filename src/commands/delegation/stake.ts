import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../../cli/flags/chain.js'
import { keyMaterialFlags } from '../../cli/flags/registry.js'
import type { DelegateStakeReturnType } from '../../lib/registry/delegate-stake.js'

export default class DelegationStake extends BaseCommand {
  static override summary = "Stake for a validator as its delegator: delegateStake with the validator's signature."

  static override description =
    `Pass the signature file the validator wrote with \`tnv delegation sign\`; you (the delegator it names) pay the stake amount of the current epoch's stake version. Checked before anything is sent: the file's network and registry generation, the signature recovers to the validator over the file's digest, the registry still computes that digest (else why not: the deadline passed, or the stake version or the validator's nonce changed), the proof of possession, the validator is whitelisted and has not staked.

Governance (the registry owner) may delegate without a signature: pass --validator with the key material (node-info.yaml or --bls-pubkey/--pop; on adiri, --adiri-pop from the validator) instead of --signature.

Safe to repeat: if the validator already staked with this key, it says so and sends nothing.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --signature delegation.json --keystore delegator.json --chain testnet',
    '<%= config.bin %> <%= command.id %> --validator 0xVALIDATOR --node-info ./validator-1 --chain devnet   # governance, no signature',
  ]

  static override flags = {
    signature: Flags.string({
      helpValue: '<file>',
      summary: 'Signature file from `tnv delegation sign`.',
      exclusive: ['validator'],
    }),
    validator: Flags.string({
      helpValue: '<address>',
      summary:
        'Governance only: the validator to stake for without a signature (key material from node-info.yaml or --bls-pubkey/--pop).',
    }),
    deadline: Flags.string({
      default: '1h',
      helpValue: '<when>',
      summary: 'Governance only, next generation: deadline of the call (default 1h from now).',
    }),
    ...keyMaterialFlags,
    ...chainFlags,
    ...signerFlags,
    ...txFlags,
  }

  async run(): Promise<DelegateStakeReturnType> {
    const { flags } = await this.parse(DelegationStake)
    const [
      { delegateStake },
      support,
      cli,
      { parseAddressFlag },
      files,
      { keyMaterialFromFlags },
      { parseDeadline },
      { formatTelAndWei },
    ] = await Promise.all([
      import('../../lib/registry/delegate-stake.js'),
      import('../../lib/registry/command-support.js'),
      import('../../cli/registry-step.js'),
      import('../../lib/chain/address.js'),
      import('../../lib/registry/delegation-file.js'),
      import('../../lib/registry/key-material.js'),
      import('../../lib/registry/deadline.js'),
      import('../../lib/chain/units.js'),
    ])
    const { DelegationSignatureRequiredError } = await import('../../lib/registry/errors.js')
    const note = (line: string) => this.note(line)
    let authority: Parameters<typeof delegateStake>[1]['authority']
    if (flags.signature !== undefined)
      authority = { kind: 'signature', file: await files.readDelegationFile(flags.signature) }
    else if (flags.validator !== undefined) {
      const keys = await keyMaterialFromFlags(flags)
      await cli.assertKeyMaterialOnDisk(this.session, keys, undefined, { check: flags.check })
      authority = {
        kind: 'owner',
        validator: parseAddressFlag(flags.validator, '--validator'),
        blsPubkey: keys.blsPubkey,
        proofOfPossession: keys.proofOfPossession,
        adiriSignature: keys.adiriSignature,
        deadline: parseDeadline(flags.deadline, BigInt(Math.floor(Date.now() / 1000))),
      }
    } else throw new DelegationSignatureRequiredError()
    const ctx = await support.openRegistryContext(flags)
    const defaultFrom = authority.kind === 'signature' ? authority.file.delegator : undefined
    const signer = await cli.signerFromFlags(this.session, flags, { action: 'delegateStake', defaultFrom })
    const result = await delegateStake(ctx, {
      signer,
      authority,
      report: this.session.reporter(),
      confirm: cli.stepConfirm(this.session, flags),
      journal: cli.stepJournal(this.session, { from: signer.address }),
    })
    const { safeBatchOfStep } = await import('../../cli/safe-output.js')
    const batch = await safeBatchOfStep(ctx, flags, result, {
      name: 'tnv delegation stake',
      out: (line) => this.out(line),
      note: (line) => this.note(line),
    })
    if (batch) return Object.assign(result, { safe: batch })
    for (const line of support.outcomeLines(
      result,
      (sent) =>
        `Staked ${formatTelAndWei(BigInt(result.stakeAmount))} for ${result.validator}, paid by ${result.delegator} (${result.registry.generation} registry): transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    ))
      this.out(line)
    if (result.outcome === 'sent') note('Next: the validator runs `tnv activate` once its node is synced.')
    return result
  }
}
