/** Errors about where a passphrase comes from. Never carry the passphrase itself. */
import { UsageError } from '../errors.js'

const SOURCES_HELP = (flag: string) =>
  `${flag} stdin (first line of standard input), ${flag} ask (hidden prompt on a terminal), or ${flag} no-passphrase (unencrypted bls.key; also the simple choice for commands that read no key, such as export-staking-args and show)`

/** Source env and the variable is not set. The text contains "passphrase is required" (spec). */
export class PassphraseRequiredError extends UsageError {
  constructor(envVar: string, flag: string) {
    super(`A BLS key passphrase is required: ${envVar} is not set (${flag} env, the default).`, {
      fix: `Set it without leaving it in your shell history (\`read -rs ${envVar} && export ${envVar}\`), or choose another source: ${SOURCES_HELP(flag)}.`,
    })
  }
}

/** A new key would be encrypted with an empty passphrase. */
export class EmptyPassphraseError extends UsageError {
  constructor(where: string, flag: string) {
    super(`The passphrase from ${where} is empty, and a new key needs a non-empty passphrase.`, {
      fix: `Give a passphrase, or pass ${flag} no-passphrase to store the key unencrypted (not recommended for a validator).`,
    })
  }
}

/** The two prompted entries of a new passphrase differ. */
export class PassphrasesDoNotMatchError extends UsageError {
  constructor() {
    super('The two passphrases you typed do not match. Nothing was changed.', {
      fix: 'Run the command again and type the same passphrase twice.',
    })
  }
}

/** Source stdin, but standard input ended before a line was read. */
export class NoPassphraseOnStdinError extends UsageError {
  constructor(what: string, flag: string) {
    super(`Standard input ended before it gave the ${what} (${flag} stdin reads one line per passphrase).`, {
      fix: `Pipe the passphrase in, e.g. \`printf '%s\\n' "$PASS" | tnv …\`, or choose another source: ${SOURCES_HELP(flag)}.`,
    })
  }
}

/** Source stdin while standard input is a terminal: the passphrase would be echoed. */
export class StdinIsTerminalError extends UsageError {
  constructor(flag: string) {
    super(
      `${flag} stdin reads the passphrase from standard input, which is a terminal here, so what you type would be shown.`,
      {
        fix: `Use ${flag} ask for a hidden prompt, or pipe the passphrase in.`,
      },
    )
  }
}

/** Source ask without a terminal. */
export class NoTerminalForPromptError extends UsageError {
  constructor(flag: string, envVar = 'TN_BLS_PASSPHRASE') {
    super(`${flag} ask needs a terminal to prompt on, and there is none (standard input or error is not a TTY).`, {
      fix: `Use ${flag} env (set ${envVar}) or ${flag} stdin (pipe the passphrase in).`,
    })
  }
}
