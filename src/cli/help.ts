/**
 * tnv's help: oclif's Help with one description column per page. oclif renders each list of a
 * page (TOPICS, COMMANDS, ARGUMENTS, FLAGS, GLOBAL FLAGS, <GROUP> FLAGS) on its own, each as
 * wide as its own longest name, and a list with a long description without columns at all, so
 * the descriptions of `tnv devnet --help` started at two different columns. Here every list of
 * a page starts its descriptions at one column: after the page's widest name, at most two
 * fifths of the line (a longer name has its own line). Everything else is oclif's.
 *
 * oclif finds a custom help class only through package.json (`oclif.helpClass`), loaded from a
 * file at run time, which the single executable cannot do (its script has no module loader for
 * files). So the class is handed over explicitly: both entries (src/entries/cli.ts and sea.ts)
 * run `runCli`, which answers every help request oclif's `run` would answer (a help flag, no
 * arguments, a topic named alone) with this class, plus `tnv help <command>`, and hands
 * everything else to oclif's `run`.
 */
import { stripVTControlCharacters } from 'node:util'
import { CommandHelp, type Config, Help, type Interfaces, run } from '@oclif/core'
import { normalizeArgv } from '@oclif/core/help'
import { helpAddition } from '@oclif/core/run'

type Row = (string | undefined)[]
type ListOptions = Parameters<Help['renderList']>[1]
type Loadable = Parameters<Help['showCommandHelp']>[0]
/** The page being rendered: the width every list on it is padded to. */
type Page = { width: number }

const visibleWidth = (s: string | undefined): number => (s ? stripVTControlCharacters(s).trimEnd().length : 0)

/** The widest first column of `rows`, as oclif measures it. */
export function widestName(rows: readonly Row[]): number {
  return Math.max(0, ...rows.map(([left]) => visibleWidth(left)))
}

/**
 * The description column of a page whose widest name is `widest`: after that name, unless the
 * name takes more than two fifths of the line (then longer names get a line of their own).
 */
export function pageColumn(widest: number, maxWidth: number): number {
  return Math.min(widest, Math.max(20, Math.floor(maxWidth * 0.4)))
}

/**
 * `text` in lines of at most `width` columns, broken between words; a word longer than a line
 * (`<options: a|b|c…>`) is broken after a `|` or `,`, never inside a name. Line breaks in the
 * text are kept.
 */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = []
  for (const paragraph of text.split('\n')) {
    // each piece, and whether it continues the previous one without a space
    const pieces = paragraph
      .split(/\s+/)
      .filter(Boolean)
      .flatMap((word) =>
        (visibleWidth(word) > width ? (word.match(/[^|,]+[|,]?/g) ?? [word]) : [word]).map((piece, i) => ({
          piece,
          glued: i > 0,
        })),
      )
    let line = ''
    for (const { piece, glued } of pieces) {
      const candidate = line === '' ? piece : `${line}${glued ? '' : ' '}${piece}`
      if (line !== '' && visibleWidth(candidate) > width) {
        lines.push(line)
        line = piece
      } else line = candidate
    }
    lines.push(line)
  }
  return lines
}

