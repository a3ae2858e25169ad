/**
 * The recovery phrase of `keytool generate --mnemonic`, at the command layer: made in memory;
 * on a terminal shown ONCE (stderr, which the session's predicate makes a terminal), then the
 * screen and its scrollback are cleared and the operator re-types three words chosen at random,
 * three tries each; without a terminal written only to the new file --mnemonic-out names (mode
 * 0600). Never on stdout, never in a log, an error, the JSON result or the environment.
 */
import { randomInt } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { resolve } from 'node:path'
import { MissingInputError } from '../lib/errors.js'
import { generateMnemonic, mnemonicWord } from '../lib/keys/mnemonic.js'
import { blsSecretFromMnemonic, validatorKeyPath } from '../lib/keys/mnemonic-key.js'
import { OutputFileExistsError, PhraseNotConfirmedError } from '../lib/keys/recovery-errors.js'
import { writeNewFile } from '../lib/keys/write-new-file.js'
import type { Session } from './session.js'

/** Words asked back, and tries per word. */
const CONFIRM_WORDS = 3
const TRIES = 3
/** Erase the screen and its scrollback, cursor home (xterm, VTE, tmux, the Linux console). */
const CLEAR = '\u001b[2J\u001b[3J\u001b[H'

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
          if (!(await writeNewFile(file, `${phrase}\n`, 0o600))) throw new OutputFileExistsError(file, '--mnemonic-out')
          written = true
          return { how: 'file', file }
        }
        await showAndConfirm(session, phrase, index)
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

async function showAndConfirm(session: Session, phrase: string, index: number): Promise<void> {
  const words = phrase.split(' ')
  const rows = 6
  const cols = Math.ceil(words.length / rows)
  const width = Math.max(...words.map((w) => w.length)) + 6
  const lines: string[] = []
  for (let r = 0; r < rows; r++) {
    let line = '   '
    for (let c = 0; c < cols; c++) {
      const i = c * rows + r
      if (i < words.length) line += `${String(i + 1).padStart(2)}. ${words[i]}`.padEnd(width)
    }
    lines.push(line.trimEnd())
  }
  const tty = process.stderr
  tty.write(
    [
      '',
      'YOUR RECOVERY PHRASE: shown once. Write the 24 words on paper, in order, and keep the paper offline.',
      'Anyone who has these words holds this validator key, passphrase or not. tnv never shows them again.',
      `(Validator index ${index}, key path ${validatorKeyPath(index)}.)`,
      '',
      ...lines,
      '',
    ].join('\n'),
  )
  await session.prompter.input('Press Enter once all 24 words are written down (the screen is cleared next)', {
    default: '',
  })
  tty.write(CLEAR)
  const positions = new Set<number>()
  while (positions.size < CONFIRM_WORDS) positions.add(randomInt(1, words.length + 1))
  for (const position of [...positions].sort((a, b) => a - b)) {
    for (let attempt = 1; ; attempt++) {
      const typed = await session.prompter.secret(`Word ${position} of your recovery phrase (hidden):`)
      if (typed.trim().toLowerCase() === mnemonicWord(phrase, position)) break
      if (attempt >= TRIES) throw new PhraseNotConfirmedError(position)
      tty.write(
        `That is not word ${position}. Check your paper (${TRIES - attempt} more tr${TRIES - attempt === 1 ? 'y' : 'ies'}).\n`,
      )
    }
  }
  tty.write('Recovery phrase confirmed.\n')
}
