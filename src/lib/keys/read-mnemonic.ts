/**
 * Reads a recovery phrase: from a file (`--mnemonic-file PATH`), one line of standard input
 * (`--mnemonic-file -`, the session's one reader: the phrase's line comes before the
 * passphrase's), or a hidden prompt on a terminal (asked again, three times at most, after a
 * misspelt word or a bad checksum). Never from a flag value or the environment (a child process
 * would inherit it). Returns the checked, canonical phrase.
 */
import { promises as fs } from 'node:fs'
import { MissingInputError } from '../errors.js'
import type { PromptIo } from '../passphrase/read-passphrase.js'
import type { StdinLines } from '../passphrase/stdin-lines.js'
import { parseMnemonic } from './mnemonic.js'
import { BackupFileError } from './recovery-errors.js'

const MAX_PHRASE_FILE_BYTES = 4096

export type ReadMnemonicParameters = {
  /** --mnemonic-file: a path, or `-` for a line of standard input. */
  file?: string | undefined
  stdin?: StdinLines | undefined
  io?: PromptIo | undefined
}

export type ReadMnemonicReturnType = {
  phrase: string
  /** Where it came from, for messages (never the phrase). */
  from: 'file' | 'stdin' | 'prompt'
  /** A warning for the operator (a phrase file others can read). */
  warning?: string
}

/** @throws MissingInputError (no file and no terminal), the phrase's errors (./mnemonic.ts) */
export async function readMnemonic({ file, stdin, io }: ReadMnemonicParameters): Promise<ReadMnemonicReturnType> {
  if (file === '-') {
    const line = stdin && !stdin.isTTY ? await stdin.next() : undefined
    if (line === undefined)
      throw new MissingInputError(
        'The recovery phrase (one line of standard input, for --mnemonic-file -)',
        'the phrase on standard input (a pipe, not a terminal), or --mnemonic-file FILE',
      )
    return { phrase: parseMnemonic(line), from: 'stdin' }
  }
  if (file !== undefined) {
    const stat = await fs.stat(file).catch(() => undefined)
    if (!stat?.isFile()) throw new BackupFileError(file, 'there is no such file (--mnemonic-file)')
    if (stat.size > MAX_PHRASE_FILE_BYTES)
      throw new BackupFileError(file, `it is ${stat.size} bytes, far larger than a recovery phrase`)
    const phrase = parseMnemonic(await fs.readFile(file, 'utf8'))
    return {
      phrase,
      from: 'file',
      ...((stat.mode & 0o077) !== 0
        ? {
            warning: `${file} can be read by other users (mode ${(stat.mode & 0o777).toString(8)}): anyone with the words holds the key. chmod 600 it, or better, keep the phrase on paper only.`,
          }
        : {}),
    }
  }
  if (!io?.isTTY)
    throw new MissingInputError(
      'The recovery phrase',
      '--mnemonic-file FILE, or --mnemonic-file - with the phrase as one line of standard input (it is never a flag value)',
    )
  for (let attempt = 1; ; attempt++) {
    const typed = await io.ask('Recovery phrase (the words in order, separated by spaces; hidden):')
    try {
      return { phrase: parseMnemonic(typed), from: 'prompt' }
    } catch (err) {
      if (attempt >= 3 || !(err instanceof Error) || !('fix' in err)) throw err
      io.say?.(`${err.message.replace(' Nothing was written.', '')} Try again.`)
    }
  }
}
