/**
 * Base for every tnv command: `--json` and `--non-interactive` on, one Session per run
 * (./session.ts: the terminal predicate, output mode, prompts, the stdin reader, the
 * confirmation policy, the data directory locks), errors rendered as one paragraph that carries
 * the fix (stderr), or as `{"error": {...}}` on stdout with --json, and the error's exit code.
 * Commands stay thin: parse flags, call src/lib, render.
 */
import { Command, Errors, Flags } from '@oclif/core'
import { RpcUnreachableError } from '../lib/chain/errors.js'
import { onSlowAnswer, slowAnswerLine } from '../lib/chain/slow-answer.js'
import { ExitCode, TnvError } from '../lib/errors.js'
import { explainFsError } from '../lib/fs/fs-errors.js'
import { withSchemeKeyNames } from '../lib/io/json-key-names.js'
import { remoteText } from '../lib/io/remote-text.js'
import { httpFailureText } from '../lib/net/http-failure.js'
import { errorLabel } from './color.js'
import { closestWithin, suggestFlag } from './did-you-mean.js'
import { refuseSecretOnArgv } from './secret-argv.js'
import { resolveEnvironmentSecrets, Session } from './session.js'

/** Commands whose JSON keeps its own key names (see logJson). */
const KEY_NAME_EXCEPTIONS = new Set(['keytool:export-staking-args'])

export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true

  static override baseFlags = {
    'non-interactive': Flags.boolean({
      helpGroup: 'GLOBAL',
      env: 'TN_NON_INTERACTIVE',
      summary:
        'Never prompt: every answer comes from flags and the environment (implied without a terminal); a step that moves money or cannot be undone then needs --yes.',
    }),
  }

  /** JSON lines (the flows): every JSON document on one line, the result last. */
  protected jsonLines = false
  private current: Session | undefined

  /** The run's session, built once (from --non-interactive / TN_NON_INTERACTIVE and --json). */
  protected get session(): Session {
    this.current ??= new Session({
      nonInteractive: this.argv.includes('--non-interactive'),
      output: this.jsonEnabled() ? (this.jsonLines ? 'json-lines' : 'json') : 'human',
      command: `${this.config.bin} ${(this.id ?? '').replaceAll(':', this.config.topicSeparator)}`,
    })
    return this.current
  }

  /**
   * Every JSON document a command prints follows the one key-name scheme (src/lib/io/json-key-names.ts),
   * except `keytool export-staking-args`, which prints the node keytool's exact
   * `{"blsPubkey", "signature"}` (stake()'s own argument names), and `node check`, whose report
   * is held to docs/node-check.schema.json (it takes the scheme's name with that schema).
   */
  override logJson(json: unknown): void {
    const out = KEY_NAME_EXCEPTIONS.has(this.id ?? '') ? json : withSchemeKeyNames(json)
    if (this.jsonLines) process.stdout.write(`${JSON.stringify(out)}\n`)
    else super.logJson(out)
  }

  private stopSlowNotices: (() => void) | undefined

  /**
   * An endpoint that has not answered an attempt for 5 s is announced (src/lib/chain/slow-answer.ts):
   * a stderr line; with --json a `waiting` event, on stdout among the events of a flow (session
   * output json-lines: stake, exit), on stderr otherwise (one JSON document, or `node check
   * --watch`'s one report per line, stay as their schemas say).
   */
  override async init(): Promise<void> {
    // a passphrase the service manager provides (systemd credentials) before any flag reads the environment
    resolveEnvironmentSecrets()
    refuseSecretOnArgv(this.argv)
    await super.init()
    this.stopSlowNotices = onSlowAnswer((s) => {
      if (!this.jsonEnabled()) process.stderr.write(`${slowAnswerLine(s)}\n`)
      else if (this.current?.output === 'json-lines')
        process.stdout.write(`${JSON.stringify({ event: 'waiting', ...s })}\n`)
      else process.stderr.write(`${JSON.stringify({ event: 'waiting', ...s })}\n`)
    })
  }

  protected override async finally(err: Error | undefined): Promise<unknown> {
    this.stopSlowNotices?.()
    await this.current?.close()
    return super.finally(err)
  }

  /** Human progress and log lines: stderr, silenced by --json. */
  protected note(message: string): void {
    if (!this.jsonEnabled()) process.stderr.write(`${message}\n`)
  }

  /** A result line for humans: stdout, silenced by --json (the JSON result is printed instead). */
  protected out(message: string): void {
    if (!this.jsonEnabled()) process.stdout.write(`${message}\n`)
  }

  protected override async catch(err: Error & { exitCode?: number }): Promise<unknown> {
    if (err instanceof Errors.ExitError) throw err
    const known = toTnvError(err)
    if (!known) {
      // oclif's own parse/usage errors: one paragraph with the closest flag for a mistyped one
      // and a one-line usage (not oclif's whole help), or one small object with --json.
      const exitCode = (err as Errors.CLIError).oclif?.exit ?? ExitCode.Usage
      process.exitCode = exitCode
      const command = `${this.config.bin} ${(this.id ?? '').replaceAll(':', this.config.topicSeparator)}`
      const { message, suggestion } = this.describeParseError(err)
      const fix = `${suggestion ? `Did you mean ${suggestion}? ` : ''}Run \`${command} --help\` for the flags and examples.`
      if (this.jsonEnabled())
        this.logJson({ error: { code: 'Usage', message, fix, exitCode, suggestion: suggestion ?? null } })
      else process.stderr.write(`${errorLabel()} ${message} ${fix}\nUsage: ${this.shortUsage(command)}\n`)
      return undefined
    }
    process.exitCode = known.exitCode
    if (this.jsonEnabled()) this.logJson({ error: known.toJSON() })
    else process.stderr.write(`${errorLabel()} ${known.render()}\n`)
    if (process.env.DEBUG && err.stack) process.stderr.write(`${err.stack}\n`)
    return undefined
  }

  /** oclif's parse error as one sentence, with the closest flag to an unknown one. */
  private describeParseError(err: Error): { message: string; suggestion?: string } {
    const message = err.message
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && line !== 'The following error occurred:' && !line.startsWith('See more help'))
      .join(' ')
      .replace(/([^.?!])$/, '$1.')
    // a value outside a flag's options: the closest option
    const option = /^Expected --([\w.-]+)=(.*) to be one of: (.+?)\.?$/.exec(message)
    if (option) {
      const [, name, value, list] = option as unknown as [string, string, string, string]
      const guess = closestWithin(value, list.split(/,\s*/))
      return { message, suggestion: guess ? `--${name} ${guess}` : undefined }
    }
    const unknown = (err as Error & { flags?: string[] }).flags
    if (!Array.isArray(unknown) || unknown.length === 0) return { message }
    const names = Object.entries(this.ctor.flags ?? {}).flatMap(([name, flag]) => [
      name,
      ...(((flag as { aliases?: string[] }).aliases ?? []) as string[]),
    ])
    const guesses = unknown.map((typed) => suggestFlag(typed, names)).filter((g): g is string => g !== undefined)
    return { message, suggestion: guesses.length > 0 ? guesses.join(', ') : undefined }
  }

  /** `tnv stake --chain <value> [flags]`: the command and its required flags on one line. */
  private shortUsage(command: string): string {
    const required = Object.entries(this.ctor.flags ?? {})
      .filter(([, flag]) => (flag as { required?: boolean }).required)
      .map(([name, flag]) => `--${name} ${(flag as { helpValue?: string }).helpValue ?? '<value>'}`)
    const args = Object.entries(this.ctor.args ?? {}).map(([name, arg]) =>
      (arg as { required?: boolean }).required ? `<${name}>` : `[${name}]`,
    )
    return [command, ...args, ...required, '[flags]'].join(' ')
  }
}

