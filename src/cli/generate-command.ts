/**
 * The shared command of `keytool generate validator` and `keytool generate observer`: both
 * write the same files (an observer's keys follow the same formats; it simply never stakes).
 */

import type { Interfaces } from '@oclif/core'
import type { GenerateNodeKeysReturnType } from '../lib/keys/generate-node-keys.js'
import type { IdentityView } from '../lib/keys/identity.js'
import type { Hex, NodeInfoForm } from '../lib/nodeinfo/types.js'
import { type PassphraseSource, workerAddrsOf } from '../lib/options.js'
import type { StdinLines } from '../lib/passphrase/stdin-lines.js'
import { chainFlags } from './flags/chain.js'
import { checkFlag } from './flags/check.js'
import { datadirFlag, passphraseFlags, quietFlag } from './flags/common.js'
import { addressFlag, generateFlags, p2pAddressFlags } from './flags/keytool.js'
import { generateMnemonicFlags } from './flags/mnemonic.js'
import type { KeytoolCheckResult } from './keytool-check.js'
import { KeytoolCommand } from './keytool-command.js'
import type { PhrasePlan } from './recovery-phrase.js'

export type GenerateResult = IdentityView & {
  role: 'validator' | 'observer'
  /** The node-info.yaml form written (`worker` unless asked or several workers). */
  nodeInfoForm: NodeInfoForm
  datadir: string
  nodeInfo: string
  keyFile: string
  encrypted: boolean
  executionAddress: Hex
  /** Where the replaced keys and node-info.yaml were kept (with --force). */
  backupDir?: string
  /** With --mnemonic: the key path and where the phrase went (never the phrase). */
  recoveryPhrase?: { keyPath: string; delivered: 'terminal-confirmed' | 'file'; file?: string }
}

export const KEY_MANAGEMENT_WARNING =
  "Never replace the keys of a validator that has staked: the registry binds its BLS key for good and cannot replace it. If these were a staked validator's keys, put the backup back now; a staked validator that lost its keys must exit and unstake from its validator address, then onboard a new validator address with new keys."

type GenerateFlags = Interfaces.InferredFlags<typeof GenerateKeysCommand.flags>

export abstract class GenerateKeysCommand extends KeytoolCommand {
  static override flags = {
    ...addressFlag,
    ...p2pAddressFlags,
    ...generateFlags,
    ...generateMnemonicFlags,
    ...datadirFlag,
    ...passphraseFlags,
    ...quietFlag,
    // With --force, the old key is checked against the registry of the configured (or default) network first.
    ...chainFlags,
    ...checkFlag,
  }

  protected abstract readonly role: 'validator' | 'observer'

  async run(): Promise<GenerateResult | KeytoolCheckResult> {
    const { flags } = await this.parse(this.constructor as typeof GenerateKeysCommand)
    this.quiet = flags.quiet
    const input = await this.inputs(flags)
    if (flags.check) return this.check(flags, input.params)
    const { replaceGuard, checkedOn } = await this.replaceGuard(flags)
    // --mnemonic: the phrase is made now, shown (or written) only once every check has passed
    const phrasePlan = flags.mnemonic
      ? await (await import('./recovery-phrase.js')).planRecoveryPhrase(this.session, {
          out: flags['mnemonic-out'],
          index: flags['mnemonic-index'],
        })
      : undefined
    let delivered: Awaited<ReturnType<NonNullable<typeof phrasePlan>['deliver']>> | undefined
    const { generateNodeKeys } = await import('../lib/keys/generate-node-keys.js')
    // the data directory is this command's until its keys are committed
    await this.lockDatadir(flags.datadir)
    const r = await generateNodeKeys({
      ...(phrasePlan ? { secret: phrasePlan.secret } : {}),
      ...input.params,
      force: flags.force,
      ...(replaceGuard ? { assertKeyReplaceable: replaceGuard } : {}),
      passphrase: async () => {
        if (phrasePlan) delivered = await phrasePlan.deliver()
        return this.newPassphrase(flags['bls-passphrase-source'], input.stdin)
      },
    })
      .catch(async (err: unknown) => {
        await phrasePlan?.undo()
        throw err
      })
      .finally(() => phrasePlan?.secret.fill(0))
    const recoveryPhrase = phrasePlan && delivered ? await this.recordPhrase(r, phrasePlan, delivered) : undefined
    return this.report(r, { form: input.params.form, workers: flags.workers, checkedOn: checkedOn(), recoveryPhrase })
  }

