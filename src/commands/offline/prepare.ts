import { dirname } from 'node:path'
import { Args, Flags, type Interfaces } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { skipBackupCheckFlag } from '../../cli/flags/backup-gate.js'
import { chainFlags } from '../../cli/flags/chain.js'
import { passphraseFlags } from '../../cli/flags/common.js'
import { keyMaterialFlags } from '../../cli/flags/registry.js'
import type { AnyBundle, Bundle } from '../../lib/offline/bundle.js'

/** The command's step names, and the registry step each prepares. */
const STEPS = {
  stake: 'stake',
  activate: 'activate',
  exit: 'beginExit',
  unstake: 'unstake',
  'rewards-claim': 'claimStakeRewards',
  'delegation-stake': 'delegateStake',
} as const
/** The step that signs no transaction: the validator's delegation signature. */
const DELEGATION_SIGNATURE = 'delegation-signature'

export type OfflinePrepareResult =
  | {
      outcome: 'prepared'
      file: string
      step: AnyBundle['step']
      digest: string
      expiresAt: string
      /** null for a delegation signature (no transaction). */
      transaction: Bundle['transaction'] | null
    }
  | { outcome: 'already-done' | 'nothing-to-do'; message: string }

export default class OfflinePrepare extends BaseCommand {
  static override summary =
    'Prepare a registry step for a key kept offline: one bundle file to sign on the offline host.'