/** A shell command line of an example: `$ tnv …`, `VAR=… tnv …`, `printf … | tnv …`, `cast … "$(tnv …)"`. */
const COMMAND_LINE = /^(\$ |[A-Z_][A-Z0-9_]*=\S*\s|(cast|printf|echo|cat|curl|sudo|npm|npx|node)\s)|(^|\|\s*|\$\()tnv\s/

/**
 * A shell command too long for the line, as a shell reads it: broken between words with ` \`
 * (a continuation line, indented four more), a trailing `# comment` moved to its own line above,
 * so a copied example still runs.
 */
function wrapCommand(indent: string, command: string, width: number): string[] {
  if (/ \[-/.test(command)) return wrapUsage(indent, command, width)
  const hash = command.search(/\s+# /)
  const [code, comment] = hash > 0 ? [command.slice(0, hash), command.slice(hash).trim()] : [command, '']
  const lines = comment
    ? wrapWords(comment.replace(/^#\s*/, ''), width - indent.length - 2).map((l) => `${indent}# ${l}`)
    : []
  // a flag stays on one line with its value: `--http.port 8555`, never `--http.port \` then `8555`
  // nor is a quoted argument broken: a backslash and newline inside single quotes are kept
  const words: string[] = []
  const open = (w: string) => (w.match(/'/g)?.length ?? 0) % 2 === 1 || (w.match(/(?<!\\)"/g)?.length ?? 0) % 2 === 1
  for (const word of code.trim().split(/ +/)) {
    const last = words.at(-1)
    if (last && open(last)) words[words.length - 1] = `${last} ${word}`
    else if (last && /^--?[\w.-]+$/.test(last) && last !== '--' && !word.startsWith('-') && !/ /.test(last))
      words[words.length - 1] = `${last} ${word}`
    else words.push(word)
  }
  let line = indent
  for (const word of words) {
    const next = line.trim() === '' ? `${line}${word}` : `${line} ${word}`
    if (line.trim() !== '' && visibleWidth(next) + 2 > width) {
      lines.push(`${line} \\`)
      line = `${indent}    ${word}`
    } else line = next
  }
  lines.push(line)
  return lines
}

/** A usage line (`$ tnv x FILE [--json] [--datadir <path>]`): broken between bracketed groups, no `\`. */
function wrapUsage(indent: string, usage: string, width: number): string[] {
  const groups: string[] = []
  let depth = 0
  for (const word of usage.trim().split(/ +/)) {
    if (depth > 0) groups[groups.length - 1] += ` ${word}`
    else groups.push(word)
    depth += (word.match(/[[<]/g)?.length ?? 0) - (word.match(/[\]>]/g)?.length ?? 0)
  }
  const lines: string[] = []
  let line = indent
  for (const group of groups) {
    const next = line.trim() === '' ? `${line}${group}` : `${line} ${group}`
    if (line.trim() !== '' && visibleWidth(next) > width) {
      lines.push(line)
      line = `${indent}  ${group}` // as oclif indents its own usage continuation
    } else line = next
  }
  lines.push(line)
  return lines
}

/**
 * Help text fitted to `width` columns: a line oclif leaves longer (a command's summary, a usage
 * line, an example) is broken between words and keeps its indentation; an example command is
 * broken the way a shell reads it. Lines that fit are left as they are.
 */
export function fitToWidth(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (visibleWidth(line) <= width) return [line]
      const indent = /^ */.exec(line)?.[0] ?? ''
      const body = line.slice(indent.length)
      if (COMMAND_LINE.test(body)) return wrapCommand(indent, body, width)
      return wrapWords(body, width - indent.length).map((l) => `${indent}${l}`)
    })
    .join('\n')
}

/**
 * A list whose descriptions start `width` columns after the list's indentation (plus the two
 * spaces of the gap), on every row: a longer name has the line to itself and its description
 * starts on the next line at the same column. oclif's own renderList measures each list alone
 * and switches a list with a long description to a layout without columns; this one never does.
 */
export function renderAligned(input: readonly Row[], opts: ListOptions, width: number, maxWidth: number): string {
  const clean = (s: string | undefined) => (s && opts.stripAnsi ? stripVTControlCharacters(s) : (s ?? ''))
  const gap = ' '.repeat(width + 2)
  const lines: string[] = []
  for (const [rawLeft, rawRight] of input) {
    const left = clean(rawLeft).trimEnd()
    const right = clean(rawRight).trim()
    if (!left && !right) continue
    if (!right) {
      lines.push(left.trim())
      continue
    }
    const [first = '', ...rest] = wrapWords(right, maxWidth - opts.indentation - width - 2)
    if (visibleWidth(left) > width) lines.push(left, `${gap}${first}`)
    else lines.push(`${left}${' '.repeat(width - visibleWidth(left) + 2)}${first}`)
    for (const line of rest) lines.push(`${gap}${line}`)
  }
  return lines.join(opts.spacer ?? '\n')
}

/** A command's help (usage, arguments, flags, description...), its lists padded to the page. */
export class TnvCommandHelp extends CommandHelp {
  private measured: number | undefined

  constructor(
    command: Loadable,
    config: Interfaces.Config,
    opts: Interfaces.HelpOptions,
    private readonly page: Page = { width: 0 },
  ) {
    super(command, config, opts)
  }

  /** Rendered twice: once to measure every list on the page, then at the page's column. */
  override generate(): string {
    this.measured = 0
    super.generate()
    this.page.width = pageColumn(Math.max(this.page.width, this.measured), this.opts.maxWidth)
    this.measured = undefined
    return super.generate()
  }

  override renderList(input: Row[], opts: ListOptions): string {
    if (opts.multiline) return super.renderList(input, opts)
    if (this.measured !== undefined) this.measured = Math.max(this.measured, widestName(input))
    return renderAligned(input, opts, this.page.width, this.opts.maxWidth)
  }

  /**
   * oclif's usage line without the empty alternatives its docopts leaves when exclusive groups
   * overlap (the signer flags: `[--ledger | [--keystore <file>] |  | …]`).
   */
  protected override defaultUsage(): string {
    return withoutEmptyAlternatives(super.defaultUsage())
  }
}

/** `a |  | b` → `a | b`, `[ | a` → `[a`, `a | ]` → `a]`, repeated until none is left. */
export function withoutEmptyAlternatives(usage: string): string {
  let out = usage
  for (let before = ''; before !== out; ) {
    before = out
    out = out
      .replace(/\|\s*\|/g, '|')
      .replace(/([[(])\s*\|\s*/g, '$1')
      .replace(/\s*\|\s*([\])])/g, '$1')
  }
  return out
}

/** oclif's Help, every list of a page at one width. */
export class TnvHelp extends Help {
  private page: Page | undefined

  /** The widest name listed under `prefix` (the root when undefined), topics and commands alike. */
  private widestChild(prefix: string | undefined): number {
    const depth = prefix === undefined ? 1 : prefix.split(':').length + 1
    const listed = (name: string) =>
      prefix === undefined
        ? name !== '' && (this.opts.all || !name.includes(':'))
        : name.startsWith(`${prefix}:`) && name.split(':').length === depth
    const names = [...this.sortedTopics.map((t) => t.name), ...this.sortedCommands.map((c) => c.id)].filter(listed)
    return Math.max(0, ...names.map((n) => n.replaceAll(':', this.config.topicSeparator).length))
  }

  private async onPage(widest: number, show: () => Promise<void>): Promise<void> {
    this.page = { width: pageColumn(widest, this.opts.maxWidth) }
    try {
      await show()
    } finally {
      this.page = undefined
    }
  }

  override showRootHelp(): Promise<void> {
    return this.onPage(this.widestChild(undefined), () => super.showRootHelp())
  }

  override showTopicHelp(topic: Interfaces.Topic): Promise<void> {
    return this.onPage(this.widestChild(topic.name), () => super.showTopicHelp(topic))
  }

  override showCommandHelp(command: Loadable): Promise<void> {
    // the command's own lists are measured when it renders, before its topics and commands
    return this.onPage(this.widestChild(command.id), () => super.showCommandHelp(command))
  }

  override getCommandHelpClass(command: Loadable): CommandHelp {
    return new TnvCommandHelp(command, this.config, this.opts, this.page)
  }

  /** Everything help prints, fitted to the width (fitToWidth). */
  override log(...args: string[]): void {
    this.emit(fitToWidth(args.join(' '), this.opts.maxWidth))
  }

  /** Where the fitted text goes: oclif's output (stdout, or stderr when asked). */
  protected emit(text: string): void {
    super.log(text)
  }

  override renderList(input: Row[], opts: ListOptions): string {
    if (opts.multiline) return super.renderList(input, opts)
    const width = this.page?.width ?? pageColumn(widestName(input), this.opts.maxWidth)
    return renderAligned(input, opts, width, this.opts.maxWidth)
  }
}

/**
 * The arguments to show help for, when `argv` asks for help: a help flag before `--` or no
 * argument at all (oclif's rule), `tnv help [command…]`, or a topic named alone (`tnv devnet`).
 */
export function helpRequest(argv: readonly string[], config: Config): string[] | undefined {
  if (helpAddition([...argv], config)) return [...argv]
  if (argv[0] === 'help') return argv.slice(1)
  const [id] = normalizeArgv(config, [...argv])
  if (id !== undefined && !config.findCommand(id) && config.findTopic(id)) return [id]
  return undefined
}

/** oclif's `run`, with help rendered by TnvHelp (see the top of this file). */
export async function runCli(argv: string[], config: Config): Promise<void> {
  const help = helpRequest(argv, config)
  if (!help) {
    await run(argv, config)
    return
  }
  const options = config.pjson.oclif.helpOptions ?? (config.pjson as { helpOptions?: object }).helpOptions
  await new TnvHelp(config, options).showHelp(help)
}
