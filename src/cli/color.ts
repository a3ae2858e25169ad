/** Colour for people only: errors in red and success in green on a terminal; NO_COLOR respected. */

/**
 * Colour only where a person reads it: stderr/stdout a terminal, NO_COLOR unset (no-color.org),
 * TERM not dumb. FORCE_COLOR forces it (as Node and most tools do).
 */
export function useColor(stream: NodeJS.WriteStream = process.stderr): boolean {
  const env = process.env
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  if (env.TERM === 'dumb') return false
  return stream.isTTY === true
}

/** `Error:` in red on a terminal, plain otherwise. */
export function errorLabel(stream: NodeJS.WriteStream = process.stderr): string {
  return useColor(stream) ? '\u001b[1;31mError:\u001b[0m' : 'Error:'
}

/** A success line in green on a terminal, plain otherwise. */
export function success(text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return useColor(stream) ? `\u001b[32m${text}\u001b[0m` : text
}