  static override description =
    `On a networked host: runs every check of the step and its simulation for --from (the account whose key is offline), then writes one bundle file (docs/offline.md): the chain id, the registry's address, code hash and generation, the decoded call with its calldata, the value in TEL and wei, the nonce, fees and gas limit, the validator's status, stake version and epoch it assumes, for a stake node-info.yaml's key binding (checked against the key on disk), and an expiry, sealed with a sha256 digest. Nothing is signed or sent.

Carry the file to the offline host and run \`tnv offline sign BUNDLE\` there; bring back the .signed.json file written beside it and run \`tnv offline broadcast BUNDLE\` here, which checks every precondition again before it sends.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> stake --chain testnet --datadir ./validator --out stake.bundle.json',
    '<%= config.bin %> <%= command.id %> activate --chain testnet --from 0xVALIDATOR --out activate.bundle.json',
    '<%= config.bin %> <%= command.id %> unstake --chain testnet --from 0xVALIDATOR --expires-in 2h --out unstake.bundle.json',
    '<%= config.bin %> <%= command.id %> delegation-stake --chain testnet --signature delegation.json --out delegate.bundle.json',
    '<%= config.bin %> <%= command.id %> delegation-signature --chain testnet --datadir ./validator --delegator 0xDELEGATOR --deadline 7d --out delegation.bundle.json',
  ]

  static override args = {
    step: Args.string({
      required: true,
      options: [...Object.keys(STEPS), DELEGATION_SIGNATURE],
      description: 'The registry step to prepare.',
    }),
  }

  static override flags = {
    ...chainFlags,
    ...keyMaterialFlags,
    ...passphraseFlags,
    from: Flags.string({
      helpValue: '<address>',
      summary:
        'The account that will sign offline (the validator address; for a stake, default: node-info.yaml’s execution address).',
    }),
    validator: Flags.string({
      helpValue: '<address>',
      summary: 'unstake and rewards-claim by a delegator: the validator (default: --from).',
    }),
    delegator: Flags.string({
      helpValue: '<address>',
      summary: 'delegation-signature: the address that will submit delegateStake and pay the stake.',
    }),
    deadline: Flags.string({
      default: '24h',
      helpValue: '<when>',
      summary:
        'delegation-signature (next registry): Unix seconds, a duration from now (90m, 24h, 7d) or an ISO date; the bundle expires no later.',
    }),
    signature: Flags.string({
      helpValue: '<file>',
      summary:
        "delegation-stake: the validator's signature file from `tnv delegation sign` (the delegator it names signs offline).",
    }),
    'accept-reward-shortfall': Flags.boolean({
      summary: 'unstake (next registry): forfeit rewards the Issuance pool cannot cover.',
    }),
    'expires-in': Flags.string({
      default: '24h',
      helpValue: '<n>s|m|h|d',
      summary: 'How long the bundle stays valid (sign and broadcast refuse it after that), e.g. 90m, 24h, 2d.',
    }),
    ...skipBackupCheckFlag,
    out: Flags.string({
      required: true,
      helpValue: '<file>',
      summary: 'The bundle file to write (it must not exist).',
    }),
  }

  async run(): Promise<OfflinePrepareResult> {
    const { args, flags } = await this.parse(OfflinePrepare)
    return this.prepareToFile(args.step, flags)
  }

  /** Prepares STEP from the flags and writes the bundle to --out (also the first stop of `offline wizard`). */
  protected async prepareToFile(
    stepName: string,
    flags: Interfaces.InferredFlags<typeof OfflinePrepare.flags>,
  ): Promise<OfflinePrepareResult> {
    const args = { step: stepName }
    const [
      { prepareBundle },
      { fileText },
      support,
      atomic,
      { parseAddressFlag },
      { UsageError },
      { parseDurationSeconds },
    ] = await Promise.all([
      import('../../lib/offline/prepare-bundle.js'),
      import('../../lib/offline/bundle.js'),
      import('../../lib/registry/command-support.js'),
      import('../../lib/fs/atomic.js'),
      import('../../lib/chain/address.js'),
      import('../../lib/errors.js'),
      import('../../lib/offline/stake-material.js'),
    ])
    if (await atomic.pathExists(flags.out))
      throw new UsageError(`${flags.out} exists; a bundle is never written over another file.`, {
        fix: 'Pass another --out, or remove the old bundle first.',
      })
    const note = (line: string) => this.note(line)
    const validator = flags.validator === undefined ? undefined : parseAddressFlag(flags.validator, '--validator')
    let from = flags.from === undefined ? undefined : parseAddressFlag(flags.from, '--from')
    const common = {
      expiresInSeconds: expiresIn(flags['expires-in'], UsageError, parseDurationSeconds),
      // the command that prepares a fresh bundle (the wizard's own argv is prepare's, with the step first)
      prepareCommand: `${this.config.bin} offline prepare ${this.argv.filter((a) => a !== '--json').join(' ')}`,
      report: this.session.reporter(),
    }
    const ctx = await support.openRegistryContext(flags)
    if (args.step === DELEGATION_SIGNATURE) return this.delegationSignature(ctx, flags, common, from, note)
    const step = STEPS[args.step as keyof typeof STEPS]
    let params: Parameters<typeof prepareBundle>[1]
    if (step === 'stake') {
      const stake = await this.stakeMaterial(flags, note)
      from ??= stake.executionAddress
      if (from === undefined)
        throw new UsageError('A stake bundle needs the address that will sign it.', {
          fix: 'Pass --from ADDRESS, or --datadir/--node-info (its execution address signs).',
        })
      params = { ...common, step, from, stake }
    } else if (step === 'delegateStake') {
      if (flags.signature === undefined)
        throw new UsageError('offline prepare delegation-stake needs the validator’s signature file.', {
          fix: 'Pass --signature FILE, written by the validator with `tnv delegation sign --delegator YOUR_ADDRESS`.',
        })
      const { readDelegationFile } = await import('../../lib/registry/delegation-file.js')
      const delegation = await readDelegationFile(flags.signature)
      params = { ...common, step, from: from ?? delegation.delegator, delegation }
    } else {
      if (from === undefined)
        throw new UsageError(`offline prepare ${args.step} needs the address that will sign it offline.`, {
          fix: 'Pass --from ADDRESS (the validator address, or the delegator for unstake and rewards-claim).',
        })
      params =
        step === 'unstake'
          ? { ...common, step, from, validator, acceptRewardShortfall: flags['accept-reward-shortfall'] }
          : step === 'claimStakeRewards'
            ? { ...common, step, from, validator }
            : { ...common, step, from }
    }
    const r = await prepareBundle(ctx, params)
    if (r.outcome !== 'prepared') {
      this.out(r.message)
      return r
    }
    // before a bundle that binds the key for good exists: a verified backup or a confirmed phrase
    if (params.step === 'stake') await this.backupGate(flags, params.stake, 'the stake', r.bundle.chain.chainId)
    await atomic.writeFileAtomic(flags.out, fileText(r.bundle), { mode: 0o644 })
    this.out(
      `Wrote ${flags.out}: ${r.bundle.intent.title}, nonce ${r.bundle.transaction.nonce}, valid until ${r.bundle.expiresAt}.`,
    )
    this.out(`Digest ${r.bundle.digest}`)
    this.note(`Next, on the offline host: tnv offline sign ${flags.out}`)
    return {
      outcome: 'prepared',
      file: flags.out,
      step: r.bundle.step,
      digest: r.bundle.digest,
      expiresAt: r.bundle.expiresAt,
      transaction: r.bundle.transaction,
    }
  }

  /** The validator's EIP-712 delegation signature, its key offline: a bundle without a transaction. */
  private async delegationSignature(
    ctx: import('../../lib/registry/types.js').RegistryContext,
    flags: Interfaces.InferredFlags<typeof OfflinePrepare.flags>,
    common: {
      expiresInSeconds: number
      prepareCommand: string
      report: import('../../lib/registry/types.js').Reporter
    },
    from: `0x${string}` | undefined,
    note: (line: string) => void,
  ): Promise<OfflinePrepareResult> {
    const [{ prepareDelegationSignature }, { fileText }, { parseAddressFlag }, { parseDeadline }, { UsageError }] =
      await Promise.all([
        import('../../lib/offline/prepare-delegation-signature.js'),
        import('../../lib/offline/bundle.js'),
        import('../../lib/chain/address.js'),
        import('../../lib/registry/deadline.js'),
        import('../../lib/errors.js'),
      ])
    if (flags.delegator === undefined)
      throw new UsageError('offline prepare delegation-signature needs the delegator.', {
        fix: 'Pass --delegator ADDRESS (the address that will submit delegateStake and pay the stake).',
      })
    const stake = await this.stakeMaterial(flags, note)
    const validator = from ?? stake.executionAddress
    if (validator === undefined)
      throw new UsageError('A delegation signature needs the validator address.', {
        fix: 'Pass --from ADDRESS, or --datadir/--node-info (its execution address is the validator).',
      })
    const bundle = await prepareDelegationSignature(ctx, {
      ...common,
      validator,
      delegator: parseAddressFlag(flags.delegator, '--delegator'),
      deadline: parseDeadline(flags.deadline, BigInt(Math.floor(Date.now() / 1000))),
      stake,
    })
    await this.backupGate(flags, stake, 'signing the delegation', bundle.chain.chainId)
    const { writeFileAtomic } = await import('../../lib/fs/atomic.js')
    await writeFileAtomic(flags.out, fileText(bundle), { mode: 0o644 })
    this.out(`Wrote ${flags.out}: ${bundle.intent.title}, valid until ${bundle.expiresAt}.`)
    this.out(`Digest ${bundle.digest}`)
    this.note(`Next, on the offline host: tnv offline sign ${flags.out} (with the validator's key)`)
    return {
      outcome: 'prepared',
      file: flags.out,
      step: bundle.step,
      digest: bundle.digest,
      expiresAt: bundle.expiresAt,
      transaction: null,
    }
  }

