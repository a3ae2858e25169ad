/**
 * How the library asks the person at the terminal, without knowing how (the command layer
 * implements it with @inquirer/prompts on stderr: src/cli/prompter.ts). `interactive` is the
 * session's one predicate: stdin, stdout and stderr are terminals and neither --non-interactive
 * nor TN_NON_INTERACTIVE is given. Without a terminal the library never calls these; it names
 * the flag to pass instead.
 */
import type { StdinLines } from '../passphrase/stdin-lines.js'

export type Choice<T extends string> = { value: T; name: string; description?: string }

export type Prompter = {
  /** Prompts allowed. */
  interactive: boolean
  select<T extends string>(message: string, choices: Choice<T>[], defaultValue?: T): Promise<T>
  input(message: string, options?: { default?: string; validate?: (v: string) => true | string }): Promise<string>
  /** A hidden prompt (nothing echoed). */
  secret(message: string): Promise<string>
  confirm(message: string, defaultYes: boolean): Promise<boolean>
  /**
   * The one standard-input line reader of the run, shared by every secret source that reads
   * stdin (keystore password, BLS passphrase, new passphrase), in the order the command needs them.
   */
  stdin(): StdinLines
}
