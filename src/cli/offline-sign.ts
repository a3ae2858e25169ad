/**
 * The session side of `tnv offline sign`: the confirmation of the bundle's intent, and --check
 * (no key opened, nothing written). The bundle's checks and the signing are the library's
 * (src/lib/offline/sign-bundle.ts).
 */
import type { AnyBundle } from '../lib/offline/bundle.js'
import type { KeytoolCheckResult } from './keytool-check.js'
import type { Session } from './session.js'

/** --check: the signed file it would write (or already-done: that file holds this bundle's signature). */
export type OfflineSignCheckResult = KeytoolCheckResult & { bundle: string; step: string }

/**
 * --check: already-done when OUT already holds a signature of this bundle (a signed transaction
 * sealed for its digest; a delegation signature of its delegation digest); otherwise the file
 * it would write (0600).
 */
export async function checkOfflineSigning(
  bundle: AnyBundle,
  bundlePath: string,
  out: string,
): Promise<OfflineSignCheckResult> {
  const [{ parseSignedFile, DELEGATION_SIGNATURE_STEP }, { readFile }, { checkResult, planFiles }] = await Promise.all([
    import('../lib/offline/bundle.js'),
    import('node:fs/promises'),
    import('./keytool-check.js'),
  ])
  const text = await readFile(out, 'utf8').catch(() => null)
  const signedHere = (() => {
    if (text === null) return false
    try {
      if (bundle.step === DELEGATION_SIGNATURE_STEP)
        return (JSON.parse(text) as { digest?: unknown }).digest === bundle.delegation.digest
      return parseSignedFile(text, out).bundleDigest === bundle.digest
    } catch {
      return false
    }
  })()
  const r = signedHere
    ? checkResult([], `${out} already holds the signature of ${bundle.intent.title}`)
    : checkResult(
        await planFiles([{ path: out, mode: 0o600 }]),
        `would sign ${bundle.intent.title} and write the signed file`,
      )
  return { ...r, bundle: bundlePath, step: bundle.step }
}

/** Shows the intent (stderr) and asks on a terminal (default No); without one, --yes is needed. */
export async function confirmOfflineSigning(
  session: Session,
  { showIntent, bundle, rows, yes }: { showIntent: boolean; bundle: AnyBundle; rows: [string, string][]; yes: boolean },
): Promise<void> {
  const { interactive, prompter } = session
  if (showIntent || interactive) {
    const width = Math.max(...rows.map(([label]) => label.length))
    process.stderr.write(`${bundle.intent.title}\n`)
    for (const [label, value] of rows) process.stderr.write(`  ${label.padEnd(width)}  ${value}\n`)
  }
  if (yes) return
  const irreversible = bundle.intent.irreversible.length > 0
  if (interactive) {
    const ok = await prompter
      .confirm(`${irreversible ? 'This cannot be undone once broadcast. ' : ''}Sign it?`, false)
      .catch((err: unknown) => {
        if (err instanceof Error && err.name === 'AbortedError') return false
        throw err
      })
    if (ok) return
    const { AbortedError } = await import('../lib/errors.js')
    throw new AbortedError()
  }
  const { ConfirmationRequiredError } = await import('../lib/registry/errors.js')
  throw new ConfirmationRequiredError(`Signing the ${bundle.step} bundle`, irreversible ? 'irreversible' : 'money')
}