  /** The backup gate of `tnv stake` (src/lib/keys/backup-gate.ts), for the key the bundle would bind. */
  private async backupGate(
    flags: Interfaces.InferredFlags<typeof OfflinePrepare.flags>,
    stake: { blsPubkey: `0x${string}`; nodeInfo: string | null },
    action: string,
    chainId: number,
  ): Promise<void> {
    const { backupGate } = await import('../../cli/backup-gate.js')
    await backupGate({
      datadir: stake.nodeInfo ? dirname(stake.nodeInfo) : flags.datadir,
      publicKey: stake.blsPubkey,
      skip: flags['skip-backup-check'],
      relaxed: flags['devnet-relaxed'],
      action,
      note: (line) => this.note(line),
    })(chainId)
  }

  /** node-info.yaml (or hex flags), checked against the key on disk as `tnv stake` checks it. */
  private async stakeMaterial(
    flags: Interfaces.InferredFlags<typeof OfflinePrepare.flags>,
    note: (line: string) => void,
  ) {
    const { readStakeMaterial } = await import('../../lib/offline/stake-material.js')
    return readStakeMaterial({
      flags,
      passphrase: {
        source: flags['bls-passphrase-source'],
        stdin: this.session.stdin(),
        io: this.session.passphraseIo(),
        env: this.session.passphraseEnv(flags['bls-passphrase-source']),
      },
      lockDatadir: (datadir) => this.session.openDatadir(datadir),
      note,
    })
  }
}

/** --expires-in in seconds, or the usage error that says how to write it. */
function expiresIn(
  value: string,
  Usage: typeof import('../../lib/errors.js').UsageError,
  parse: (v: string) => number | null,
): number {
  const seconds = parse(value)
  if (seconds === null)
    throw new Usage(`--expires-in ${value} is not a duration.`, {
      fix: 'Pass a whole number with a unit: 90s, 30m, 24h or 7d.',
    })
  return seconds
}
