/**
 * The shared command of `keytool generate validator` and `keytool generate observer`: both
 * write the same files (an observer's keys follow the same formats; it simply never stakes).
 */

import type { IdentityView } from '../lib/keys/identity.js'
import type { Hex, NodeInfoForm } from '../lib/nodeinfo/types.js'
import { workerAddrsOf } from '../lib/options.js'
import { chainFlags } from './flags/chain.js'
import { datadirFlag, passphraseFlags, quietFlag } from './flags/common.js'
import { addressFlag, generateFlags, p2pAddressFlags } from './flags/keytool.js'
import { generateMnemonicFlags } from './flags/mnemonic.js'
import { KeytoolCommand } from './keytool-command.js'

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
  }

  protected abstract readonly role: 'validator' | 'observer'

  async run(): Promise<GenerateResult> {
    const { flags } = await this.parse(this.constructor as typeof GenerateKeysCommand)
    this.quiet = flags.quiet
    const source = flags['bls-passphrase-source']
    const [
      { parseExecutionAddress },
      { checkRpcEndpoints },
      { readPassphrase },
      { generateNodeKeys },
      { identityView, formatIdentity },
      { weakPassphraseWarning },
    ] = await Promise.all([
      import('../lib/nodeinfo/address.js'),
      import('../lib/nodeinfo/rpc-url.js'),
      import('../lib/passphrase/read-passphrase.js'),
      import('../lib/keys/generate-node-keys.js'),
      import('../lib/keys/identity.js'),
      import('../lib/passphrase/strength.js'),
    ])
    const address = parseExecutionAddress(flags.address, '--address')
    const rpc = checkRpcEndpoints(
      { http: flags['rpc-http'], ws: flags['rpc-ws'] },
      { http: '--rpc-http', ws: '--rpc-ws' },
    )
    const workerAddrs = workerAddrsOf(flags['external-worker-addrs'])
    const form = flags['node-info-form'] ?? (flags.workers > 1 ? 'workers' : 'worker')
    const stdin = source === 'stdin' ? await this.stdin() : undefined
    // Spec, key-management rule 1: never replace the keys of a validator that has staked.
    // The configured network, else the default (devnet), unless the operator skips the check.
    let checkedOn: string | null = null
    const assertKeyReplaceable =
      flags.force && !flags['skip-registry-check']
        ? await (await import('../lib/registry/key-replace-guard.js')).keyReplaceGuard({
            chain: flags.chain,
            rpcUrl: flags['rpc-url'],
            registry: flags.registry,
            chainId: flags['chain-id'],
            onChecked: (network) => {
              checkedOn = network
            },
          })
        : undefined

    // --mnemonic: the phrase is made now, shown (or written) only once every check has passed
    const phrasePlan = flags.mnemonic
      ? await (await import('./recovery-phrase.js')).planRecoveryPhrase(this.session, {
          out: flags['mnemonic-out'],
          index: flags['mnemonic-index'],
        })
      : undefined
    let delivered: Awaited<ReturnType<NonNullable<typeof phrasePlan>['deliver']>> | undefined

    // the data directory is this command's until its keys are committed
    await this.lockDatadir(flags.datadir)
    const r = await generateNodeKeys({
      ...(phrasePlan ? { secret: phrasePlan.secret } : {}),
      datadir: flags.datadir,
      address,
      workers: flags.workers,
      form,
      force: flags.force,
      ...(assertKeyReplaceable ? { assertKeyReplaceable } : {}),
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      ...(flags['external-primary-addr'] !== undefined ? { externalPrimaryAddr: flags['external-primary-addr'] } : {}),
      ...(workerAddrs !== undefined ? { externalWorkerAddrs: workerAddrs } : {}),
      ...(rpc ? { rpc } : {}),
      passphrase: async () => {
        if (phrasePlan) delivered = await phrasePlan.deliver()
        const passphrase = await readPassphrase({
          source,
          purpose: 'create',
          ...(stdin ? { stdin } : {}),
          io: this.passphraseIo,
        })
        const weak = weakPassphraseWarning(passphrase)
        if (weak) this.warnLine(weak)
        if (passphrase !== undefined && /\p{White_Space}$/u.test(passphrase))
          this.warnLine(
            'the passphrase ends with whitespace. The node drops trailing whitespace from a --bls-passphrase-source stdin line, so this key opens only through TN_BLS_PASSPHRASE or ask.',
          )
        return passphrase
      },
    })
      .catch(async (err: unknown) => {
        await phrasePlan?.undo()
        throw err
      })
      .finally(() => phrasePlan?.secret.fill(0))
    let recoveryPhrase: GenerateResult['recoveryPhrase']
    if (phrasePlan && delivered) {
      recoveryPhrase =
        delivered.how === 'file'
          ? { keyPath: phrasePlan.keyPath, delivered: 'file', file: delivered.file }
          : { keyPath: phrasePlan.keyPath, delivered: 'terminal-confirmed' }
      if (delivered.how === 'confirmed') {
        const { recordBackupProof } = await import('../lib/keys/backup-record.js')
        await recordBackupProof(r.paths.datadir, {
          how: 'phrase-confirmed',
          blsPublicKey: `0x${Buffer.from(r.info.blsPublicKey).toString('hex')}`,
          keyPath: phrasePlan.keyPath,
          at: new Date().toISOString(),
        })
      }
    }

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
    if (r.replacedKeys && r.backupDir) {
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
    } else if (r.backupDir) this.warnLine(`the previous node-info.yaml was moved to ${r.backupDir}.`)
    if (r.localAddresses)
      this.warnLine(
        'no external address was given for some peers, so node-info.yaml holds local-only 127.0.0.1 addresses. Other validators cannot reach them: pass --external-primary-addr and --external-worker-addrs.',
      )
    if (r.ignoredWorkerAddrs.length > 0)
      this.warnLine(
        `--external-worker-addrs gave more addresses than workers; only the first ${flags.workers === 1 ? 'one is' : `${flags.workers} are`} used, as the node does (ignored: ${r.ignoredWorkerAddrs.join(', ')}).`,
      )
    const { describeForm } = await import('../lib/nodeinfo/forms.js')
    const formView = describeForm(form)
    this.logLine(`node-info.yaml form: ${formView.summary}.`)
    if (form === 'workers')
      this.warnLine(
        `node-info.yaml is written as the specification's workers: list${flags.workers > 1 ? ` (${flags.workers} workers; the released node accepts only one: "Only supports a single worker at this time!")` : ''}. The released node (v0.14.0-adiri and main) cannot start with it ("missing field \`worker\`").`,
      )
    if (recoveryPhrase?.delivered === 'file')
      this.warnLine(
        `the recovery phrase is in ${recoveryPhrase.file} (mode 0600). Anyone with the words holds this key: copy them to paper, prove the copy with \`tnv keytool backup verify --mnemonic-file FILE --datadir ${r.paths.datadir}\`, then delete the file.`,
      )
    else if (recoveryPhrase)
      this.logLine(
        `Recovery phrase confirmed (key path ${recoveryPhrase.keyPath}); \`tnv keytool recover\` rebuilds this data directory from it.`,
      )
    if (this.role === 'validator') {
      this.logLine(
        recoveryPhrase
          ? `Next: keep the phrase offline; back up ${r.paths.datadir} too (tnv keytool backup), then export the staking arguments:`
          : `Next: back up ${r.paths.datadir} (tnv keytool backup --out FILE, then tnv keytool backup verify FILE), then export the staking arguments:`,
      )
      this.logLine(`  tnv keytool export-staking-args --node-info ${r.paths.nodeInfo} --calldata`)
    }
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
}