  /**
   * --check: every refusal of the run that needs no secret (the flags, the data directory, keys
   * already there without --force, with --force the registry guard), then the files it would
   * write. Nothing is asked, locked or written. Keys already there for this --address: already-done.
   */
  private async check(
    flags: GenerateFlags,
    params: Awaited<ReturnType<GenerateKeysCommand['inputs']>>['params'],
  ): Promise<KeytoolCheckResult> {
    const [{ readdir }, datadir, { generateNodeKeys }, { readNodeInfo }, check] = await Promise.all([
      import('node:fs/promises'),
      import('../lib/keys/datadir.js'),
      import('../lib/keys/generate-node-keys.js'),
      import('../lib/nodeinfo/read.js'),
      import('./keytool-check.js'),
    ])
    const paths = datadir.datadirPaths(flags.datadir)
    const keysPresent = (await readdir(paths.nodeKeys).catch((): string[] => [])).length > 0
    let result: KeytoolCheckResult
    const recorded = keysPresent
      ? await readNodeInfo(paths.nodeInfo).then(
          (r) => r.info.executionAddress,
          () => null,
        )
      : null
    if (keysPresent && !flags.force && recorded?.toLowerCase() === params.address.toLowerCase())
      result = check.checkResult(
        [],
        `${paths.nodeKeys} already holds keys and node-info.yaml names ${recorded}: nothing to generate (a run without --force leaves them and refuses, exit 2, as the node's keytool does)`,
      )
    else {
      // the run itself, stopped where it would ask for the passphrase: every check before it ran
      const { replaceGuard } = await this.replaceGuard(flags)
      const stop = new Error('--check stops before the passphrase')
      await generateNodeKeys({
        ...params,
        force: flags.force,
        ...(replaceGuard ? { assertKeyReplaceable: replaceGuard } : {}),
        passphrase: async () => {
          throw stop
        },
      }).then(
        () => {
          throw new Error('keytool generate --check went past the passphrase') // a bug
        },
        (err: unknown) => {
          if (err !== stop) throw err
        },
      )
      const files = await check.planFiles([
        ...(await check.nodeKeyFiles(paths, {
          encrypted: flags['bls-passphrase-source'] !== 'no-passphrase',
          workers: flags.workers,
        })),
        ...(flags['mnemonic-out'] !== undefined ? [{ path: flags['mnemonic-out'], mode: 0o600 }] : []),
      ])
      result = check.checkResult(
        files,
        `would generate ${this.role} keys for ${params.address} in ${paths.datadir}${keysPresent ? ` (the keys there now would move to ${paths.datadir}/backup-<time>/)` : ''}`,
      )
    }
    for (const line of check.checkLines(result)) this.out(line)
    return result
  }

  /** Every flag checked before anything is asked or written: the library's parameters. */
  private async inputs(flags: GenerateFlags) {
    const [{ parseExecutionAddress }, { checkRpcEndpoints }] = await Promise.all([
      import('../lib/nodeinfo/address.js'),
      import('../lib/nodeinfo/rpc-url.js'),
    ])
    const rpc = checkRpcEndpoints(
      { http: flags['rpc-http'], ws: flags['rpc-ws'] },
      { http: '--rpc-http', ws: '--rpc-ws' },
    )
    const workerAddrs = workerAddrsOf(flags['external-worker-addrs'])
    const form: NodeInfoForm = flags['node-info-form'] ?? (flags.workers > 1 ? 'workers' : 'worker')
    return {
      params: {
        datadir: flags.datadir,
        address: parseExecutionAddress(flags.address, '--address'),
        workers: flags.workers,
        form,
        ...(flags.name !== undefined ? { name: flags.name } : {}),
        ...(flags['external-primary-addr'] !== undefined
          ? { externalPrimaryAddr: flags['external-primary-addr'] }
          : {}),
        ...(workerAddrs !== undefined ? { externalWorkerAddrs: workerAddrs } : {}),
        ...(rpc ? { rpc } : {}),
      },
      stdin: flags['bls-passphrase-source'] === 'stdin' ? await this.stdin() : undefined,
    }
  }

