import { recoverFlags } from '../../cli/flags/recover.js'
import type { KeytoolCheckResult } from '../../cli/keytool-check.js'
import { KeytoolCommand } from '../../cli/keytool-command.js'
import type { IdentityView } from '../../lib/keys/identity.js'

export type RecoverResult = IdentityView & {
  datadir: string
  nodeInfo: string
  keyFile: string
  encrypted: boolean
  keyPath: string
  /** What the derived key was checked against before anything was written. */
  checkedAgainst: { expectPubkeyFlag: boolean; registry: { chainId: number; registeredKey: string | null } | null }
  /** The data directory's record that the key is restorable from the phrase. */
  recordFile: string
}

export default class Recover extends KeytoolCommand {
  static override summary =
    '(tnv extra) Rebuild a whole data directory from a recovery phrase: bls.kw under a new passphrase, seeds, node-info.yaml, proof of possession.'

  static override description =
    `The BLS key is derived from the phrase on m/12381/5522764/<--mnemonic-index>/0/0 (EIP-2333, EIP-2334) and written exactly as \`keytool generate\` writes keys, so the directory is byte-compatible with the node's. Before anything is written, the key is checked against --expect-pubkey and, with --chain or --rpc-url, against the key the registry holds for --address (a staked validator's phrase must give exactly its registered key). A data directory that already holds node-info.yaml or keys is refused: recover never replaces anything.

The phrase comes from --mnemonic-file (a file, or - for one line of standard input, read before the passphrase's line), else a hidden prompt on a terminal; never from a flag value. The new passphrase comes from --bls-passphrase-source (default env: TN_BLS_PASSPHRASE). See docs/keytool.md.`

  static override examples = [
    {
      description:
        'On a terminal: the phrase and the new passphrase at hidden prompts, checked against the test network:',
      command:
        '<%= config.bin %> <%= command.id %> --datadir ~/tn-restored --address 0xYourValidatorAddress --chain testnet --bls-passphrase-source ask --external-primary-addr /ip4/203.0.113.10/udp/49590/quic-v1 --external-worker-addrs /ip4/203.0.113.10/udp/49594/quic-v1',
    },
    {
      description: 'Scripted: phrase then passphrase as two lines of standard input, checked against a known key:',
      command:
        'printf \'%s\\n%s\\n\' "$PHRASE" "$PASSPHRASE" | <%= config.bin %> <%= command.id %> --datadir ./v1 --address 0xYourValidatorAddress --mnemonic-file - --bls-passphrase-source stdin --expect-pubkey 0x…',
    },
  ]

  static override flags = recoverFlags

  async run(): Promise<RecoverResult | KeytoolCheckResult> {
    const { flags } = await this.parse(Recover)
    this.quiet = flags.quiet
    const [{ recoverParameters }, { recoverNodeKeys }, { identityView, formatIdentity }] = await Promise.all([
      import('../../cli/keytool-recover.js'),
      import('../../lib/keys/recover-node-keys.js'),
      import('../../lib/keys/identity.js'),
    ])
    const params = await recoverParameters(this.session, flags, (line) => this.warnLine(line))
    const { address } = params
    if (flags.check)
      return this.check(flags.datadir, address, { source: flags['bls-passphrase-source'], workers: flags.workers })
    await this.lockDatadir(flags.datadir)
    const r = await recoverNodeKeys(params)
    const view = identityView(r.info)
    const reg = r.checkedAgainst.registry
    this.logLine(`Recovered the validator keys into ${r.paths.datadir} (key path ${r.keyPath}).`)
    if (reg)
      this.logLine(
        reg.registeredKey === null
          ? `The registry on chain ${reg.chainId} holds no key for ${address} yet (not staked): nothing to compare.`
          : `The key is the one the registry on chain ${reg.chainId} holds for ${address}.`,
      )
    if (r.checkedAgainst.expectPubkeyFlag) this.logLine('The key is the one --expect-pubkey gives.')
    this.logLine(
      r.encrypted
        ? 'The BLS key is encrypted with the new passphrase.'
        : 'The BLS key is stored UNENCRYPTED (no-passphrase).',
    )
    this.out(formatIdentity(view).join('\n'))
    if (r.localAddresses)
      this.warnLine(
        'no external address was given for some peers, so node-info.yaml holds local-only 127.0.0.1 addresses that other validators cannot reach. Recover again into a new --datadir with --external-primary-addr and --external-worker-addrs.',
      )
    return {
      datadir: r.paths.datadir,
      nodeInfo: r.paths.nodeInfo,
      keyFile: r.keyFile,
      encrypted: r.encrypted,
      keyPath: r.keyPath,
      checkedAgainst: r.checkedAgainst,
      recordFile: r.recordFile,
      ...view,
    }
  }

  /**
   * --check: the flags and the target are checked as the run checks them (a data directory
   * holding keys or node-info.yaml is refused), then the files it would write. The phrase and
   * the passphrase are not read, so the key it gives is not compared with the registry or
   * --expect-pubkey: the run does that before it writes anything.
   */
  private async check(
    dir: string,
    address: string,
    { source, workers }: { source: string; workers: number },
  ): Promise<KeytoolCheckResult> {
    const [{ readdir, lstat }, datadir, { RecoverTargetExistsError }, check] = await Promise.all([
      import('node:fs/promises'),
      import('../../lib/keys/datadir.js'),
      import('../../lib/keys/recovery-errors.js'),
      import('../../cli/keytool-check.js'),
    ])
    const paths = datadir.datadirPaths(dir)
    const existing: string[] = []
    if (
      await lstat(paths.nodeInfo).then(
        () => true,
        () => false,
      )
    )
      existing.push(paths.nodeInfo)
    if ((await readdir(paths.nodeKeys).catch((): string[] => [])).length > 0) existing.push(`${paths.nodeKeys}/`)
    if (existing.length) throw new RecoverTargetExistsError(existing)
    const result = check.checkResult(
      await check.planFiles(await check.nodeKeyFiles(paths, { encrypted: source !== 'no-passphrase', workers })),
      `would recover the keys of the phrase for ${address} into ${paths.datadir} (the run reads the phrase and checks the key before it writes)`,
    )
    for (const line of check.checkLines(result)) this.out(line)
    return result
  }
}
