import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags } from '../../cli/flags/chain.js'
import { keyMaterialFlags } from '../../cli/flags/registry.js'
import type { ChainInfo } from '../../lib/chain/check-chain-id.js'
import type { RegistryInfo } from '../../lib/registry/registry-guard.js'

export type DelegationDigestResult = {
  /** null offline */
  chain: ChainInfo | null
  registry: RegistryInfo | null
  generation: 'adiri' | 'next'
  digest: `0x${string}`
  /** digest = keccak256(0x1901 ‖ domainSeparator ‖ structHash): what a hardware wallet's EIP-712 hashed signing takes. */
  domainSeparator: `0x${string}`
  structHash: `0x${string}`
  /** False when computed offline (--stake-version, --nonce and --registry-generation given). */
  checkedOnChain: boolean
  /** The digest's inputs; nonce and deadline as decimal strings (deadline null on adiri). */
  inputs: {
    chainId: number
    registry: `0x${string}`
    blsPubkey: `0x${string}`
    validator: `0x${string}`
    delegator: `0x${string}`
    stakeVersion: number
    nonce: string
    deadline: string | null
    deadlineIso: string | null
  }
}

export default class DelegationDigest extends BaseCommand {
  static override summary =
    'Compute the delegation digest a validator signs for a delegator, exactly as the registry does.'

  static override description =
    `Online (default), reads the registry's own delegationDigest for these inputs and reproduces it locally, finding the validator's delegation nonce on the way (no view exposes it); a digest tnv cannot reproduce is an error, never something to sign. The digest is EIP-712-shaped, but the deployed registries build the domain separator from zero name and version hashes, so a wallet's typed-data signing gives another digest: sign this 32-byte value as a raw hash (docs/staking.md says which signers can).

The digest binds the BLS key, validator, delegator, the current epoch's stake version and the validator's nonce, and on the next generation a deadline (adiri signatures have none). A change of stake version or nonce invalidates signatures over it.

Offline, pass --registry-generation, --stake-version and --nonce (and --chain or --chain-id): nothing is contacted. To sign it, use \`tnv delegation sign\`; to sign it on a hardware wallet, give the wallet the domain separator and struct hash this command prints (its EIP-712 hashed signing), then pass the signature to \`tnv delegation sign --external-signature\` with the same absolute --deadline.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --delegator 0xDELEGATOR --deadline 7d --datadir ./validator-1 --chain devnet',
    '<%= config.bin %> <%= command.id %> --validator 0xVALIDATOR --bls-pubkey 0x… --pop 0x… --delegator 0xDELEGATOR --chain testnet --json',
    '<%= config.bin %> <%= command.id %> --delegator 0xDELEGATOR --datadir ./validator-1 --chain testnet --registry-generation adiri --stake-version 0 --nonce 0   # offline',
  ]

  static override flags = {
    delegator: Flags.string({
      required: true,
      helpValue: '<address>',
      summary: 'Address that will submit delegateStake and pay the stake.',
    }),
    deadline: Flags.string({
      helpValue: '<when>',
      summary:
        'Next generation: Unix seconds, a duration from now (90m, 24h, 7d) or an ISO date (default 24h). adiri signatures have no deadline.',
    }),
    validator: Flags.string({
      helpValue: '<address>',
      summary: 'Validator address. Default: execution_address of node-info.yaml.',
    }),
    'stake-version': Flags.integer({
      min: 0,
      max: 255,
      dependsOn: ['nonce', 'registry-generation'],
      summary: "Offline: the current epoch's stake version (with --nonce and --registry-generation).",
    }),
    nonce: Flags.integer({
      min: 0,
      dependsOn: ['stake-version', 'registry-generation'],
      summary: "Offline: the validator's delegation nonce (`tnv validator status` shows it).",
    }),
    ...keyMaterialFlags,
    ...chainFlags,
  }

  async run(): Promise<DelegationDigestResult> {
    const { flags } = await this.parse(DelegationDigest)
    const [digests, support, { parseAddressFlag }, { keyMaterialFromFlags }, { parseDeadline, deadlineIso }] =
      await Promise.all([
        import('../../lib/registry/delegation-digest.js'),
        import('../../lib/registry/command-support.js'),
        import('../../lib/chain/address.js'),
        import('../../lib/registry/key-material.js'),
        import('../../lib/registry/deadline.js'),
      ])
    const { UsageError } = await import('../../lib/errors.js')
    const note = (line: string) => this.note(line)
    const delegator = parseAddressFlag(flags.delegator, '--delegator')
    const keys = await keyMaterialFromFlags(flags)
    const validator =
      flags.validator !== undefined ? parseAddressFlag(flags.validator, '--validator') : keys.executionAddress
    if (validator === undefined)
      throw new UsageError('The validator address is needed with --bls-pubkey.', { fix: 'Pass --validator ADDRESS.' })
    const now = BigInt(Math.floor(Date.now() / 1000))
    const deadline = parseDeadline(flags.deadline ?? '24h', now)
    const request = { blsPubkey: keys.blsPubkey, validator, delegator, deadline }

    let result: Omit<DelegationDigestResult, 'inputs'> & {
      inputs: import('../../lib/registry/delegation-digest.js').DelegationDigestInputs
    }
    if (flags.nonce !== undefined && flags['stake-version'] !== undefined && flags['registry-generation']) {
      const { offlineTarget } = await import('../../lib/registry/offline-target.js')
      const target = await offlineTarget(flags)
      const d = digests.computeOfflineDelegationDigest({
        ...request,
        generation: flags['registry-generation'],
        chainId: target.chainId,
        registry: target.registry,
        stakeVersion: flags['stake-version'],
        nonce: BigInt(flags.nonce),
      })
      result = { chain: null, registry: null, checkedOnChain: false, ...d }
    } else {
      const ctx = await support.openRegistryContext(flags)
      const d = await digests.readDelegationDigest(ctx, request)
      support.noteRegistry(d.registry, note)
      result = {
        chain: d.chain,
        registry: d.registry,
        generation: d.generation,
        digest: d.digest,
        domainSeparator: d.domainSeparator,
        structHash: d.structHash,
        inputs: d.inputs,
        checkedOnChain: true,
      }
    }
    const { inputs } = result
    if (flags.deadline !== undefined && inputs.deadline === null)
      note('Note: the adiri registry signs no deadline; --deadline has no effect there.')
    this.out(result.digest)
    this.note(
      `domain separator ${result.domainSeparator} (zero name and version hashes, as the registry builds it), struct hash ${result.structHash}.`,
    )
    this.note(
      `${result.generation} registry: validator ${validator}, delegator ${delegator}, stake version ${inputs.validatorVersion}, nonce ${inputs.nonce}${inputs.deadline !== null ? `, deadline ${deadlineIso(inputs.deadline)}` : ', no deadline'}; ${result.checkedOnChain ? `equals the registry's delegationDigest on ${result.chain?.name}` : 'computed offline (not checked against a registry)'}. Sign it as a raw 32-byte hash.`,
    )
    return {
      ...result,
      inputs: {
        chainId: inputs.chainId,
        registry: inputs.registry,
        blsPubkey: inputs.blsPubkey,
        validator: inputs.validator,
        delegator: inputs.delegator,
        stakeVersion: inputs.validatorVersion,
        nonce: inputs.nonce.toString(),
        deadline: inputs.deadline === null ? null : inputs.deadline.toString(),
        deadlineIso: inputs.deadline === null ? null : deadlineIso(inputs.deadline),
      },
    }
  }
}
