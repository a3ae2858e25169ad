/**
 * Base of every `tnv keytool` command. Keytool writes its log lines to stdout (spec: use -q
 * when capturing output), so: `logLine` = stdout unless -q or --json; `out` = the result
 * (stdout unless --json); `warnLine` = stderr, always (warnings are never part of the result).
 * Standard input is read through one shared line reader, closed when the command ends.
 */

import { BaseCommand } from '../base-command.js'
import type { PassphraseSource } from '../flags.js'
import type { StdinLines } from '../passphrase/stdin-lines.js'

export abstract class KeytoolCommand extends BaseCommand {
  protected quiet = false
  private stdinReader: StdinLines | undefined

  /** Keytool's log lines: stdout (spec), silenced by -q and --json. */
  protected logLine(message: string): void {
    if (!this.quiet && !this.jsonEnabled()) process.stdout.write(`${message}\n`)
  }

  /** A warning: stderr, always. */
  protected warnLine(message: string): void {
    process.stderr.write(`Warning: ${message}\n`)
  }

  /** The shared standard-input reader (one line per passphrase). */
  protected async stdin(): Promise<StdinLines> {
    if (!this.stdinReader) {
      const { StdinLines } = await import('../passphrase/stdin-lines.js')
      this.stdinReader = new StdinLines()
    }
    return this.stdinReader
  }

  /**
   * Opens the data directory's BLS key with the command's passphrase source; warns about a weak
   * bls.kw (the node's own warning text) and about a passphrase that an unencrypted bls.key did
   * not use.
   */
  protected async openKey(datadir: string, source: PassphraseSource) {
    const { openBlsKey } = await import('./open-key.js')
    const key = await openBlsKey({ datadir, source, ...(source === 'stdin' ? { stdin: await this.stdin() } : {}) })
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

  protected override async finally(err: Error | undefined): Promise<unknown> {
    this.stdinReader?.close()
    return super.finally(err)
  }
}
