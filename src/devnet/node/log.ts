/**
 * The reference node's log lines, in the shape of the real node's (tracing's default format):
 * `2026-01-02T03:04:05.678Z  INFO message key=value key2="two words"`, on stdout.
 * Never given a secret.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>

export type NodeLogger = {
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
}

function formatValue(v: string | number | boolean | null): string {
  const s = String(v)
  return /^[^\s"=]+$/.test(s) ? s : JSON.stringify(s)
}

export function formatLogLine(
  level: 'INFO' | 'WARN' | 'ERROR',
  message: string,
  fields: LogFields = {},
  now = new Date(),
): string {
  const parts = Object.entries(fields)
    .filter((e): e is [string, string | number | boolean | null] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${formatValue(v)}`)
  return `${now.toISOString()} ${level.padStart(5)} ${message}${parts.length ? ` ${parts.join(' ')}` : ''}\n`
}

export function createNodeLogger(write: (line: string) => void = (line) => process.stdout.write(line)): NodeLogger {
  return {
    info: (m, f) => write(formatLogLine('INFO', m, f)),
    warn: (m, f) => write(formatLogLine('WARN', m, f)),
    error: (m, f) => write(formatLogLine('ERROR', m, f)),
  }
}
