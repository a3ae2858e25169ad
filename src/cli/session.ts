/**
 * One session per command run, built once (by the base command) from the flags and the
 * environment, and handed to everything that talks to the operator:
 *
 * - `interactive`: the ONE predicate: stdin, stdout and stderr are terminals, and neither
 *   `--non-interactive` nor `TN_NON_INTERACTIVE` is given. Every prompt, spinner and question
 *   asks it; without a terminal a missing answer is a UsageError naming the flag.
 * - output mode: human (lines on stderr, the result on stdout), json (one document), or
 *   json-lines (the flows: one event per line, the result last).
 * - one prompt surface (@inquirer/prompts on stderr: ./prompter.ts).
 * - ONE standard-input line reader, shared by every secret source that reads stdin: lines are
 *   taken in the order the command needs them (the keystore password first, then the BLS
 *   passphrase; change-passphrase: the current one, then the new one).
 * - one confirmation policy (src/lib/tx/confirm-policy.ts) and one reporter.
 * - the data directory's lock (src/lib/keys/datadir-lock.ts), released when the run ends.
 */
import type { Prompter } from '../lib/io/prompter.js'
import type { DatadirHandle } from '../lib/keys/datadir-lock.js'
import type { PassphraseSource } from '../lib/options.js'
import { readCredentialPassphrase } from '../lib/passphrase/credential.js'
import { PASSPHRASE_ENV, type PassphraseEnv } from '../lib/passphrase/env-var.js'
import type { PromptIo } from '../lib/passphrase/read-passphrase.js'
import { StdinLines } from '../lib/passphrase/stdin-lines.js'
import type { ConfirmFn, Reporter, TransactionPlan } from '../lib/registry/types.js'
import type { WizardIo } from '../lib/wizard/io.js'
import { createPrompter } from './prompter.js'

export type OutputMode = 'human' | 'json' | 'json-lines'

/** The signer's secrets in the environment (src/lib/chain/signer.ts). */
const SIGNER_SECRETS = ['TN_PRIVATE_KEY', 'TN_KEYSTORE_PASSWORD'] as const

/**
 * The process's own streams, each made only when asked for: Node builds a stream object on first
 * access (a socket for a pipe, which loads its network stack), and a run whose stdout is not a
 * terminal never needs to look at stdin.
 */
const processStreams = {
  get stdin() {
    return process.stdin
  },
  get stdout() {
    return process.stdout
  },
  get stderr() {
    return process.stderr
  },
}

/**
 * Passphrase sources the environment provides before any command reads it: under a systemd unit
 * with `LoadCredential=tn-bls-passphrase:…`, `$CREDENTIALS_DIRECTORY/tn-bls-passphrase` becomes the
 * value of the `env` source when TN_BLS_PASSPHRASE is not set (src/lib/passphrase/credential.ts).
 */
export function resolveEnvironmentSecrets(env: NodeJS.ProcessEnv = process.env): void {
  const directory = env.CREDENTIALS_DIRECTORY
  if (!directory || env[PASSPHRASE_ENV]) return
  const value = readCredentialPassphrase({ directory })
  if (value !== undefined) env[PASSPHRASE_ENV] = value
}

/**
 * The service manager this run is under: systemd sets INVOCATION_ID for every unit it starts.
 * `tnv node start --restart on-failure` refuses to run under one (one supervisor per setup).
 */
export function serviceManager(env: NodeJS.ProcessEnv = process.env): 'systemd' | null {
  return env.INVOCATION_ID ? 'systemd' : null
}

/** The one "may we prompt?" predicate. */
export function isInteractive({
  nonInteractive = false,
  env = process.env,
  streams = processStreams,
}: {
  nonInteractive?: boolean
  env?: NodeJS.ProcessEnv
  streams?: { stdin: { isTTY?: boolean }; stdout: { isTTY?: boolean }; stderr: { isTTY?: boolean } }
} = {}): boolean {
  const envSays = env.TN_NON_INTERACTIVE !== undefined && !['', '0', 'false'].includes(env.TN_NON_INTERACTIVE)
  if (nonInteractive || envSays) return false
  // stdout first: the command writes its result there anyway
  return Boolean(streams.stdout.isTTY && streams.stderr.isTTY && streams.stdin.isTTY)
}

export type SessionParameters = {
  /** --non-interactive (TN_NON_INTERACTIVE is read here too). */
  nonInteractive: boolean
  output: OutputMode
  /** The command line as the operator would type it ("tnv stake"), for lock owners. */
  command: string
}

export class Session {
  readonly interactive: boolean
  output: OutputMode
  readonly command: string
  readonly prompter: Prompter
  private stdinReader: StdinLines | undefined
  private readonly datadirs: DatadirHandle[] = []
  /** The secrets taken out of the environment in this run, by name (handed again when asked again). */
  private readonly takenSecrets = new Map<string, string>()

  constructor({ nonInteractive, output, command }: SessionParameters) {
    this.interactive = isInteractive({ nonInteractive })
    this.output = output
    this.command = command
    this.prompter = createPrompter({ interactive: this.interactive, stdin: () => this.stdin() })
  }

  /** The one standard-input line reader of this run. */
  stdin(): StdinLines {
    this.stdinReader ??= new StdinLines()
    return this.stdinReader
  }

  /**
   * The environment the library reads its named variables from (TN_PRIVATE_KEY,
   * TN_KEYSTORE_PASSWORD, ...): library code takes it as a parameter, never from `process.env`.
   */
  get env(): NodeJS.ProcessEnv {
    return process.env
  }

