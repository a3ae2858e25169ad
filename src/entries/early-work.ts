/**
 * Work started for a command before the command's code has loaded, because the command is sure to
 * need it and it does not depend on anything the command decides first.
 *
 * `keytool generate validator|observer`: the new bls.kw's wrapping key (PBKDF2, 1,000,000
 * iterations: most of the command's time) for the passphrase in TN_BLS_PASSPHRASE, the default
 * source, on the thread pool while the bundle loads and the checks run
 * (src/lib/keys/offered-wrapping-key.ts). The boot (./launch-installed.ts, the single
 * executable's loader) starts it when the arguments spell the command out, before the launcher
 * has loaded (3 to 4 ms sooner; docs/decisions.md, "Start-up, stop 30"); the launcher starts it
 * for any other spelling its id resolution finds. The command uses it only for the passphrase it
 * reads itself, after its checks, from the source its flags name; otherwise it derives its own
 * and this one is zeroed. Nothing here reads, moves or removes the variable: the command still
 * does, exactly as before.
 */
import { PASSPHRASE_ENV } from '../lib/passphrase/env-var.js'

const GENERATE = new Set(['keytool:generate:validator', 'keytool:generate:observer'])

/**
 * The boot's start: `keytool generate validator|observer …` (or `keytool:generate:…`) written
 * out, no help flag, TN_BLS_PASSPHRASE set and no other passphrase source named. Anything else is
 * left to the launcher, which resolves the command as oclif does.
 */
export async function startEarlyWorkFromArgv(argv: readonly string[]): Promise<void> {
  const [first, second, third] = argv
  let rest: readonly string[]
  if (first === 'keytool' && second === 'generate' && (third === 'validator' || third === 'observer'))
    rest = argv.slice(3)
  else if (first !== undefined && GENERATE.has(first)) rest = argv.slice(1)
  else return
  // help goes to oclif's full CLI, which would not wait for (or end) a derivation
  for (const arg of rest) {
    if (arg === '--') break
    if (arg === '--help' || arg === '-h') return
  }
  await offer(rest)
}

/** The launcher's start, for the command its id resolution found (kept when the boot started it). */
export async function startEarlyWork(id: string, argv: readonly string[]): Promise<void> {
  // an offer made in this process is still there: only the command, which runs after this, takes it
  if (GENERATE.has(id) && !startedHere[STARTED]) await offer(argv)
}

/**
 * Called when the command has ended (or another path ran instead): work it never took (it stopped
 * before it needed the key: a usage error, keys already there) would keep the process alive until
 * PBKDF2 completes, as Node cannot cancel it, so the process ends now, with the command's exit
 * code, once what it wrote to stdout and stderr has been handed on. The derivation dies with the
 * process. Nothing is loaded when nothing was started.
 */
export function endEarlyWorkIfUnused(): void {
  if (!startedHere[STARTED]) return
  void import('../lib/keys/offered-wrapping-key.js').then(({ takeWrappingKey, wrappingKeyOffered }) => {
    if (!wrappingKeyOffered()) return
    takeWrappingKey(undefined) // refused: zeroed should it still complete
    process.stdout.write('', () => process.stderr.write('', () => process.exit()))
  })
}

/**
 * Whether a derivation was started in this process, by the boot's bundle or the launcher's (each
 * has its own copy of this module): a process-wide flag, so that a command that never started one
 * loads nothing to find that out.
 */
const STARTED = Symbol.for('tnv.earlyWorkStarted')
const startedHere = globalThis as { [STARTED]?: true }

async function offer(argv: readonly string[]): Promise<boolean> {
  const passphrase = process.env[PASSPHRASE_ENV]
  if (!passphrase || !envSourceLikely(argv)) return false
  // loaded only here, so no other command loads node:crypto for it
  const { offerWrappingKey } = await import('../lib/keys/offered-wrapping-key.js')
  offerWrappingKey(passphrase)
  startedHere[STARTED] = true
  return true
}

/**
 * False when the arguments name another passphrase source (the derivation would go unused, and
 * the process would wait for it before exiting). Only a guess to save work: the command's parser
 * decides, and a wrong guess costs time, never a wrong key.
 */
function envSourceLikely(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--') break
    if (arg === '--bls-passphrase-source') {
      if (argv[i + 1] !== 'env') return false
    } else if (arg.startsWith('--bls-passphrase-source=') && arg !== '--bls-passphrase-source=env') return false
  }
  return true
}
