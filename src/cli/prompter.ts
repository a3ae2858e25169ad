/**
 * The session's prompt surface: @inquirer/prompts on stderr (stdout carries results only), and
 * only when the session is interactive. Ctrl-C at a prompt aborts (exit 30) without changing
 * anything. Command layer only: the library sees the Prompter interface (src/lib/io/prompter.ts).
 */
import { AbortedError, UsageError } from '../lib/errors.js'
import type { Choice, Prompter } from '../lib/io/prompter.js'
import type { StdinLines } from '../lib/passphrase/stdin-lines.js'

/** Ctrl-C at a prompt: nothing was changed by the prompt itself; the command stops cleanly. */
function promptAborted(err: unknown): never {
  if (err instanceof Error && err.name === 'ExitPromptError')
    throw new AbortedError(
      'Stopped at a prompt (Ctrl-C). Nothing is lost: the question itself changed nothing; run the same command again to continue from where it stopped (a transaction already sent is in the journal and on chain).',
    )
  throw err
}

export function createPrompter({ interactive, stdin }: { interactive: boolean; stdin: () => StdinLines }): Prompter {
  const ctx = { output: process.stderr }
  const guard = () => {
    // a bug if reached: every caller checks `interactive` first and names a flag otherwise
    if (!interactive)
      throw new UsageError('A question needs a terminal, and there is none.', {
        fix: 'Pass the answer as a flag (see --help).',
      })
  }
  return {
    interactive,
    stdin,
    async select<T extends string>(message: string, choices: Choice<T>[], defaultValue?: T): Promise<T> {
      guard()
      const { select } = await import('@inquirer/prompts')
      try {
        return await select<T>(
          { message, choices, ...(defaultValue !== undefined ? { default: defaultValue } : {}) },
          ctx,
        )
      } catch (e) {
        return promptAborted(e)
      }
    },
    async input(message, options = {}) {
      guard()
      const { input } = await import('@inquirer/prompts')
      try {
        return await input(
          {
            message,
            ...(options.default !== undefined ? { default: options.default } : {}),
            ...(options.validate ? { validate: options.validate } : {}),
          },
          ctx,
        )
      } catch (e) {
        return promptAborted(e)
      }
    },
    async secret(message) {
      guard()
      const { password } = await import('@inquirer/prompts')
      try {
        return await password({ message, mask: false }, { ...ctx, clearPromptOnDone: false })
      } catch (e) {
        return promptAborted(e)
      }
    },
    async confirm(message, defaultYes) {
      guard()
      const { confirm } = await import('@inquirer/prompts')
      try {
        return await confirm({ message, default: defaultYes }, ctx)
      } catch (e) {
        return promptAborted(e)
      }
    },
  }
}
