/**
 * Gets a BLS key passphrase from the chosen source, with the node's own semantics
 * (real-network/node.md §1, "Passphrase semantics"; the node's `passphrase.rs`):
 * - env: TN_BLS_PASSPHRASE as the session hands it (`env`; the session takes it out of the process
 *   environment, src/cli/session.ts `passphraseEnv`); an EMPTY value counts as unset, as the node does;
 * - stdin: one line of standard input with ALL trailing whitespace removed (Rust `trim_end`:
 *   newline, CR, spaces, tabs, any Unicode White_Space); an empty result means no passphrase.
 *   A terminal on stdin is refused (it would echo);
 * - ask: a hidden prompt on a terminal, asked twice when a key is created (a mismatch asks
 *   again, as the node does, at most three times); nothing typed means no passphrase;
 * - no-passphrase: none.
 * Every source takes UTF-8 text only: bytes that are not valid UTF-8 (stdin, checked byte for
 * byte) or the U+FFFD they become on the way in (env, prompt) are refused (SecretNotUtf8Error),
 * since they would make different passphrases equal.
 * "No passphrase" from a source other than no-passphrase is the node's error ("passphrase is
 * required, see the option --bls-passphrase-source for options") unless the caller can do
 * without one (`required: false`: an unencrypted bls.key). A passphrase is never taken from a
 * command-line value.
 */
import type { PassphraseSource } from '../options.js'
import { PASSPHRASE_ENV, type PassphraseEnv } from './env-var.js'
import {
  assertUtf8Secret,
  NoPassphraseOnStdinError,
  NoTerminalForPromptError,
  PassphraseRequiredError,
  PassphrasesDoNotMatchError,
  StdinIsTerminalError,
} from './errors.js'
import type { StdinLines } from './stdin-lines.js'

export { PASSPHRASE_ENV, type PassphraseEnv }
export const PASSPHRASE_FLAG = '--bls-passphrase-source'
/** How often `ask` repeats the two prompts of a new passphrase when they differ. */
export const ASK_ATTEMPTS = 3

/** Terminal access, injectable for tests. */
export type PromptIo = {
  /** true when a hidden prompt can be shown (stdin and stderr are TTYs). */
  isTTY: boolean
  /** Shows a hidden prompt and returns what was typed. */
  ask: (message: string) => Promise<string>
  /** A line for the person at the terminal (stderr); optional. */
  say?: (message: string) => void
}

export type ReadPassphraseParameters = {
  source: PassphraseSource
  /** create: a new key (asked twice with ask). open: an existing key. */
  purpose: 'create' | 'open'
  /** false: "no passphrase" is an answer (undefined) rather than an error. Default true. */
  required?: boolean
  /** Variable for source env. Default TN_BLS_PASSPHRASE. */
  envVar?: string
  /** The flag that chose the source, for messages. Default --bls-passphrase-source. */
  flag?: string
  /** What the prompt asks for. */
  label?: string
  /** The passphrase variables the session hands over (src/cli/session.ts `passphraseEnv`); read by source env only. */
  env: PassphraseEnv
  /** The run's one standard-input reader (needed for source stdin). */
  stdin?: StdinLines
  /** The session's hidden prompt (needed for source ask; without it ask is refused as having no terminal). */
  io?: PromptIo
}

/** Rust's `str::trim_end`: every trailing character with the Unicode White_Space property. */
export function trimEndWhitespace(text: string): string {
  return text.replace(/\p{White_Space}+$/u, '')
}

/**
 * @returns the passphrase, or undefined for no-passphrase (and for "none given" when not required)
 * @example const passphrase = await readPassphrase({ source: 'env', purpose: 'open', env: session.passphraseEnv('env') })
 */
export async function readPassphrase({
  source,
  purpose,
  required = true,
  envVar = PASSPHRASE_ENV,
  flag = PASSPHRASE_FLAG,
  label = 'BLS key passphrase',
  env,
  stdin,
  io,
}: ReadPassphraseParameters): Promise<string | undefined> {
  if (source === 'no-passphrase') return undefined
  let passphrase: string | undefined
  let why: string
  if (source === 'env') {
    const value = env[envVar]
    if (value !== undefined && value !== '') {
      assertUtf8Secret(value, label, { kind: 'env', name: envVar })
      passphrase = value
    }
    // env is the default of --bls-passphrase-source only (--new-passphrase-source defaults to ask)
    why = `${envVar} is ${value === undefined ? 'not set' : 'empty, which counts as not set (as the node treats it)'} (${flag} env${flag === PASSPHRASE_FLAG ? ', the default' : ''})`
  } else if (source === 'stdin') {
    if (!stdin) throw new Error('readPassphrase: source stdin needs a StdinLines reader')
    if (stdin.isTTY) throw new StdinIsTerminalError(flag)
    const line = await stdin.next()
    if (line === undefined) {
      if (required) throw new NoPassphraseOnStdinError(label, flag)
      return undefined
    }
    passphrase = trimEndWhitespace(line) || undefined
    why = `the line read from standard input is empty once its trailing whitespace is dropped (${flag} stdin drops it, as the node does)`
  } else {
    const prompt = io
    if (!prompt?.isTTY) throw new NoTerminalForPromptError(flag, envVar)
    passphrase = purpose === 'create' ? await askTwice(prompt, label) : await prompt.ask(`${label}:`)
    assertUtf8Secret(passphrase, label, { kind: 'prompt' })
    if (passphrase === '') {
      if (purpose === 'create') prompt.say?.('No passphrase set for BLS key, this is not recommended.')
      passphrase = undefined
    }
    why = 'nothing was typed at the prompt'
  }
  if (passphrase === undefined && required) throw new PassphraseRequiredError(why, flag, envVar)
  return passphrase
}

async function askTwice(prompt: PromptIo, label: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const first = await prompt.ask(`New ${label}:`)
    if (first === '') return ''
    if ((await prompt.ask(`Repeat the new ${label}:`)) === first) return first
    if (attempt >= ASK_ATTEMPTS) throw new PassphrasesDoNotMatchError()
    prompt.say?.('Passphrases do not match, retry.')
  }
}

/**
 * Whether the source env would give a passphrase, without consuming it: the variable is set
 * and not empty.
 */
export function envPassphrasePresent(env: PassphraseEnv, envVar = PASSPHRASE_ENV): boolean {
  const value = env[envVar]
  return value !== undefined && value !== ''
}
