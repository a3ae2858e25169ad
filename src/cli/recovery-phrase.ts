/**
 * The recovery phrase of `keytool generate --mnemonic`, at the command layer: made in memory;
 * on a terminal shown ONCE (stderr, which the session's predicate makes a terminal), then the
 * screen and its scrollback are cleared and the operator re-types three words chosen at random,
 * three tries each; without a terminal written only to the new file --mnemonic-out names (mode
 * 0600). Never on stdout, never in a log, an error, the JSON result or the environment.
 */
import { promises as fs } from 'node:fs'
import { resolve } from 'node:path'
import { MissingInputError } from '../lib/errors.js'
import { assertOutputPath, writeNewOutputFile } from '../lib/fs/output-file.js'
import { confirmPhraseOnTerminal } from '../lib/keys/confirm-phrase.js'
import { generateMnemonic } from '../lib/keys/mnemonic.js'
import { blsSecretFromMnemonic, validatorKeyPath } from '../lib/keys/mnemonic-key.js'
import { OutputFileExistsError } from '../lib/keys/recovery-errors.js'
import type { Session } from './session.js'

export type PhrasePlan = {
  /** The BLS secret on the phrase's path. Zero it when done. */
  secret: Uint8Array
  keyPath: string
  /** Shows and confirms the phrase (terminal), or writes its file; call once every check passed. */
  deliver(): Promise<{ how: 'confirmed' } | { how: 'file'; file: string }>
  /** Undoes deliver's file when the keys were not written after all. */
  undo(): Promise<void>
}

export async function planRecoveryPhrase(
  session: Session,
  { out, index }: { out?: string | undefined; index: number },
): Promise<PhrasePlan> {
  if (out === undefined && !session.interactive)
    throw new MissingInputError(
      'A file for the recovery phrase (it is shown only on a terminal, never printed to a pipe or a log)',
      '--mnemonic-out FILE (a new file, written with mode 0600; copy the words to paper, then delete it)',
    )
  const file = out === undefined ? undefined : resolve(out)
  // a directory there is the wrong kind of path (exit 3), an existing file is refused (exit 2)
  if (file !== undefined) await assertOutputPath(file, '--mnemonic-out')
  if (file !== undefined && (await fs.stat(file).catch(() => undefined)))
    throw new OutputFileExistsError(file, '--mnemonic-out')
  let phrase = generateMnemonic()
  const secret = blsSecretFromMnemonic(phrase, index)
  let written = false
  return {
    secret,
    keyPath: validatorKeyPath(index),
    async deliver() {
      try {
        if (file !== undefined) {
          if (!(await writeNewOutputFile(file, `${phrase}\n`, { flag: '--mnemonic-out', mode: 0o600 })))
            throw new OutputFileExistsError(file, '--mnemonic-out')
          written = true
          return { how: 'file', file }
        }
        await confirmPhraseOnTerminal(session.prompter, (text) => process.stderr.write(text), phrase, index)
        return { how: 'confirmed' }
      } finally {
        phrase = ''
      }
    },
    async undo() {
      if (written && file !== undefined) await fs.rm(file, { force: true })
    },
  }
}
