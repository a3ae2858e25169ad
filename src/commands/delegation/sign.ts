import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/base-command.js'
import { chainFlags, signerFlags } from '../../lib/chain/flags.js'
import type { DelegationSignatureFile } from '../../lib/registry/delegation-file.js'
import { keyMaterialFlags } from '../../lib/registry/flags.js'

export type DelegationSignResult = {
  /** Where the file was written; null when printed to stdout. */
  path: string | null
  /** The previous file kept as a backup when --force replaced one. */
  backup: string | null
  /** False when signed offline (--stake-version and --nonce given). */
  checkedOnChain: boolean
  signature: DelegationSignatureFile
}

export default class DelegationSign extends BaseCommand {
  static override summary = 'Sign a delegation as the validator (EIP-712), for a delegator to stake on your behalf.'

  static override description =
    `Needs only the validator's key (the whitelisted execution address) and node-info.yaml (or --bls-pubkey and --pop). Writes a signature file with the digest's inputs, the deadline and the proof of possession; the delegator passes it to \`tnv delegation stake --signature FILE\`.

Online (default) the current stake version and your delegation nonce are read and the digest is checked against the registry's. Offline, pass --stake-version and --nonce (read them elsewhere with \`tnv validator status\`): nothing is contacted.

The signature stops working after the deadline, when the stake version changes (next epoch after governance writes a new config), or when you revoke it with \`tnv delegation revoke\`.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --delegator 0xDELEGATOR --deadline 7d --datadir ./validator-1 --keystore validator.json --out delegation.json',
    '<%= config.bin %> <%= command.id %> --delegator 0xDELEGATOR --deadline 24h --chain testnet --stake-version 1 --nonce 0 --keystore validator.json --out delegation.json',
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
    out: Flags.string({ helpValue: '<file>', summary: 'Write the signature file here (default: print it to stdout).' }),
    force: Flags.boolean({ summary: 'Replace an existing --out file (kept first as a timestamped backup).' }),
    'stake-version': Flags.integer({
      min: 0,
      max: 255,
      dependsOn: ['nonce'],
      summary: "Sign offline: the current epoch's stake version (with --nonce).",
    }),
    nonce: Flags.integer({
      min: 0,
      dependsOn: ['stake-version'],
      summary: 'Sign offline: your current delegation nonce (with --stake-version).',
    }),
    ...keyMaterialFlags,
    ...chainFlags,
    'private-key': signerFlags['private-key'],
    keystore: signerFlags.keystore,
    'keystore-password-source': signerFlags['keystore-password-source'],
  }

  async run(): Promise<DelegationSignResult> {
    const { flags } = await this.parse(DelegationSign)
    const [
      { signDelegation },
      support,
      { parseAddressFlag },
      { keyMaterialFromFlags },
      { parseDeadline },
      files,
      { resolveChainTarget },
    ] = await Promise.all([
      import('../../lib/registry/sign-delegation.js'),
      import('../../lib/registry/command-support.js'),
      import('../../lib/chain/address.js'),
      import('../../lib/registry/key-material.js'),
      import('../../lib/registry/deadline.js'),
      import('../../lib/registry/delegation-file.js'),
      import('../../lib/chain/resolve-target.js'),
    ])
    const { UsageError } = await import('../../lib/errors.js')
    const { SignerMismatchError } = await import('../../lib/registry/errors.js')
    const { SignerRequiredError } = await import('../../lib/chain/errors.js')
    const note = (line: string) => this.note(line)
    const delegator = parseAddressFlag(flags.delegator, '--delegator')
    const keys = await keyMaterialFromFlags(flags)
    const deadline = parseDeadline(flags.deadline, BigInt(Math.floor(Date.now() / 1000)))
    const noKey = () =>
      new UsageError("Signing a delegation needs the validator's key, and none was given.", {
        fix: 'Set TN_PRIVATE_KEY or pass --keystore FILE with the key of the validator (execution) address.',
      })
    const signer = await support
      .signerFromFlags(flags, { action: 'the delegation signature' }, note)
      .catch((err: unknown) => {
        throw err instanceof SignerRequiredError ? noKey() : err
      })
    if (signer.type !== 'local') throw noKey()
    if (keys.executionAddress !== undefined && keys.executionAddress !== signer.address)
      throw new SignerMismatchError({ signer: signer.address, executionAddress: keys.executionAddress })

    const offline = flags['stake-version'] !== undefined && flags.nonce !== undefined
    let source: Parameters<typeof signDelegation>[0]['source']
    if (offline) {
      const target = await resolveChainTarget({
        chain: flags.chain,
        rpcUrl: flags['rpc-url'],
        registry: flags.registry,
        chainId: flags['chain-id'],
      })
      if (target.expectedChainId === null)
        throw new UsageError('Signing offline for a custom endpoint needs its chain id.', { fix: 'Pass --chain-id.' })
      source = {
        mode: 'offline',
        chainId: target.expectedChainId,
        registry: target.registry,
        stakeVersion: flags['stake-version'] as number,
        nonce: BigInt(flags.nonce as number),
      }
    } else source = { mode: 'online', ctx: await support.openRegistryContext(flags) }

    const { file } = await signDelegation({
      source,
      account: signer.account,
      delegator,
      deadline,
      blsPubkey: keys.blsPubkey,
      proofOfPossession: keys.proofOfPossession,
      report: support.createReporter(note),
    })
    let backup: string | null = null
    if (flags.out !== undefined) {
      ;({ backup } = await files.writeDelegationFile(flags.out, file, { force: flags.force }))
      if (backup) note(`Kept the previous file as ${backup}.`)
      this.out(
        `Wrote the delegation signature for delegator ${delegator} to ${flags.out} (valid until ${file.deadlineIso}, stake version ${file.stakeVersion}, nonce ${file.nonce}).`,
      )
    } else this.out(JSON.stringify(file, null, 2))
    return { path: flags.out ?? null, backup, checkedOnChain: !offline, signature: file }
  }
}
