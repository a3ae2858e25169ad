/**
 * The flows' WizardIo (src/lib/wizard/io.ts) for a command run: events as JSON lines on stdout
 * or human lines on stderr, waits under an ora spinner on a terminal, questions through the
 * session's prompter.
 */
import type { Prompter } from '../lib/io/prompter.js'
import { jsonLine, type WizardIo } from '../lib/wizard/io.js'

/**
 * events: `json-lines` (--json in flow mode), `human` (stderr lines and spinners), `none`
 * (--json of the single-object commands: nothing but the result on stdout).
 */
export function createWizardIo({
  prompter,
  events,
}: {
  prompter: Prompter
  events: 'json-lines' | 'human' | 'none'
}): WizardIo {
  const err = process.stderr
  const json = events === 'json-lines'
  const human = events === 'human'
  const spinnerOk = human && Boolean(err.isTTY)
  return {
    ...prompter,
    json,
    emit(event, text) {
      if (json) process.stdout.write(`${jsonLine(event)}\n`)
      else if (human && text !== undefined) err.write(`${Array.isArray(text) ? text.join('\n') : text}\n`)
    },
    async wait(text, fn, done) {
      if (!spinnerOk) {
        if (human) err.write(`${text}\n`)
        const value = await fn({ update: () => {} })
        if (human && done) err.write(`${done(value)}\n`)
        return value
      }
      const { default: ora } = await import('ora')
      const spinner = ora({ text, stream: err, discardStdin: false }).start()
      try {
        const value = await fn({
          update: (t) => {
            spinner.text = t
          },
        })
        spinner.succeed(done ? done(value) : text)
        return value
      } catch (e) {
        spinner.fail()
        throw e
      }
    },
  }
}

/**
 * Ctrl-C outside a prompt (a wait under a spinner): say that nothing is lost, then exit 130.
 * Everything durable is on chain or in the journal, written synchronously when it happens.
 */
export function onInterrupt(io: WizardIo): void {
  process.once('SIGINT', () => {
    io.emit(
      { event: 'interrupted' },
      '\nStopped (Ctrl-C). Nothing is lost: what was done is on chain and in the journal; run the same command again to continue.',
    )
    process.exit(130)
  })
}
