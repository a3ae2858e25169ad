import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Flags } from '@oclif/core'
import { chainFlags } from '../cli/flags/chain.js'
import { datadirFlag, passphraseFlags } from '../cli/flags/common.js'
import { timeoutFlags } from '../cli/flags/rpc.js'
import { KeytoolCommand } from '../cli/keytool-command.js'
import type { Facts, KeyAccess } from '../lib/fleet/facts.js'

export default class FactsCommand extends KeytoolCommand {
  static override summary =
    'One document about a data directory: identity, keys and their checks, backup, node, health, registry, epoch and committee.'
  static override description =
    `For automation (Ansible facts, audits): composed from keytool show and verify, the backup record, node status, node check and the registry. Sends nothing and changes no key, setting or node; like node status it may add to tnv's own records (a node found dead goes into the run log).

The key checks (keytool verify) need the key opened: they run when the key is the unencrypted bls.key, or a passphrase is available (TN_BLS_PASSPHRASE, the systemd credential $CREDENTIALS_DIRECTORY/tn-bls-passphrase, or --bls-passphrase-source stdin); otherwise keys.verified is {"ok": null, "reason": …}.

A section that cannot be read is {"error": {code, message, fix}} and the others are still read. \`attention\` is the worst of: the health level, a section in error (fail), a failed key check (fail), no verified backup (warn).

Exit code 0 whenever the document is written (the facts say what is wrong); bad flags exit with their own codes (docs/ci.md).`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --datadir /var/lib/tnv/v1 --chain testnet --json',
    '<%= config.bin %> <%= command.id %> --datadir ./validator --chain devnet --json | jq .registry.status',
  ]
  static override flags = {
    ...datadirFlag,
    ...chainFlags,
    ...passphraseFlags,
    address: Flags.string({
      helpValue: '<address>',
      summary: 'Validator address. Default: execution_address of node-info.yaml.',
    }),
    'node-rpc-url': Flags.string({
      helpValue: '<url|path>',
      summary: "The local node's endpoint. Default: the node tnv started for --datadir.",
    }),
    exposure: Flags.boolean({
      default: false,
      allowNo: true,
      summary: 'Also probe RPC exposure in the health section (one call per namespace and transport).',
    }),
    ...timeoutFlags,
  }

  async run(): Promise<Facts> {
    const { flags } = await this.parse(FactsCommand)
    const [{ collectFacts }, { envPassphrasePresent }, { parseAddressFlag }] = await Promise.all([
      import('../lib/fleet/facts.js'),
      import('../lib/passphrase/read-passphrase.js'),
      import('../lib/chain/address.js'),
    ])
    const source = flags['bls-passphrase-source']
    const encrypted = existsSync(join(flags.datadir, 'node-keys', 'bls.kw'))
    // env without a passphrase and an encrypted key: the checks are skipped, not an error (facts read what they can)
    const keys: KeyAccess =
      source === 'env' && encrypted && !envPassphrasePresent(this.session.env)
        ? {
            unavailable:
              'node-keys/bls.kw is encrypted and no passphrase was given (TN_BLS_PASSPHRASE, $CREDENTIALS_DIRECTORY/tn-bls-passphrase or --bls-passphrase-source stdin)',
          }
        : { open: () => this.openKey(flags.datadir, source) }
    const facts = await collectFacts({
      datadir: flags.datadir,
      chain: flags,
      keys,
      nodeUrl: flags['node-rpc-url'],
      address: flags.address === undefined ? undefined : parseAddressFlag(flags.address, '--address'),
      exposure: flags.exposure,
      timeoutMs: flags.timeout,
    })
    if (!this.jsonEnabled()) this.render(facts)
    return facts
  }

  private render(f: Facts): void {
    const line = (k: string, v: string) => this.out(`${k.padEnd(10)} ${v}`)
    const err = (s: unknown) =>
      typeof s === 'object' && s !== null && 'error' in s
        ? `error: ${(s as { error: { message: string } }).error.message}`
        : null
    line('datadir', f.datadir)
    line(
      'identity',
      err(f.identity) ?? `${'name' in f.identity ? `${f.identity.name} ${f.identity.executionAddress}` : ''}`,
    )
    line(
      'keys',
      err(f.keys) ??
        ('verified' in f.keys
          ? f.keys.verified.ok === null
            ? `not verified: ${f.keys.verified.reason}`
            : f.keys.verified.ok
              ? `verified (${f.keys.verified.checks.length} checks)`
              : 'VERIFY FAILED'
          : ''),
    )
    line(
      'backup',
      err(f.backup) ??
        ('ok' in f.backup ? (f.backup.ok ? `${f.backup.how} ${f.backup.at}` : `none: ${f.backup.reason}`) : ''),
    )
    line(
      'node',
      err(f.node) ?? ('running' in f.node ? (f.node.running ? `running pid ${f.node.pid}` : 'not running') : ''),
    )
    line('health', err(f.health) ?? ('level' in f.health ? `${f.health.level}: ${f.health.next}` : ''))
    line('registry', f.registry ? `${f.registry.status}${f.registry.whitelisted ? '' : ' (not whitelisted)'}` : '-')
    line(
      'epoch',
      f.epoch
        ? `${f.epoch.current}, ${f.epoch.inCommittee ? 'in the committee' : 'not in the committee'}${f.epoch.inNextCommittee === null ? '' : f.epoch.inNextCommittee ? ', and next epoch' : ', not next epoch'}`
        : '-',
    )
    line('attention', f.attention)
  }
}
