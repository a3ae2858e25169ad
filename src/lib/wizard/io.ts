/**
 * How the onboarding flows talk to the operator, whatever the mode:
 * - events: with --json one JSON object per line on stdout (`{"event": "...", ...}`);
 *   otherwise the human line on stderr;
 * - waits: an ora spinner on stderr (TTY), plain start/end lines otherwise, nothing extra with --json;
 * - questions: @inquirer/prompts on stderr, only when interactive. Without a terminal the
 *   flows take every answer from flags and name the flag when one is missing.
 * Flows never print by themselves: everything goes through this object.
 */
import { AbortedError } from '../errors.js'

export type WizardEvent = { event: string } & Record<string, unknown>

export type Choice<T extends string> = { value: T; name: string; description?: string }

export type Spinner = {
  /** Replaces the spinner's text. */
  update(text: string): void
}

export type WizardIo = {
  /** Prompts allowed (stdin, stdout and stderr are terminals, and not --non-interactive). */
  interactive: boolean
  /** Events are JSON lines on stdout (--json in flow mode). */
  json: boolean
  /** Reports an event: a JSON line with --json, else `human` (when given) on stderr. */
  emit(event: WizardEvent, human?: string | string[]): void
  /** Runs a wait under a spinner; `done` is the line shown when it ends. */
  wait<T>(text: string, fn: (spinner: Spinner) => Promise<T>, done?: (value: T) => string): Promise<T>
  select<T extends string>(message: string, choices: Choice<T>[], defaultValue?: T): Promise<T>
  input(message: string, options?: { default?: string; validate?: (v: string) => true | string }): Promise<string>
  secret(message: string): Promise<string>
  confirm(message: string, defaultYes: boolean): Promise<boolean>
}

/** BigInt-safe JSON for event lines. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}

export function isTerminal(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY && process.stderr.isTTY)
}

/** Ctrl-C at a prompt: nothing was changed by the prompt itself; the flow stops cleanly. */
function promptAborted(err: unknown): never {
  if (err instanceof Error && err.name === 'ExitPromptError')
    throw new AbortedError(
      'Stopped at a prompt. Nothing is lost: what was done is on chain and in the journal; run the same command again to continue.',
    )
  throw err
}

/**
 * events: `json-lines` (--json in flow mode), `human` (stderr lines and spinners), `none`
 * (--json of the single-object commands: nothing but the result on stdout).
 */
export function createWizardIo({
  interactive,
  events,
}: {
  interactive: boolean
  events: 'json-lines' | 'human' | 'none'
}): WizardIo {
  const err = process.stderr
  const ctx = { output: err }
  const json = events === 'json-lines'
  const human = events === 'human'
  const spinnerOk = human && Boolean(err.isTTY)
  return {
    interactive,
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
    async select(message, choices, defaultValue) {
      const { select } = await import('@inquirer/prompts')
      try {
        return await select({ message, choices, ...(defaultValue !== undefined ? { default: defaultValue } : {}) }, ctx)
      } catch (e) {
        return promptAborted(e)
      }
    },
    async input(message, options = {}) {
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
      const { password } = await import('@inquirer/prompts')
      try {
        return await password({ message, mask: false }, ctx)
      } catch (e) {
        return promptAborted(e)
      }
    },
    async confirm(message, defaultYes) {
      const { confirm } = await import('@inquirer/prompts')
      try {
        return await confirm({ message, default: defaultYes }, ctx)
      } catch (e) {
        return promptAborted(e)
      }
    },
  }
}

/** A text progress bar: `[#######-------] 7/14`. */
export function progressBar(done: number, total: number, width = 20): string {
  const t = Math.max(1, total)
  const d = Math.min(Math.max(0, done), t)
  const filled = Math.round((d / t) * width)
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${d}/${t}`
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
