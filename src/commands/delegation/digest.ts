import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/base-command.js'
import type { ChainInfo } from '../../lib/chain/check-chain-id.js'
import { chainFlags } from '../../lib/chain/flags.js'
import type { DelegationInputs } from '../../lib/registry/delegation-digest.js'
import { keyMaterialFlags } from '../../lib/registry/flags.js'

export type DelegationDigestResult = {
  chain: ChainInfo
  digest: `0x${string}`
  /** The digest's inputs; nonce and deadline as decimal strings. */
  inputs: Omit<DelegationInputs, 'nonce' | 'deadline'> & { nonce: string; deadline: string; deadlineIso: string }
}

export default class DelegationDigest extends BaseCommand {
  static override summary = 'Compute the EIP-712 delegation digest a validator signs for a delegator.'

  static override description =
    `Reads the current stake version and the validator's delegation nonce, computes the digest locally and checks it against the registry's delegationDigest(blsPubkey, validator, delegator, deadline). The digest binds the BLS key, validator, delegator, stake version, nonce and deadline: a change of stake version or nonce (\`tnv delegation revoke\`) invalidates signatures over it.

To sign it, use \`tnv delegation sign\` (which computes the same digest).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --delegator 0xDELEGATOR --deadline 7d --datadir ./validator-1 --chain devnet',
    '<%= config.bin %> <%= command.id %> --validator 0xVALIDATOR --bls-pubkey 0x… --pop 0x… --delegator 0xDELEGATOR --deadline 2026-01-01T00:00:00Z --chain testnet --json',
  ]

  static override flags = {
    delegator: Flags.string({
      required: true,
      helpValue: '<address>',
      summary: 'Address that will submit delegateStake and pay the stake.',
    }),
    deadline: Flags.string({
      default: '24h',
      helpValue: '<when>',
      summary: 'Unix seconds, a duration from now (90m, 24h, 7d) or an ISO date. After it the signature is rejected.',
    }),
    validator: Flags.string({
      helpValue: '<address>',
      summary: 'Validator address. Default: execution_address of node-info.yaml.',
    }),
    ...keyMaterialFlags,
    ...chainFlags,
  }

  async run(): Promise<DelegationDigestResult> {
    const { flags } = await this.parse(DelegationDigest)
    const [
      { readDelegationDigest },
      support,
      { parseAddressFlag },
      { keyMaterialFromFlags },
      { parseDeadline, deadlineIso },
    ] = await Promise.all([
      import('../../lib/registry/delegation-digest.js'),
      import('../../lib/registry/command-support.js'),
      import('../../lib/chain/address.js'),
      import('../../lib/registry/key-material.js'),
      import('../../lib/registry/deadline.js'),
    ])
    const { UsageError } = await import('../../lib/errors.js')
    const delegator = parseAddressFlag(flags.delegator, '--delegator')
    const keys = await keyMaterialFromFlags(flags)
    const validator =
      flags.validator !== undefined ? parseAddressFlag(flags.validator, '--validator') : keys.executionAddress
    if (validator === undefined)
      throw new UsageError('The validator address is needed with --bls-pubkey.', { fix: 'Pass --validator ADDRESS.' })
    const deadline = parseDeadline(flags.deadline, BigInt(Math.floor(Date.now() / 1000)))
    const ctx = await support.openRegistryContext(flags)
    const { chain, inputs, digest } = await readDelegationDigest(ctx, {
      blsPubkey: keys.blsPubkey,
      validator,
      delegator,
      deadline,
    })
    this.out(digest)
    this.note(
      `validator ${validator}, delegator ${delegator}, stake version ${inputs.stakeVersion}, nonce ${inputs.nonce}, deadline ${deadlineIso(deadline)}; matches the registry's delegationDigest on ${chain.name}.`,
    )
    return {
      chain,
      digest,
      inputs: {
        ...inputs,
        nonce: inputs.nonce.toString(),
        deadline: inputs.deadline.toString(),
        deadlineIso: deadlineIso(deadline),
      },
    }
  }
}
