/**
 * How the onboarding flows talk to the operator, whatever the mode (implemented by the command
 * layer: src/cli/wizard-io.ts):
 * - events: with --json one JSON object per line on stdout (`{"event": "...", ...}`);
 *   otherwise the human line on stderr;
 * - waits: a spinner on stderr (TTY), plain start/end lines otherwise, nothing extra with --json;
 * - questions: the session's Prompter, only when interactive. Without a terminal the flows take
 *   every answer from flags and name the flag when one is missing.
 * Flows never print by themselves: everything goes through this object.
 */
import type { Prompter } from '../io/prompter.js'

export type WizardEvent = { event: string } & Record<string, unknown>

export type Spinner = {
  /** Replaces the spinner's text. */
  update(text: string): void
}

export type WizardIo = Prompter & {
  /** Events are JSON lines on stdout (--json in flow mode). */
  json: boolean
  /** Reports an event: a JSON line with --json, else `human` (when given) on stderr. */
  emit(event: WizardEvent, human?: string | string[]): void
  /** Runs a wait under a spinner; `done` is the line shown when it ends. */
  wait<T>(text: string, fn: (spinner: Spinner) => Promise<T>, done?: (value: T) => string): Promise<T>
}

/** BigInt-safe JSON for event lines. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}

/** A text progress bar: `[#######-------] 7/14`. */
export function progressBar(done: number, total: number, width = 20): string {
  const t = Math.max(1, total)
  const d = Math.min(Math.max(0, done), t)
  const filled = Math.round((d / t) * width)
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${d}/${t}`
}