  /**
   * Spec, key-management rule 1: never replace the keys of a validator that has staked. With
   * --force the old key is checked on the configured network, else the default (devnet), unless
   * the operator skips the check.
   */
  private async replaceGuard(flags: GenerateFlags) {
    let checkedOn: string | null = null
    const replaceGuard =
      flags.force && !flags['skip-registry-check']
        ? await (await import('../lib/registry/key-replace-guard.js')).keyReplaceGuard({
            chain: flags.chain,
            rpcUrl: flags['rpc-url'],
            registry: flags.registry,
            chainId: flags['chain-id'],
            devnetDir: flags['devnet-dir'],
            onChecked: (network) => {
              checkedOn = network
            },
          })
        : undefined
    return { replaceGuard, checkedOn: () => checkedOn }
  }

  /** The new key's passphrase, with the warnings a weak or whitespace-ended one gets (before anything is written). */
  private async newPassphrase(source: PassphraseSource, stdin: StdinLines | undefined): Promise<string | undefined> {
    const [{ readPassphrase }, { weakPassphraseWarning }] = await Promise.all([
      import('../lib/passphrase/read-passphrase.js'),
      import('../lib/passphrase/strength.js'),
    ])
    const passphrase = await readPassphrase({
      source,
      purpose: 'create',
      ...(stdin ? { stdin } : {}),
      io: this.passphraseIo,
      env: this.session.passphraseEnv(source),
    })
    const weak = weakPassphraseWarning(passphrase)
    if (weak) this.warnLine(weak)
    if (passphrase !== undefined && /\p{White_Space}$/u.test(passphrase))
      this.warnLine(
        'the passphrase ends with whitespace. The node drops trailing whitespace from a --bls-passphrase-source stdin line, so this key opens only through TN_BLS_PASSPHRASE or ask.',
      )
    return passphrase
  }

  /** Where the recovery phrase went; a phrase confirmed on the terminal is recorded as the key's backup proof. */
  private async recordPhrase(
    r: GenerateNodeKeysReturnType,
    plan: PhrasePlan,
    delivered: Awaited<ReturnType<PhrasePlan['deliver']>>,
  ): Promise<GenerateResult['recoveryPhrase']> {
    if (delivered.how === 'file') return { keyPath: plan.keyPath, delivered: 'file', file: delivered.file }
    if (delivered.how === 'confirmed') {
      const { recordBackupProof } = await import('../lib/keys/backup-record.js')
      await recordBackupProof(r.paths.datadir, {
        how: 'phrase-confirmed',
        blsPublicKey: `0x${Buffer.from(r.info.blsPublicKey).toString('hex')}`,
        keyPath: plan.keyPath,
        at: new Date().toISOString(),
      })
    }
    return { keyPath: plan.keyPath, delivered: 'terminal-confirmed' }
  }