/** Maps anything thrown to a TnvError, except oclif's own CLI errors (returned as undefined). */
export function toTnvError(err: unknown): TnvError | undefined {
  if (err instanceof TnvError) return err
  if (err instanceof Errors.CLIError) return undefined
  const known = explainFsError(err) ?? explainNested(err)
  if (known) return known
  // the first line only: a library's message goes on with request bodies and versions
  const message = remoteText((err instanceof Error ? err.message : String(err)).split('\n')[0], 300)
  return new TnvError(`Unexpected failure: ${message}`, {
    fix: 'Run again with DEBUG=1 for the stack trace, and report it if it persists.',
    exitCode: ExitCode.Internal,
    cause: err,
  })
}

/**
 * What a library call let through without explaining, found along the cause chain: a TnvError
 * (tnv's own check inside a library), a file-system error, or an HTTP failure of an endpoint
 * (viem's HttpRequestError, recognised by name so that this module does not load viem).
 */
function explainNested(err: unknown): TnvError | undefined {
  let cur: unknown = err
  for (let depth = 0; cur && typeof cur === 'object' && depth < 10; depth++) {
    if (cur instanceof TnvError) return cur
    const fsErr = explainFsError(cur)
    if (fsErr) return fsErr
    const http = cur as { name?: unknown; status?: unknown; url?: unknown; details?: unknown }
    if (http.name === 'HttpRequestError' && typeof http.status === 'number' && typeof http.url === 'string') {
      const { message, fix } = httpFailureText({ url: http.url, status: http.status, body: http.details })
      return new RpcUnreachableError(message, { fix, cause: err })
    }
    cur = (cur as { cause?: unknown }).cause
  }
  return undefined
}
