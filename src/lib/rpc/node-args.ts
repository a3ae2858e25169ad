/**
 * Splits a command's argument list at the first `--`: tnv's own flags before it, the node's
 * flags after it (`tnv rpc plan --json -- --http --http.api eth`). Read from the raw argument
 * list, not from oclif's parsed `argv`, which reorders repeated tokens.
 */
export function splitNodeArgs(argv: readonly string[]): { own: string[]; node: string[] | null } {
  const at = argv.indexOf('--')
  if (at === -1) return { own: [...argv], node: null }
  return { own: argv.slice(0, at), node: argv.slice(at + 1) }
}

/**
 * The flag-like tokens before `--` that are not the command's own flags (for example a node
 * flag written without the `--` separator), so the command can say where node flags go
 * instead of oclif's "Nonexistent flag".
 */
export function strayFlags(own: readonly string[], flags: Record<string, { char?: string | undefined }>): string[] {
  const long = new Set(['--json', '--help', ...Object.keys(flags).map((n) => `--${n}`)])
  const short = new Set(['-h', ...Object.values(flags).flatMap((f) => (f.char ? [`-${f.char}`] : []))])
  return own.filter((token) => {
    if (!token.startsWith('-') || token === '-' || /^-\d/.test(token)) return false
    const name = token.split('=')[0] ?? token
    return token.startsWith('--') ? !long.has(name) : !short.has(name.slice(0, 2))
  })
}
