import { resolve } from 'node:path'
import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { skipBackupCheckFlag } from '../../cli/flags/backup-gate.js'
import { chainFlags, signerFlags } from '../../cli/flags/chain.js'
import { checkFlag } from '../../cli/flags/check.js'
import { passphraseFlags } from '../../cli/flags/common.js'
import { keyMaterialFlags } from '../../cli/flags/registry.js'
import type { CheckDelegationSignatureReturnType } from '../../lib/registry/check-delegation-signature.js'
import type { DelegationSignatureFile } from '../../lib/registry/delegation-file.js'

export type DelegationSignResult = {
  /** Where the file was written; null when printed to stdout. */
  path: string | null
  /** The previous file kept as a backup when --force replaced one. */
  backup: string | null
  /** False when signed offline (--registry-generation, --stake-version and --nonce given). */
  checkedOnChain: boolean
  signature: DelegationSignatureFile
}

export default class DelegationSign extends BaseCommand {
  static override summary = 'Sign a delegation as the validator, for a delegator to stake on your behalf.'

  static override description =
    `Needs the validator's key (the whitelisted execution address) and node-info.yaml (or --bls-pubkey with --pop/--adiri-pop). Writes a signature file with the digest's inputs and the proof of possession the stake needs; the delegator passes it to \`tnv delegation stake --signature FILE\`.

Online (default) the registry's own delegation digest is read, reproduced locally (which also finds your delegation nonce; no view exposes it) and signed as a raw 32-byte hash: that is what the deployed registries verify. On the adiri registry the file also needs adiri's proof of possession, which tnv signs with your BLS key (asking for --bls-passphrase-source only then) unless --adiri-pop gives it.

Offline, pass --registry-generation, --stake-version and --nonce (read them with \`tnv validator status\`) and --chain or --chain-id: nothing is contacted.

The signature stops working when the stake version changes (the next epoch after governance writes a new config), when your nonce moves on (another delegation, or \`tnv delegation revoke\` on the next generation), and after the deadline (next generation only: adiri signatures have none).

--check runs every check and read of the run (the registry's state and digest, the key material, the backup gate, --out) with the validator's address only (the signer flags' address, a keystore's read in clear; else --validator, else node-info's execution address): no key is opened, nothing is signed or written. It says the digest it would sign and the file it would write (outcome would-change), or already-done when --out already holds the signature of that digest.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --delegator 0xDELEGATOR --deadline 7d --datadir ./validator-1 --keystore validator.json --out delegation.json',
    '<%= config.bin %> <%= command.id %> --delegator 0xDELEGATOR --deadline 2026-12-31T00:00:00Z --datadir ./validator-1 --out delegation.json --check --json   # what it would sign and write',
    '<%= config.bin %> <%= command.id %> --delegator 0xDELEGATOR --chain testnet --registry-generation adiri --stake-version 0 --nonce 0 --datadir ./validator-1 --keystore validator.json --out delegation.json   # offline',
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
    out: Flags.string({ helpValue: '<file>', summary: 'Write the signature file here (default: print it to stdout).' }),
    'external-signature': Flags.string({
      helpValue: '<0x 65 bytes>',
      summary:
        "The validator's signature of the digest made elsewhere (a hardware wallet); no key is needed here. It must recover to the validator.",
      description:
        'Get the digest (and its domain separator and struct hash) from `tnv delegation digest` with an absolute --deadline, sign it as a raw hash on the device, then pass the same --deadline here.',
    }),
    validator: Flags.string({
      helpValue: '<address>',
      summary:
        'With --external-signature and --bls-pubkey, or --check without signer flags: the validator address (default: node-info’s execution_address).',
    }),
    force: Flags.boolean({ summary: 'Replace an existing --out file (kept first as a timestamped backup).' }),
    'stake-version': Flags.integer({
      min: 0,
      max: 255,
      dependsOn: ['nonce', 'registry-generation'],
      summary: "Sign offline: the current epoch's stake version (with --nonce and --registry-generation).",
    }),
    nonce: Flags.integer({
      min: 0,
      dependsOn: ['stake-version', 'registry-generation'],
      summary: 'Sign offline: your current delegation nonce (with --stake-version and --registry-generation).',
    }),
    ...keyMaterialFlags,
    ...chainFlags,
    ...passphraseFlags,
    keystore: signerFlags.keystore,
    'keystore-password-source': signerFlags['keystore-password-source'],
    ledger: signerFlags.ledger,
    trezor: signerFlags.trezor,
    ...skipBackupCheckFlag,
    ...checkFlag,
  }

  async run(): Promise<DelegationSignResult | CheckDelegationSignatureReturnType> {
    const { flags } = await this.parse(DelegationSign)
    if (flags.ledger || flags.trezor) {
      const { HardwareCannotSignDigestError } = await import('../../lib/signers/errors.js')
      throw new HardwareCannotSignDigestError(flags.ledger ? 'ledger' : 'trezor')
    }
    // the place of the signature file is checked before any key is opened or anything signed
    const outputFile = await import('../../lib/fs/output-file.js')
    if (flags.out !== undefined) await outputFile.assertOutputPath(flags.out, '--out')
    const [
      { signDelegation },
      { parseAddressFlag },
      { keyMaterialFromFlags },
      { parseDeadline },
      files,
      { adiriProofSigner },
      { delegationSignInputs },
    ] = await Promise.all([
      import('../../lib/registry/sign-delegation.js'),
      import('../../lib/chain/address.js'),
      import('../../lib/registry/key-material.js'),
      import('../../lib/registry/deadline.js'),
      import('../../lib/registry/delegation-file.js'),
      import('../../lib/registry/adiri-proof-signer.js'),
      import('../../cli/delegation-sign.js'),
    ])
    const note = (line: string) => this.note(line)
    const delegator = parseAddressFlag(flags.delegator, '--delegator')
    const keys = await keyMaterialFromFlags(flags)
    const deadline = parseDeadline(flags.deadline ?? '24h', BigInt(Math.floor(Date.now() / 1000)))
    if (flags.check) {
      const { checkDelegationSign } = await import('../../cli/delegation-sign.js')
      const r = await checkDelegationSign(this.session, flags, { keys, delegator, deadline }, note)
      this.out(`${r.outcome}: ${r.message} (check: nothing was signed or written)`)
      if (r.proofToSign) this.out(`  would sign ${r.proofToSign}`)
      for (const f of r.files) this.out(`  would ${f.action}  ${f.path}  (mode ${f.mode})`)
      return r
    }
    const { signer, source } = await delegationSignInputs(this.session, flags, keys, note)
    const { file } = await signDelegation({
      source,
      signer,
      delegator,
      deadline,
      blsPubkey: keys.blsPubkey,
      proofOfPossession: keys.proofOfPossession,
      adiriSignature: keys.adiriSignature,
      signAdiriProof: adiriProofSigner({
        datadir: keys.keyDir,
        source: flags['bls-passphrase-source'],
        stdin: this.session.stdin(),
        io: this.session.passphraseIo(),
        env: this.session.passphraseEnv(flags['bls-passphrase-source']),
        note,
      }),
      report: this.session.reporter(),
    })
    if (flags.deadline !== undefined && file.deadline === null)
      note('Note: the adiri registry signs no deadline; --deadline has no effect there.')
    let backup: string | null = null
    const validity = `${file.generation} registry, ${file.deadlineIso ? `valid until ${file.deadlineIso}` : 'no deadline'}, stake version ${file.stakeVersion}, nonce ${file.nonce}`
    if (flags.out !== undefined) {
      try {
        ;({ backup } = await files.writeDelegationFile(flags.out, file, { force: flags.force }))
      } catch (err) {
        throw outputFile.explainOutputError(err, resolve(flags.out), '--out')
      }
      if (backup) note(`Kept the previous file as ${backup}.`)
      this.out(`Wrote the delegation signature for delegator ${delegator} to ${flags.out} (${validity}).`)
    } else {
      this.out(JSON.stringify(file, null, 2))
      note(`Signed for delegator ${delegator} (${validity}).`)
    }
    return { path: flags.out ?? null, backup, checkedOnChain: source.mode === 'online', signature: file }
  }
}