  /**
   * A secret from the environment, taken out of it: the value is returned and the variable removed
   * from tnv's own environment, so no process tnv starts inherits it unless handed it explicitly.
   * An empty value counts as not set (as the node treats it).
   */
  takeEnvSecret(name: string): string | undefined {
    const value = this.takenSecrets.get(name) ?? process.env[name]
    delete process.env[name]
    return value === '' ? undefined : value
  }

  /**
   * The passphrase variable a passphrase source reads, handed to the library (readPassphrase,
   * openBlsKey, assertKeyOnDisk): with source env, a variable that is set and not empty is taken
   * out of tnv's environment, so no process tnv starts inherits it unless handed it; an empty one
   * counts as not set (as the node treats it) and stays. Every later call of the run hands the
   * same value (a command may open the key twice: the key check, then the adiri proof). Other
   * sources read no variable: nothing is taken, and the library gets none.
   */
  passphraseEnv(source: PassphraseSource, name: string = PASSPHRASE_ENV): PassphraseEnv {
    if (source !== 'env') return {}
    const value = process.env[name]
    if (value) {
      this.takenSecrets.set(name, value)
      delete process.env[name]
    }
    return { [name]: this.takenSecrets.get(name) ?? value }
  }

  /**
   * The environment for the signer (resolveSigner, pickSigner, the stake and exit flows): a copy
   * of tnv's own that holds TN_PRIVATE_KEY and TN_KEYSTORE_PASSWORD, which are taken out of the
   * process environment here, so no process tnv starts inherits them unless handed them.
   */
  signerEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env }
    for (const name of SIGNER_SECRETS) {
      const value = process.env[name]
      if (value !== undefined) this.takenSecrets.set(name, value)
      delete process.env[name]
      const taken = this.takenSecrets.get(name)
      if (taken !== undefined) env[name] = taken
    }
    return env
  }

  /** Human lines on stderr (silenced by --json). */
  note(line: string): void {
    if (this.output === 'human') process.stderr.write(`${line}\n`)
  }

  /** The hidden-prompt access readPassphrase and openBlsKey take. */
  passphraseIo(): PromptIo {
    return {
      isTTY: this.interactive,
      ask: (message) => this.prompter.secret(message),
      say: (message) => process.stderr.write(`${message}\n`),
    }
  }

  /** The flows' events, waits and questions. */
  async wizardIo(events: 'json-lines' | 'human' | 'none'): Promise<WizardIo> {
    const { createWizardIo } = await import('./wizard-io.js')
    return createWizardIo({ prompter: this.prompter, events })
  }

  /** Progress of a registry step as stderr lines (nothing with --json: the result says it). */
  reporter(): Reporter {
    const note = (line: string) => this.note(line)
    return (event) => {
      switch (event.type) {
        case 'step':
          note(`- ${event.message}`)
          break
        case 'warning':
          note(`Warning: ${event.message}`)
          break
        case 'sent':
          note(`- sent ${event.hash}; waiting for the receipt…`)
          break
        case 'confirmed':
          note(`- confirmed in block ${event.blockNumber}`)
          break
        case 'resume':
          note(
            `- the ${event.step} transaction ${event.hash} journaled at ${event.submittedAt} has no known outcome: settling it (its receipt, or the same signed bytes sent again) instead of sending another`,
          )
          break
        case 'resumed':
          note(
            `- ${event.step} transaction ${event.hash}: ${event.outcome}${event.blockNumber !== null ? ` in block ${event.blockNumber}` : ''}${event.reason ? ` (${event.reason})` : ''}`,
          )
          break
      }
    }
  }

  /**
   * The confirmation policy: the plan is shown (stderr), then --yes sends; on a terminal the
   * question's default follows the action; without one a step that moves money or cannot be
   * undone needs --yes.
   */
  confirm({ yes }: { yes: boolean }): ConfirmFn {
    // loaded when a step is confirmed, not with every command: the policy's errors bring the
    // amount formatting (viem) with them
    let policy: ConfirmFn | undefined
    return async (plan) => {
      const { createConfirm } = await import('../lib/tx/confirm-policy.js')
      policy ??= createConfirm({
        yes,
        interactive: this.interactive,
        show: (plan: TransactionPlan) => {
          // the plan goes to stderr even with --json when a question follows: it is what is asked about
          const write = (line: string) =>
            this.output === 'human' || this.interactive ? process.stderr.write(`${line}\n`) : undefined
          write(plan.title)
          const width = Math.max(...plan.rows.map(([label]) => label.length))
          for (const [label, value] of plan.rows) write(`  ${label.padEnd(width)}  ${value}`)
        },
        ask: (message, defaultYes) =>
          this.prompter.confirm(message, defaultYes).catch((err: unknown) => {
            if (err instanceof Error && err.name === 'AbortedError') return false
            throw err
          }),
      })
      return policy(plan)
    }
  }

  /**
   * Opens a data directory for this run: its lock is taken (waiting briefly for another tnv
   * command, then naming it), and a key commit an earlier command left half-finished is rolled
   * forward or back. Held until the run ends (or `release()`).
   */
  async openDatadir(datadir: string, { create = false }: { create?: boolean } = {}): Promise<DatadirHandle> {
    const { openDatadir } = await import('../lib/keys/datadir-lock.js')
    const handle = await openDatadir(datadir, { command: this.command, create })
    this.datadirs.push(handle)
    return handle
  }

  /** Ends the run: releases the data directory locks and stops reading stdin. */
  async close(): Promise<void> {
    for (const h of this.datadirs.splice(0).reverse()) await h.release().catch(() => {})
    this.stdinReader?.close()
  }
}
