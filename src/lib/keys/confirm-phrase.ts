/**
 * Shows a recovery phrase ONCE on the terminal and has the operator prove it was written down:
 * Enter, then the screen and its scrollback are cleared, then three words chosen at random are
 * re-typed at hidden prompts (three tries each). Library code: the caller gives the prompt
 * surface and the terminal writer (stderr, which the session's predicate makes a terminal), so
 * the phrase goes nowhere else.
 */
import { randomInt } from 'node:crypto'
import type { Prompter } from '../io/prompter.js'
import { mnemonicWord } from './mnemonic.js'
import { validatorKeyPath } from './mnemonic-key.js'
import { PhraseNotConfirmedError } from './recovery-errors.js'

/** Words asked back, and tries per word. */
const CONFIRM_WORDS = 3
const TRIES = 3
/** Erase the screen and its scrollback, cursor home (xterm, VTE, tmux, the Linux console). */
const CLEAR = '\u001b[2J\u001b[3J\u001b[H'

/**
 * @throws PhraseNotConfirmedError after three wrong tries of a word (exit 30; the caller writes nothing)
 */
export async function confirmPhraseOnTerminal(
  prompter: Pick<Prompter, 'input' | 'secret'>,
  write: (text: string) => void,
  phrase: string,
  index: number,
): Promise<void> {
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
  write(
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
  await prompter.input('Press Enter once all 24 words are written down (the screen is cleared next)', {
    default: '',
  })
  write(CLEAR)
  const positions = new Set<number>()
  while (positions.size < CONFIRM_WORDS) positions.add(randomInt(1, words.length + 1))
  for (const position of [...positions].sort((a, b) => a - b)) {
    for (let attempt = 1; ; attempt++) {
      const typed = await prompter.secret(`Word ${position} of your recovery phrase (hidden):`)
      if (typed.trim().toLowerCase() === mnemonicWord(phrase, position)) break
      if (attempt >= TRIES) throw new PhraseNotConfirmedError(position)
      write(
        `That is not word ${position}. Check your paper (${TRIES - attempt} more tr${TRIES - attempt === 1 ? 'y' : 'ies'}).\n`,
      )
    }
  }
  write('Recovery phrase confirmed.\n')
}