  /** What was written and what to do next (stderr), the identity (stdout); the result is the --json output. */
  private async report(
    r: GenerateNodeKeysReturnType,
    {
      form,
      workers,
      checkedOn,
      recoveryPhrase,
    }: {
      form: NodeInfoForm
      workers: number
      checkedOn: string | null
      recoveryPhrase: GenerateResult['recoveryPhrase']
    },
  ): Promise<GenerateResult> {
    const { identityView, formatIdentity } = await import('../lib/keys/identity.js')
    const view = identityView(r.info)
    const files = [r.keyFile, r.paths.primarySeed, ...r.info.workers.map((_, i) => r.paths.workerSeed(i))].map((p) =>
      p.slice(r.paths.nodeKeys.length + 1),
    )
    this.logLine(`Wrote ${this.role} keys to ${r.paths.datadir}: node-keys/ (${files.join(', ')}) and node-info.yaml.`)
    this.logLine(
      r.encrypted
        ? 'The BLS key is encrypted with your passphrase (it cannot be recovered if lost).'
        : 'The BLS key is stored UNENCRYPTED (no-passphrase).',
    )
    this.out(formatIdentity(view).join('\n'))
    this.warnReplaced(r, checkedOn)
    if (r.localAddresses)
      this.warnLine(
        'no external address was given for some peers, so node-info.yaml holds local-only 127.0.0.1 addresses. Other validators cannot reach them: pass --external-primary-addr and --external-worker-addrs.',
      )
    if (r.ignoredWorkerAddrs.length > 0)
      this.warnLine(
        `--external-worker-addrs gave more addresses than workers; only the first ${workers === 1 ? 'one is' : `${workers} are`} used, as the node does (ignored: ${r.ignoredWorkerAddrs.join(', ')}).`,
      )
    const { describeForm } = await import('../lib/nodeinfo/forms.js')
    this.logLine(`node-info.yaml form: ${describeForm(form).summary}.`)
    if (form === 'workers')
      this.warnLine(
        `node-info.yaml is written as the specification's workers: list${workers > 1 ? ` (${workers} workers; the released node accepts only one: "Only supports a single worker at this time!")` : ''}. The released node (v0.14.0-adiri and main) cannot start with it ("missing field \`worker\`").`,
      )
    this.nextSteps(r, recoveryPhrase)
    return {
      role: this.role,
      datadir: r.paths.datadir,
      nodeInfo: r.paths.nodeInfo,
      keyFile: r.keyFile,
      encrypted: r.encrypted,
      nodeInfoForm: form,
      ...view,
      ...(r.backupDir ? { backupDir: r.backupDir } : {}),
      ...(recoveryPhrase ? { recoveryPhrase } : {}),
    }
  }

  /** What --force replaced, and whether the old key was checked against a registry. */
  private warnReplaced(r: GenerateNodeKeysReturnType, checkedOn: string | null): void {
    if (!r.backupDir) return
    if (!r.replacedKeys) {
      this.warnLine(`the previous node-info.yaml was moved to ${r.backupDir}.`)
      return
    }
    this.warnLine(`the previous keys and node-info.yaml were moved to ${r.backupDir}.`)
    this.warnLine(KEY_MANAGEMENT_WARNING)
    if (checkedOn !== null)
      this.logLine(
        `The replaced key is not registered on ${checkedOn}. If this validator staked on another network, put the backup back now and rerun with that network's --chain.`,
      )
    else
      this.warnLine(
        'the old key was not checked against any registry (--skip-registry-check): if these keys were ever staked, put the backup back now.',
      )
  }

  private nextSteps(r: GenerateNodeKeysReturnType, recoveryPhrase: GenerateResult['recoveryPhrase']): void {
    if (recoveryPhrase?.delivered === 'file')
      this.warnLine(
        `the recovery phrase is in ${recoveryPhrase.file} (mode 0600). Anyone with the words holds this key: copy them to paper, prove the copy with \`tnv keytool backup verify --mnemonic-file FILE --datadir ${r.paths.datadir}\`, then delete the file.`,
      )
    else if (recoveryPhrase)
      this.logLine(
        `Recovery phrase confirmed (key path ${recoveryPhrase.keyPath}); \`tnv keytool recover\` rebuilds this data directory from it.`,
      )
    if (this.role !== 'validator') return
    this.logLine(
      recoveryPhrase
        ? `Next: keep the phrase offline; back up ${r.paths.datadir} too (tnv keytool backup), then export the staking arguments:`
        : `Next: back up ${r.paths.datadir} (tnv keytool backup --out FILE, then tnv keytool backup verify FILE), then export the staking arguments:`,
    )
    this.logLine(`  tnv keytool export-staking-args --node-info ${r.paths.nodeInfo} --calldata`)
  }
}
