/**
 * Work the launcher starts for a command before the command's code has loaded, because the
 * command is sure to need it and it does not depend on anything the command decides first.
 *
 * `keytool generate validator|observer`: the new bls.kw's wrapping key (PBKDF2, 1,000,000
 * iterations: most of the command's time) for the passphrase in TN_BLS_PASSPHRASE, the default
 * source, on the thread pool while the bundle loads and the checks run
 * (src/lib/keys/offered-wrapping-key.ts). The command uses it only for the passphrase it reads
 * itself, after its checks, from the source its flags name; otherwise it derives its own and this
 * one is zeroed. Nothing here reads, moves or removes the variable: the command still does,
 * exactly as before.
 */
import { PASSPHRASE_ENV } from '../lib/passphrase/env-var.js'

const GENERATE = new Set(['keytool:generate:validator', 'keytool:generate:observer'])

export type EarlyWork = {
  /**
   * Called when the command has ended: work it never took (it stopped before it needed the key:
   * a usage error, keys already there) would keep the process alive until PBKDF2 completes, as
   * Node cannot cancel it, so the process ends now, with the command's exit code, once what it
   * wrote to stdout and stderr has been handed on. The derivation dies with the process.
   */
  endIfUnused: () => void
}

export async function startEarlyWork(id: string, argv: readonly string[]): Promise<EarlyWork | undefined> {
  if (!GENERATE.has(id)) return undefined
  const passphrase = process.env[PASSPHRASE_ENV]
  if (!passphrase || !envSourceLikely(argv)) return undefined
  // loaded only here, so no other command loads node:crypto for it
  const { offerWrappingKey, takeWrappingKey, wrappingKeyOffered } = await import('../lib/keys/offered-wrapping-key.js')
  offerWrappingKey(passphrase)
  return {
    endIfUnused: () => {
      if (!wrappingKeyOffered()) return
      takeWrappingKey(undefined) // refused: zeroed should it still complete
      process.stdout.write('', () => process.stderr.write('', () => process.exit()))
    },
  }
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
