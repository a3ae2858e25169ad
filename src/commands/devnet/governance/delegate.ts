import { statSync } from 'node:fs'
import { dirname } from 'node:path'
import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../../cli/base-command.js'
import { passphraseFlags } from '../../../cli/flags/common.js'
import type { GovernanceResult } from '../../../devnet/chain/governance.js'
import { devnetDirFlag } from '../../../devnet/node/cli-flags.js'
import { GOVERNANCE_DESCRIPTION_TAIL } from '../../../devnet/node/governance-flags.js'

export default class DevnetGovernanceDelegate extends BaseCommand {
  static override summary =
    "Stake for a validator as the registry owner (owner-delegation: delegateStake without the validator's signature)."
  static override description =
    `delegateStake sent by the owner needs no validator signature: governance stakes for a whitelisted validator with the validator's BLS key and proof of possession, and becomes its delegator (the stake goes back to the owner on unstake). The key and proof come from the validator's node-info.yaml (--node-info, a file or its data directory). The next generation verifies the proof in node-info.yaml as is. The adiri registry verifies another proof (uncompressed, over its 218-byte message): for adiri, --node-info must be the validator's data directory and its BLS key is opened (passphrase from --bls-passphrase-source) to sign that proof; the secret never leaves this process. The value is the current stake amount (1,000,000 TEL on both shipped genesis files) unless --value says otherwise; the owner's TEL for it is created on the devnet for the rehearsal.

${GOVERNANCE_DESCRIPTION_TAIL}`
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0xEFF49f2E7801AaC2d51A059c103D151e012db893 --node-info ~/tn',
    'TN_BLS_PASSPHRASE=… <%= config.bin %> <%= command.id %> 0xEFF4…b893 --node-info ~/tn --json',
  ]
  static override args = { validator: Args.string({ required: true, description: 'The validator address.' }) }
  static override flags = {
    ...devnetDirFlag,
    'node-info': Flags.string({
      summary: "The validator's node-info.yaml, or its data directory (adiri: the data directory, for the key).",
      helpValue: '<path>',
      required: true,
    }),
    value: Flags.string({ summary: 'TEL to stake (default: the current stake amount).', helpValue: '<TEL>' }),
    ...passphraseFlags,
  }

  async run(): Promise<GovernanceResult> {
    const { args, flags } = await this.parse(DevnetGovernanceDelegate)
    const [{ parseAddressFlag }, { readNodeInfo }, { bytesToHex, parseEther }, errors, client, units] =
      await Promise.all([
        import('../../../lib/chain/address.js'),
        import('../../../lib/nodeinfo/read.js'),
        import('viem'),
        import('../../../lib/errors.js'),
        import('../../../devnet/node/governance-client.js'),
        import('../../../lib/chain/units.js'),
      ])
    const validator = parseAddressFlag(args.validator, 'the validator address')
    let valueWei: string | undefined
    if (flags.value !== undefined) {
      const text = flags.value.trim().replace(/\s*TEL$/i, '')
      if (!/^[0-9]+(\.[0-9]{1,18})?$/.test(text))
        throw new errors.BadInputError(`--value ${JSON.stringify(flags.value)} is not an amount of TEL.`, {
          fix: 'Pass a decimal number of TEL, e.g. 1000000.',
        })
      valueWei = parseEther(text).toString()
    }
    const { path, info } = await readNodeInfo(flags['node-info'])
    if (info.executionAddress.toLowerCase() !== validator.toLowerCase())
      throw new errors.BadInputError(
        `${path} is for ${info.executionAddress}, not ${validator}: its proof of possession binds the key to that address.`,
        {
          fix: `Pass the node-info.yaml of ${validator}, or re-sign its proof with \`tnv keytool generate pop --address ${validator}\`.`,
        },
      )
    const { findRunningDevnet } = await import('../../../devnet/node/runtime-file.js')
    const running = await findRunningDevnet(flags.datadir)
    if (!running.info) {
      const { DevnetNodeNotRunningError } = await import('../../../devnet/node/errors.js')
      throw new DevnetNodeNotRunningError(flags.datadir)
    }
    const blsPubkey = bytesToHex(info.blsPublicKey)
    let proofOfPossession: { signature: string } | { uncompressedPubkey: string; uncompressedSignature: string }
    if (running.info.generation === 'next') {
      const { verifyProofOfPossession } = await import('../../../lib/keys/pop.js')
      if (!verifyProofOfPossession({ publicKey: info.blsPublicKey, proof: info.proofOfPossession, address: validator }))
        throw new errors.BadInputError(`The proof of possession in ${path} does not verify for ${validator}.`, {
          fix: `Re-sign it: \`tnv keytool generate pop --address ${validator}\`.`,
        })
      proofOfPossession = { signature: bytesToHex(info.proofOfPossession) }
    } else {
      const datadir = statSync(flags['node-info']).isDirectory() ? flags['node-info'] : dirname(path)
      const [{ openBlsKey }, { blsPublicKey }, { adiriProofOfPossession }] = await Promise.all([
        import('../../../lib/keys/open-key.js'),
        import('../../../lib/keys/bls.js'),
        import('../../../devnet/chain/adiri-pop.js'),
      ])
      this.note(`adiri needs its own proof of possession: opening the BLS key in ${datadir} to sign it…`)
      const source = flags['bls-passphrase-source']
      const { secret } = await openBlsKey({ datadir, source, env: this.session.passphraseEnv(source) })
      try {
        if (bytesToHex(blsPublicKey(secret)) !== blsPubkey)
          throw new errors.BadInputError(`The BLS key in ${datadir} is not the key of ${path}.`, {
            fix: 'Pass the data directory whose keys node-info.yaml describes.',
          })
        const pop = adiriProofOfPossession(secret, validator)
        proofOfPossession = {
          uncompressedPubkey: pop.uncompressedPubkey,
          uncompressedSignature: pop.uncompressedSignature,
        }
      } finally {
        secret.fill(0)
      }
    }
    if (valueWei) this.note(`Staking ${units.formatTelAndWei(BigInt(valueWei))} for ${validator} (REHEARSAL-ONLY)…`)
    const r = await client.rehearseGovernance(flags.datadir, {
      action: 'delegate',
      validator,
      blsPubkey,
      proofOfPossession,
      ...(valueWei ? { valueWei } : {}),
    })
    for (const line of client.governanceLines(r)) this.out(line)
    if (r.valueWei) this.out(`  staked ${units.formatTelAndWei(BigInt(r.valueWei))}`)
    return r
  }
}
