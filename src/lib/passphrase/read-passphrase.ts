/**
 * Gets a BLS key passphrase from the chosen source (spec: Authentication):
 * - env: TN_BLS_PASSPHRASE, removed from the process environment once read;
 * - stdin: one line of standard input (refused when stdin is a terminal: it would echo);
 * - ask: a hidden prompt on a terminal, asked twice when a key is created;
 * - no-passphrase: none (the key is, or will be, the unencrypted bls.key).
 * A passphrase is never taken from a command-line value. A new key's passphrase must not be empty.
 */
import type { PassphraseSource } from '../flags.js'
import {
  EmptyPassphraseError,
  NoPassphraseOnStdinError,
  NoTerminalForPromptError,
  PassphraseRequiredError,
  PassphrasesDoNotMatchError,
  StdinIsTerminalError,
} from './errors.js'
import type { StdinLines } from './stdin-lines.js'

export const PASSPHRASE_ENV = 'TN_BLS_PASSPHRASE'
export const PASSPHRASE_FLAG = '--bls-passphrase-source'

/** Terminal access, injectable for tests. */
export type PromptIo = {
  /** true when a hidden prompt can be shown (stdin and stderr are TTYs). */
  isTTY: boolean
  /** Shows a hidden prompt and returns what was typed. */
  ask: (message: string) => Promise<string>
}

export type ReadPassphraseParameters = {
  source: PassphraseSource
  /** create: a new key (not empty; asked twice with ask). open: an existing key. */
  purpose: 'create' | 'open'
  /** Variable for source env. Default TN_BLS_PASSPHRASE. */
  envVar?: string
  /** The flag that chose the source, for messages. Default --bls-passphrase-source. */
  flag?: string
  /** What the prompt asks for. */
  label?: string
  env?: NodeJS.ProcessEnv
  /** Shared standard-input reader (needed for source stdin). */
  stdin?: StdinLines
  io?: PromptIo
}

/**
 * @returns the passphrase, or undefined for no-passphrase
 * @example const passphrase = await readPassphrase({ source: 'env', purpose: 'open' })
 */
export async function readPassphrase({
  source,
  purpose,
  envVar = PASSPHRASE_ENV,
  flag = PASSPHRASE_FLAG,
  label = 'BLS key passphrase',
  env = process.env,
  stdin,
  io,
}: ReadPassphraseParameters): Promise<string | undefined> {
  if (source === 'no-passphrase') return undefined
  let passphrase: string
  if (source === 'env') {
    const value = env[envVar]
    delete env[envVar]
    if (value === undefined) throw new PassphraseRequiredError(envVar, flag)
    passphrase = value
  } else if (source === 'stdin') {
    if (!stdin) throw new Error('readPassphrase: source stdin needs a StdinLines reader')
    if (stdin.isTTY) throw new StdinIsTerminalError(flag)
    const line = await stdin.next()
    if (line === undefined) throw new NoPassphraseOnStdinError(label, flag)
    passphrase = line
  } else {
    const prompt = io ?? (await terminalIo())
    if (!prompt.isTTY) throw new NoTerminalForPromptError(flag, envVar)
    passphrase = await prompt.ask(purpose === 'create' ? `New ${label}:` : `${label}:`)
    if (purpose === 'create' && passphrase !== '' && (await prompt.ask(`Repeat the new ${label}:`)) !== passphrase)
      throw new PassphrasesDoNotMatchError()
  }
  if (purpose === 'create' && passphrase === '')
    throw new EmptyPassphraseError(
      source === 'env' ? envVar : source === 'stdin' ? 'standard input' : 'the prompt',
      flag,
    )
  return passphrase
}

/**
 * A source that a command which reads no key still honours, as the reference does (spec:
 * every keytool command except set-rpc requires a passphrase source): env needs the variable
 * (it is removed, unused); the other sources are accepted without reading anything.
 */
export function requirePassphraseSource({
  source,
  envVar = PASSPHRASE_ENV,
  flag = PASSPHRASE_FLAG,
  env = process.env,
}: Pick<ReadPassphraseParameters, 'source' | 'envVar' | 'flag' | 'env'>): void {
  if (source !== 'env') return
  const present = env[envVar] !== undefined
  delete env[envVar]
  if (!present) throw new PassphraseRequiredError(envVar, flag)
}

/** The real terminal: @inquirer/prompts' password prompt on stderr, nothing echoed. */
async function terminalIo(): Promise<PromptIo> {
  const isTTY = process.stdin.isTTY === true && process.stderr.isTTY === true
  return {
    isTTY,
    ask: async (message) => {
      const { password } = await import('@inquirer/prompts')
      const { AbortedError } = await import('../errors.js')
      try {
        return await password({ message }, { output: process.stderr, clearPromptOnDone: false })
      } catch (err) {
        if (err instanceof Error && err.name === 'ExitPromptError') throw new AbortedError()
        throw err
      }
    },
  }
}
