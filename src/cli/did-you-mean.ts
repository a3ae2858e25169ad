/**
 * "Did you mean" for mistyped commands and flags, and the short usage paragraph tnv prints
 * for oclif's parse errors instead of the whole help. Distances come from fastest-levenshtein;
 * tnv never runs a guessed command (unlike @oclif/plugin-not-found, which offers to run it: a
 * guessed `stake` or `exit` moves money), it names the guess and the help to read.
 */
import { closest, distance } from 'fastest-levenshtein'
import { errorLabel } from './color.js'

/** The closest candidate within a typo's reach (about one edit in three characters), or undefined. */
export function closestWithin(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0 || word === '') return undefined
  const best = closest(word, candidates as string[])
  const reach = Math.max(2, Math.floor(word.length / 3))
  return distance(word, best) <= reach ? best : undefined
}

/**
 * The command the user most likely meant by `id` (oclif's colon form, `valdator:status`), in the
 * colon form too. Word by word: a mistyped topic is corrected first, then the command under it.
 */
export function suggestCommand(id: string, commandIds: readonly string[]): string | undefined {
  const visible = [...new Set(commandIds)]
  const whole = closestWithin(id, visible)
  if (whole) return whole
  const words = id.split(':')
  let prefix: string[] = []
  for (const word of words) {
    const children = [
      ...new Set(
        visible
          .filter((c) => prefix.length === 0 || c.startsWith(`${prefix.join(':')}:`))
          .map((c) => c.split(':')[prefix.length])
          .filter((w): w is string => w !== undefined),
      ),
    ]
    const next = children.includes(word) ? word : closestWithin(word, children)
    if (!next) break
    prefix = [...prefix, next]
    if (visible.includes(prefix.join(':')) && prefix.length === words.length) return prefix.join(':')
  }
  if (prefix.length > 0 && visible.includes(prefix.join(':'))) return prefix.join(':')
  return undefined
}

/** The closest known flag to a mistyped one (`--chian` → `--chain`), both with their dashes. */
export function suggestFlag(typed: string, flagNames: readonly string[]): string | undefined {
  const bare = typed.replace(/^-+/, '').split('=')[0] ?? ''
  const best = closestWithin(bare, flagNames)
  return best ? `--${best}` : undefined
}

/**
 * oclif's "command X not found" error (thrown by Config.runCommand when no hook answers), or its
 * help's "Command X not found." (`tnv help X`, `tnv X --help`).
 */
export function notFoundId(err: unknown): string | undefined {
  const message = err instanceof Error ? err.message : ''
  const match = /^(?:command (\S+) not found|Command (\S+) not found\.)$/.exec(message)
  return match?.[1] ?? match?.[2]
}

type ConfigLike = {
  bin: string
  topicSeparator: string
  commands: readonly { id: string; hidden?: boolean; aliases?: readonly string[] }[]
  topics?: readonly { name: string; hidden?: boolean }[]
}

/**
 * Renders oclif's "command not found" as tnv's one paragraph (or `{"error":…}` with --json) and
 * sets exit code 2 (usage). Returns false for any other error (the caller handles it).
 */
export function reportCommandNotFound(err: unknown, config: ConfigLike, argv: readonly string[]): boolean {
  const found = notFoundId(err)
  if (!found) return false
  // `tnv help valdator`: the command asked about is the one to correct
  const id = found.startsWith('help:') ? found.slice('help:'.length) : found
  const shown = (cid: string) => `${config.bin} ${cid.replaceAll(':', config.topicSeparator)}`
  const ids = [
    ...config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...(c.aliases ?? [])]),
    ...(config.topics ?? []).filter((t) => !t.hidden).map((t) => t.name),
  ]
  const guess = suggestCommand(id, ids)
  const message = `\`${shown(id)}\` is not a ${config.bin} command.`
  const fix = guess
    ? `Did you mean \`${shown(guess)}\`? Run \`${shown(guess)} --help\` for its flags.`
    : `Run \`${config.bin} --help\` for the list of commands.`
  process.exitCode = 2
  if (argv.includes('--json')) {
    process.stdout.write(
      `${JSON.stringify({ error: { code: 'CommandNotFound', message, fix, exitCode: 2, suggestion: guess ? shown(guess) : null } }, null, 2)}\n`,
    )
  } else process.stderr.write(`${errorLabel()} ${message} ${fix}\n`)
  return true
}
