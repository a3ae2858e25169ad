/** Errors about where a passphrase comes from. Never carry the passphrase itself. */
import { UsageError } from '../errors.js'

// no-passphrase is offered only for the key's own source: --new-passphrase-source has no such value
const SOURCES_HELP = (flag: string) =>
  flag === '--bls-passphrase-source'
    ? `${flag} stdin (a line of standard input, trailing whitespace dropped), ${flag} ask (hidden prompt on a terminal), or ${flag} no-passphrase (an unencrypted bls.key; also the simple choice for commands that read no key, such as export-staking-args)`
    : `${flag} stdin (a line of standard input, trailing whitespace dropped) or ${flag} ask (hidden prompt on a terminal)`

/** The node's own text for "no passphrase from a source that should give one" (real-network/node.md §1). */
export const PASSPHRASE_REQUIRED_TEXT = 'passphrase is required, see the option --bls-passphrase-source for options'

/**
 * No passphrase came from the chosen source (env unset or empty, an empty stdin line, nothing
 * typed). The message starts with the node's own text.
 */
export class PassphraseRequiredError extends UsageError {
  override readonly code: string = 'PassphraseRequired'
  constructor(why: string, flag: string, envVar = 'TN_BLS_PASSPHRASE') {
    super(`${PASSPHRASE_REQUIRED_TEXT}: ${why}.`, {
      fix: `Set ${envVar} without leaving it in your shell history (\`read -rs ${envVar} && export ${envVar}\`), or choose another source: ${SOURCES_HELP(flag)}.`,
    })
  }
}

/** The two prompted entries of a new passphrase differ. */
export class PassphrasesDoNotMatchError extends UsageError {
  override readonly code: string = 'PassphrasesDoNotMatch'
  constructor() {
    super('Passphrases do not match: the two entries differed three times in a row. Nothing was changed.', {
      fix: 'Run the command again and type the same passphrase twice.',
    })
  }
}

/** Source stdin, but standard input ended before a line was read. */
export class NoPassphraseOnStdinError extends UsageError {
  override readonly code: string = 'NoPassphraseOnStdin'
  constructor(what: string, flag: string) {
    super(
      `${PASSPHRASE_REQUIRED_TEXT}: standard input ended before it gave the ${what} (${flag} stdin reads one line per passphrase).`,
      {
        fix: `Pipe the passphrase in, e.g. \`printf '%s\\n' "$PASS" | tnv …\`, or choose another source: ${SOURCES_HELP(flag)}.`,
      },
    )
  }
}

/** Source stdin while standard input is a terminal: the passphrase would be echoed. */
export class StdinIsTerminalError extends UsageError {
  override readonly code: string = 'StdinIsTerminal'
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
  override readonly code: string = 'NoTerminalForPrompt'
  constructor(flag: string, envVar = 'TN_BLS_PASSPHRASE') {
    super(`${flag} ask needs a terminal to prompt on, and there is none (standard input or error is not a TTY).`, {
      fix: `Use ${flag} env (set ${envVar}) or ${flag} stdin (pipe the passphrase in).`,
    })
  }
}
