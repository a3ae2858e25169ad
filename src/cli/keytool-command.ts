/**
 * Base of every `tnv keytool` command. Keytool writes its log lines to stdout (spec: use -q
 * when capturing output), so: `logLine` = stdout unless -q or --json; `out` = the result
 * (stdout unless --json); `warnLine` = stderr, always (warnings are never part of the result).
 * Standard input is the session's one line reader; prompts are the session's.
 */

import type { StdinLines } from '../lib/passphrase/stdin-lines.js'
import { BaseCommand } from './base-command.js'
import type { PassphraseSource } from './flags/common.js'

export abstract class KeytoolCommand extends BaseCommand {
  protected quiet = false

  /** Keytool's log lines: stdout (spec), silenced by -q and --json. */
  protected logLine(message: string): void {
    if (!this.quiet && !this.jsonEnabled()) process.stdout.write(`${message}\n`)
  }

  /** A warning: stderr, always. */
  protected warnLine(message: string): void {
    process.stderr.write(`Warning: ${message}\n`)
  }

  /** The session's standard-input reader (one line per passphrase, in the order they are needed). */
  protected async stdin(): Promise<StdinLines> {
    return this.session.stdin()
  }

  /** The session's hidden prompt, for passphrase source ask. */
  protected get passphraseIo() {
    return this.session.passphraseIo()
  }

  /**
   * Takes the data directory's lock for this run (a second tnv command waits briefly, then is
   * told who holds it) and finishes or undoes a key commit a killed command left half-done.
   */
  /** @returns true when opening it finished or undid an interrupted key write (files read before may be stale) */
  protected async lockDatadir(datadir: string, { create = false }: { create?: boolean } = {}): Promise<boolean> {
    const dir = await this.session.openDatadir(datadir, { create })
    if (dir.recovered.action === 'rolled-forward')
      this.warnLine(
        `a key write in ${dir.datadir} started at ${dir.recovered.startedAt} was interrupted; it was completed now (the replaced files are in ${dir.recovered.backupDir ?? 'no backup'}).`,
      )
    else if (dir.recovered.action === 'rolled-back')
      this.warnLine(`an interrupted key write in ${dir.datadir} was undone; the directory is as it was before it.`)
    return dir.recovered.action !== 'none'
  }

  /**
   * Opens the data directory's BLS key with the command's passphrase source; warns about a weak
   * bls.kw (the node's own warning text) and about a passphrase that an unencrypted bls.key did
   * not use.
   */
  protected async openKey(datadir: string, source: PassphraseSource) {
    const [{ openBlsKey }, { blsPublicKey }, { recordKeyBinding }] = await Promise.all([
      import('../lib/keys/open-key.js'),
      import('../lib/keys/bls.js'),
      import('../lib/keys/key-binding.js'),
    ])
    const key = await openBlsKey({
      datadir,
      source,
      stdin: await this.stdin(),
      io: this.passphraseIo,
      env: this.session.passphraseEnv(source),
    })
    // opened anyway: record which public key this key file holds (stake checks it without the passphrase)
    await recordKeyBinding(datadir, blsPublicKey(key.secret)).catch(() => {})
    if (key.iterations === 1)
      this.warnLine(
        `BLS keyfile is protected by a weak KDF (1 PBKDF2 round(s) instead of 1000000); it was written by an insecure or poisoned build. (${key.path} opened with 1 PBKDF2 iteration instead of 1,000,000, so its passphrase can be guessed quickly.) Re-wrap it now: tnv keytool change-passphrase --datadir ${datadir}`,
      )
    if (!key.encrypted && source !== 'no-passphrase')
      this.warnLine(
        `${key.path} is stored UNENCRYPTED${key.passphraseIgnored ? '; the passphrase given was not used (the node reads bls.key the same way)' : ''}. Encrypt it: tnv keytool change-passphrase --datadir ${datadir}`,
      )
    return key
  }
}
