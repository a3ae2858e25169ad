/**
 * Secrets never come from tnv's command line (issue 36: "Secrets come only from the
 * environment, files, systemd credentials or stdin, never from argv"): any local user reads a
 * running process's arguments (ps, /proc/<pid>/cmdline), and the shell keeps them in its
 * history. Checked on the raw arguments before oclif parses them, so a refused value is never
 * read into a flag, and the refusal is the same for every command.
 */
import { UsageError } from '../lib/errors.js'

type SecretFlag = {
  /** What the value is, for the message. */
  what: string
  /** A value that names a file (`@FILE`) is allowed: only the path is on the command line. */
  fileRef: boolean
  fix: string
}

const SECRET_FLAGS: Record<string, SecretFlag> = {
  '--private-key': {
    what: 'a private key',
    fileRef: false,
    fix: 'Set TN_PRIVATE_KEY in the environment (from your vault, or TN_PRIVATE_KEY="$(cat key.hex)"), or pass --keystore FILE, --ledger or --trezor.',
  },
  '--secret': {
    what: 'a JWT secret in hex',
    fileRef: true,
    fix: 'Pass --secret @FILE (a file holding the hex, like the one the node reads), or set TNV_JWT_SECRET to the hex or to @FILE.',
  },
  '--jwt-secret': {
    what: 'a JWT secret in hex',
    fileRef: true,
    fix: 'Pass --jwt-secret @FILE (a file holding the hex, like the one the node reads), or set TNV_JWT_SECRET to the hex or to @FILE.',
  },
}

/**
 * The first secret given on the command line, or null. Arguments after `--` belong to the node's
 * own command line (`--expect -- <node flags>`), which src/lib/node/plan.ts checks itself.
 * @example secretOnArgv(['stake', '--private-key', '0xab…']) // { flag: '--private-key', … }
 * @example secretOnArgv(['rpc', 'jwt', '--secret', '@/etc/tn/jwt.hex']) // null
 */
export function secretOnArgv(argv: readonly string[]): ({ flag: string } & SecretFlag) | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    if (a === '--') return null
    const eq = a.indexOf('=')
    const flag = eq > 0 ? a.slice(0, eq) : a
    const spec = SECRET_FLAGS[flag]
    if (spec === undefined) continue
    const value = eq > 0 ? a.slice(eq + 1) : argv[i + 1]
    if (spec.fileRef && value?.startsWith('@')) continue
    return { flag, ...spec }
  }
  return null
}

/** Refuses a secret on the command line (exit 2), without repeating its value. */
export function refuseSecretOnArgv(argv: readonly string[]): void {
  const found = secretOnArgv(argv)
  if (found === null) return
  throw new UsageError(
    `${found.flag} would put ${found.what} on tnv's command line, where every user of this host can read it (ps, /proc/<pid>/cmdline) and your shell keeps it in its history; tnv takes no secret from its arguments, and nothing was done.`,
    { fix: `${found.fix} Then delete the line from your shell history.` },
  )
}
